package org.teraheap.bench;

import java.util.List;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.graphx.Edge;
import org.apache.spark.graphx.Graph;
import org.apache.spark.graphx.lib.ConnectedComponents;
import org.apache.spark.graphx.lib.PageRank;
import org.apache.spark.graphx.lib.ShortestPaths;
import org.apache.spark.graphx.lib.TriangleCount;

import scala.Tuple2;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * The GraphX workloads, each running the algorithm of org.apache.spark.graphx.lib.
 *
 * <p>Graphs are built with Graph.fromEdges(edges, default, level, level): the edge and vertex
 * RDDs are cached at the chosen storage level, and so are the intermediate graphs the
 * algorithms derive from them (they inherit the target storage levels of their parent).
 */
final class GraphWorkloads {

    /** Int attributes, stored in primitive arrays as a Scala caller would get them. */
    private static final ClassTag<Object> INT = ClassTag$.MODULE$.Int();
    private static final Integer ONE = 1;
    private static final Integer ZERO = 0;

    private static final double RESET_PROB = 0.15;
    /** ShortestPaths landmarks: the lowest R-MAT ids are the hubs, reachable from most vertices. */
    private static final List<Object> LANDMARKS = List.of(0L, 1L, 2L, 3L);

    private GraphWorkloads() {
    }

    private static Graph<Object, Object> rmatGraph(JavaSparkContext jsc, SparkBench.Params p,
                                                   long vertices, long edges) {
        JavaRDD<Edge<Object>> e = Generators.rmatEdges(jsc, vertices, edges, p.partitions());
        return Graph.fromEdges(e.rdd(), ZERO, p.level(), p.level(), INT, INT);
    }

    private static Graph<Object, Object> rmatGraph(JavaSparkContext jsc, SparkBench.Params p) {
        return rmatGraph(jsc, p, Generators.scaled(Generators.GRAPH_VERTICES, p.scale()),
                Generators.scaled(Generators.GRAPH_EDGES, p.scale()));
    }

    /** PageRank, fixed number of iterations. Checksum: weighted sum of the ranks. */
    static SparkBench.Outcome pageRank(JavaSparkContext jsc, SparkBench.Params p) {
        Graph<Object, Object> ranks = PageRank.run(rmatGraph(jsc, p), p.iterations(), RESET_PROB, INT, INT);
        double sum = Checksums.sum(ranks.vertices(), (vid, rank) -> (Double) rank * Checksums.weight(vid));
        return SparkBench.Outcome.approx(sum, Checksums.FLOAT_TOLERANCE, p.iterations());
    }

    /**
     * Connected components (edges taken as undirected), until convergence or the iteration cap.
     * Checksum: hash of (vertex, component) pairs.
     */
    static SparkBench.Outcome connectedComponents(JavaSparkContext jsc, SparkBench.Params p) {
        Graph<Object, Object> cc = ConnectedComponents.run(rmatGraph(jsc, p), p.iterations(), INT, INT);
        long hash = Checksums.hashSum(cc.vertices(),
                (vid, comp) -> Generators.mix64(vid * 0x9E3779B97F4A7C15L ^ (Long) comp));
        return SparkBench.Outcome.exact(hash, p.iterations());
    }

    /**
     * Hop distances to a few landmarks; GraphX runs Pregel until no distance changes, so the
     * reported iteration count is the largest distance found (the rounds that did work).
     * Checksum: hash of (vertex, landmark, distance) triples.
     */
    static SparkBench.Outcome shortestPaths(JavaSparkContext jsc, SparkBench.Params p) {
        if (p.iterationsGiven()) {
            System.err.println("SparkBench: sssp runs to convergence; --iterations is ignored");
        }
        Graph<scala.collection.Map<Object, Object>, Object> sp =
            ShortestPaths.run(rmatGraph(jsc, p), ScalaLine.seq(LANDMARKS), INT);
        long hash = Checksums.hashSum(sp.vertices(), (vid, dists) -> {
            long h = 0;
            scala.collection.Iterator<Tuple2<Object, Object>> it = dists.iterator();
            while (it.hasNext()) {
                Tuple2<Object, Object> d = it.next();
                h += Generators.mix64(Generators.mix64(vid * 31 + (Long) d._1()) + (Integer) d._2());
            }
            return h;
        });
        int rounds = sp.vertices().toJavaRDD().map(t -> {
            int max = 0;
            scala.collection.Iterator<Object> it = t._2().valuesIterator();
            while (it.hasNext()) {
                max = Math.max(max, (Integer) it.next());
            }
            return max;
        }).fold(0, Math::max);
        return SparkBench.Outcome.exact(hash, rounds);
    }

    /**
     * SVD++ on a bipartite user-item rating graph (SvdPlusPlus: the algorithm of GraphX's
     * SVDPlusPlus, with its graphs cached at the chosen storage level, which GraphX's own
     * version ignores). Checksum: a weighted sum of all model parameters, signs kept.
     */
    static SparkBench.Outcome svdPlusPlus(JavaSparkContext jsc, SparkBench.Params p) {
        JavaRDD<Edge<Object>> ratings = Generators.ratings(jsc,
                Generators.scaled(Generators.USERS, p.scale()),
                Generators.scaled(Generators.ITEMS, p.scale()),
                Generators.scaled(Generators.RATINGS, p.scale()), p.partitions());
        SvdPlusPlus.Model model = SvdPlusPlus.train(ratings, p.iterations(), p.level());
        // As GraphX's version does, the run ends with the error on the training set.
        System.err.printf("SparkBench: svdpp: training RMSE %.4f after %d iterations%n",
                model.trainingError(), p.iterations());
        double sum = Checksums.sum(model.graph().vertices(), (vid, v) -> Checksums.weight(vid)
                * (Checksums.signedDigest(v.factor) + 2 * Checksums.signedDigest(v.implicit) + 3 * v.bias + v.norm));
        return SparkBench.Outcome.approx(sum, Checksums.FLOAT_TOLERANCE, p.iterations());
    }

    /**
     * Triangles per vertex. TriangleCount.run would canonicalize the graph itself through
     * Graph.apply at the default storage level; instead the edges are canonicalized here
     * (srcId &lt; dstId, no self loops, no duplicates) and runPreCanonicalized is used, so the
     * graph is cached at the chosen level. Checksum: hash of (vertex, count) pairs.
     */
    static SparkBench.Outcome triangleCount(JavaSparkContext jsc, SparkBench.Params p) {
        long n = Generators.scaled(Generators.TC_VERTICES, p.scale());
        JavaRDD<Edge<Object>> canonical = Generators
                .rmatEdges(jsc, n, Generators.scaled(Generators.TC_EDGES, p.scale()), p.partitions())
                .filter(e -> e.srcId() != e.dstId())
                .map(e -> Math.min(e.srcId(), e.dstId()) * n + Math.max(e.srcId(), e.dstId()))
                .distinct(p.partitions())
                .map(key -> new Edge<Object>(key / n, key % n, ONE));
        Graph<Object, Object> g = Graph.fromEdges(canonical.rdd(), ZERO, p.level(), p.level(), INT, INT);
        Graph<Object, Object> counts = TriangleCount.runPreCanonicalized(g, INT, INT);
        long hash = Checksums.hashSum(counts.vertices(),
                (vid, count) -> Generators.mix64(vid * 0x9E3779B97F4A7C15L + (Integer) count));
        return SparkBench.Outcome.exact(hash, 1);
    }
}
