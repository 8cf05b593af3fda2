package org.teraheap.bench.giraph;

import org.apache.giraph.aggregators.DoubleSumAggregator;
import org.apache.giraph.graph.BasicComputation;
import org.apache.giraph.graph.Vertex;
import org.apache.giraph.master.DefaultMasterCompute;
import org.apache.hadoop.io.DoubleWritable;
import org.apache.hadoop.io.LongWritable;

/**
 * Graphalytics PageRank: PR_0(v) = 1/N, then for a fixed number of iterations
 * PR_i(v) = (1-d)/N + d * (sum over neighbours u of PR_{i-1}(u)/deg(u) + D_{i-1}/N), where D is
 * the rank held by dangling (edgeless) vertices, spread evenly over all vertices.
 *
 * <p>Superstep s computes PR_s; superstep 0 is the initial rank. Dangling vertices cannot occur
 * in our undirected input (an edgeless vertex is not represented), but the rule is kept so the
 * code is the Graphalytics algorithm and not a special case of it.
 */
public class PageRank extends BasicComputation<LongWritable, DoubleWritable, DoubleWritable, DoubleWritable> {
    /** Rank of the dangling vertices, summed in one superstep and read in the next. */
    static final String DANGLING = "pr.dangling";

    private int iterations;
    private double vertexCount;

    @Override
    public void preSuperstep() {
        iterations = BenchConf.iterations(getConf());
        vertexCount = getTotalNumVertices();
    }

    @Override
    public void compute(Vertex<LongWritable, DoubleWritable, DoubleWritable> vertex,
            Iterable<DoubleWritable> messages) {
        double rank;
        if (getSuperstep() == 0) {
            rank = 1.0 / vertexCount;
        } else {
            double sum = 0;
            for (DoubleWritable contribution : messages) {
                sum += contribution.get();
            }
            DoubleWritable dangling = getAggregatedValue(DANGLING);
            rank = pageRankStep(sum, dangling.get(), vertexCount);
        }
        vertex.getValue().set(rank);
        if (getSuperstep() < iterations) {
            int degree = vertex.getNumEdges();
            if (degree > 0) {
                sendMessageToAllEdges(vertex, new DoubleWritable(rank / degree));
            } else {
                aggregate(DANGLING, new DoubleWritable(rank));
            }
        } else {
            vertex.voteToHalt();
        }
    }

    /** One vertex's new rank; shared with {@link Reference} so both round the same way. */
    static double pageRankStep(double neighbourSum, double danglingSum, double vertexCount) {
        double d = BenchConf.PAGERANK_DAMPING;
        return (1 - d) / vertexCount + d * (neighbourSum + danglingSum / vertexCount);
    }

    /** Registers the dangling-rank sum; stops after the last iteration. */
    public static class Master extends DefaultMasterCompute {
        @Override
        public void initialize() throws InstantiationException, IllegalAccessException {
            registerAggregator(DANGLING, DoubleSumAggregator.class);
        }

        @Override
        public void compute() {
            // Vertices halt by themselves after the last iteration; this is a backstop.
            if (getSuperstep() > BenchConf.iterations(getConf())) {
                haltComputation();
            }
        }
    }
}
