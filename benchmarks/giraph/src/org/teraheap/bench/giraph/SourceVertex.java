package org.teraheap.bench.giraph;

import org.apache.giraph.aggregators.AggregatorUsage;
import org.apache.giraph.aggregators.LongMinAggregator;
import org.apache.giraph.master.DefaultMasterCompute;
import org.apache.giraph.worker.WorkerAggregatorUsage;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;

/**
 * The source vertex of bfs and sssp: the one given with {@code --source}, else the smallest
 * vertex id in the graph. The latter is found inside the job, without reading the input twice:
 * in superstep 0 every vertex offers its id to a min aggregator, and the traversal starts in
 * superstep 1. Superstep s thus reaches depth s-1.
 */
public final class SourceVertex {
    static final String SMALLEST_ID = "source.smallest-id";

    private SourceVertex() {
    }

    /** In superstep 0: offer this vertex as the smallest id. */
    static void offer(WorkerAggregatorUsage usage, LongWritable id) {
        usage.aggregate(SMALLEST_ID, id);
    }

    /** From superstep 1 on: the source id (read it once per superstep, in preSuperstep). */
    static long get(Configuration conf, AggregatorUsage usage) {
        Long configured = BenchConf.source(conf);
        if (configured != null) {
            return configured;
        }
        LongWritable smallest = usage.getAggregatedValue(SMALLEST_ID);
        return smallest.get();
    }

    /** Registers the smallest-id aggregator. */
    public static class Master extends DefaultMasterCompute {
        @Override
        public void initialize() throws InstantiationException, IllegalAccessException {
            registerAggregator(SMALLEST_ID, LongMinAggregator.class);
        }
    }
}
