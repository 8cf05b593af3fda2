package org.teraheap.bench.giraph;

import java.util.Arrays;

import org.apache.giraph.graph.BasicComputation;
import org.apache.giraph.graph.Vertex;
import org.apache.giraph.master.DefaultMasterCompute;
import org.apache.hadoop.io.DoubleWritable;
import org.apache.hadoop.io.LongWritable;

/**
 * Graphalytics community detection by label propagation (cdlp): every vertex starts with its
 * own id as label; in each of a fixed number of iterations, all vertices at once take the label
 * that is most frequent among their neighbours' labels, the smallest such label on a tie. A
 * vertex without neighbours keeps its label.
 */
public class LabelPropagation
        extends BasicComputation<LongWritable, LongWritable, DoubleWritable, LongWritable> {
    private int iterations;
    /** Reused for each vertex; a computation object serves one thread. */
    private long[] labels = new long[64];

    @Override
    public void preSuperstep() {
        iterations = BenchConf.iterations(getConf());
    }

    @Override
    public void compute(Vertex<LongWritable, LongWritable, DoubleWritable> vertex,
            Iterable<LongWritable> messages) {
        if (getSuperstep() == 0) {
            vertex.getValue().set(vertex.getId().get());
        } else {
            int count = 0;
            for (LongWritable label : messages) {
                if (count == labels.length) {
                    labels = Arrays.copyOf(labels, count * 2);
                }
                labels[count++] = label.get();
            }
            if (count > 0) {
                vertex.getValue().set(mostFrequent(labels, count));
            }
        }
        if (getSuperstep() < iterations) {
            sendMessageToAllEdges(vertex, new LongWritable(vertex.getValue().get()));
        } else {
            vertex.voteToHalt();
        }
    }

    /**
     * The most frequent of {@code labels[0..count)}, the smallest one on a tie; sorts them.
     * Shared with {@link Reference}.
     */
    static long mostFrequent(long[] labels, int count) {
        Arrays.sort(labels, 0, count);
        long best = labels[0];
        int bestRun = 0;
        for (int start = 0; start < count; ) {
            int end = start + 1;
            while (end < count && labels[end] == labels[start]) {
                end++;
            }
            // Strictly longer: runs come in ascending label order, so ties keep the smaller.
            if (end - start > bestRun) {
                bestRun = end - start;
                best = labels[start];
            }
            start = end;
        }
        return best;
    }

    /** Stops after the last iteration. */
    public static class Master extends DefaultMasterCompute {
        @Override
        public void compute() {
            // Vertices halt by themselves after the last iteration; this is a backstop.
            if (getSuperstep() > BenchConf.iterations(getConf())) {
                haltComputation();
            }
        }
    }
}
