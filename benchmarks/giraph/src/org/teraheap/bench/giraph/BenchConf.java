package org.teraheap.bench.giraph;

import org.apache.hadoop.conf.Configuration;

/** Our own job settings, carried to the computations in the Giraph configuration. */
final class BenchConf {
    /** Iterations of pr and cdlp. */
    static final String ITERATIONS = "teraheap.bench.iterations";
    static final int DEFAULT_ITERATIONS = 10;
    /** Source vertex of bfs and sssp; unset means the smallest vertex id in the graph. */
    static final String SOURCE = "teraheap.bench.source";

    static final double PAGERANK_DAMPING = 0.85;

    private BenchConf() {
    }

    static int iterations(Configuration conf) {
        return conf.getInt(ITERATIONS, DEFAULT_ITERATIONS);
    }

    /** The configured source, or null to take the smallest vertex id. */
    static Long source(Configuration conf) {
        String value = conf.get(SOURCE);
        return value == null ? null : Long.valueOf(value);
    }
}
