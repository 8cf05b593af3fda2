package org.teraheap.bench;

import java.io.Serializable;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.graphx.Edge;
import org.apache.spark.graphx.EdgeDirection;
import org.apache.spark.graphx.EdgeTriplet;
import org.apache.spark.graphx.Graph;
import org.apache.spark.graphx.Pregel;

import scala.Tuple2;
import scala.collection.Iterator;
import scala.collection.Iterator$;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction1;
import scala.runtime.AbstractFunction2;
import scala.runtime.AbstractFunction3;

/**
 * SparkBench's PregelOperation: single-source shortest paths written with GraphX's
 * {@code Pregel} directly, over an R-MAT graph whose edges weigh 1 to 16 (Doubles). The graph is
 * cached at the chosen level, and so is each superstep's graph, which Pregel derives from it.
 *
 * <p>The weights are whole numbers, so every distance is a whole number held exactly in a double
 * and the checksum is exact: a hash of (vertex, distance) over the vertices the source reaches.
 */
final class PregelOperation {
    private static final ClassTag<Object> DOUBLE = ClassTag$.MODULE$.Double();
    private static final long SOURCE = 0L;   // the lowest R-MAT id: a hub, which reaches most vertices
    private static final Double UNREACHED = Double.POSITIVE_INFINITY;
    private static final int MAX_WEIGHT = 16;

    private PregelOperation() {
    }

    static SparkBench.Outcome run(JavaSparkContext jsc, SparkBench.Params p) {
        JavaRDD<Edge<Object>> edges = Generators.rmatEdges(jsc,
                Generators.scaled(Generators.GRAPH_VERTICES, p.scale()),
                Generators.scaled(Generators.GRAPH_EDGES, p.scale()), p.partitions())
            .map(e -> new Edge<Object>(e.srcId(), e.dstId(), weight(e.srcId(), e.dstId())));
        Graph<Object, Object> graph = Graph.fromEdges(edges.rdd(), UNREACHED, p.level(), p.level(), DOUBLE, DOUBLE);
        // Converges unless --iterations caps the supersteps.
        int supersteps = p.iterationsGiven() ? p.iterations() : Integer.MAX_VALUE;
        Graph<Object, Object> distances = Pregel.apply(graph, UNREACHED, supersteps, EdgeDirection.Out(),
                new Relax(), new Offer(), new Shorter(), DOUBLE, DOUBLE, DOUBLE);
        long hash = Checksums.hashSum(distances.vertices(), (vid, d) -> {
            double distance = (Double) d;
            return Double.isInfinite(distance) ? 0L : Generators.mix64(vid * 0x9E3779B97F4A7C15L + (long) distance);
        });
        long reached = distances.vertices().toJavaRDD().filter(t -> !Double.isInfinite((Double) t._2())).count();
        System.err.printf("SparkBench: pregel: %d vertices reached from vertex %d%n", reached, SOURCE);
        return SparkBench.Outcome.exact(hash, p.iterationsGiven() ? p.iterations() : 0);
    }

    /** An edge's weight, from its ends: the same in every run and every configuration. */
    static double weight(long src, long dst) {
        return 1 + Long.remainderUnsigned(Generators.mix64(src * 31 + dst), MAX_WEIGHT);
    }

    /** A vertex takes the shorter of its distance and the best offer; the source is at 0. */
    private static final class Relax extends AbstractFunction3<Object, Object, Object, Object> implements Serializable {
        @Override
        public Object apply(Object vid, Object distance, Object offer) {
            return (Long) vid == SOURCE ? 0.0 : Math.min((Double) distance, (Double) offer);
        }
    }

    /** Along an edge, offers the destination a shorter distance if there is one. */
    private static final class Offer extends AbstractFunction1<EdgeTriplet<Object, Object>, Iterator<Tuple2<Object, Object>>>
            implements Serializable {
        @Override
        public Iterator<Tuple2<Object, Object>> apply(EdgeTriplet<Object, Object> t) {
            double through = (Double) t.srcAttr() + (Double) t.attr();
            if (through < (Double) t.dstAttr()) {
                return Iterator$.MODULE$.single(new Tuple2<>(t.dstId(), through));
            }
            return none();
        }
    }

    /** Scala's empty iterator, typed as Java cannot infer it (Scala's is of Nothing). */
    @SuppressWarnings("unchecked")
    private static Iterator<Tuple2<Object, Object>> none() {
        return (Iterator<Tuple2<Object, Object>>) (Iterator<?>) Iterator$.MODULE$.empty();
    }

    /** Of two offers to one vertex, the shorter. */
    private static final class Shorter extends AbstractFunction2<Object, Object, Object> implements Serializable {
        @Override
        public Object apply(Object a, Object b) {
            return Math.min((Double) a, (Double) b);
        }
    }
}
