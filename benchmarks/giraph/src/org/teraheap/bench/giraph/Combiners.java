package org.teraheap.bench.giraph;

import org.apache.giraph.combiner.MessageCombiner;
import org.apache.hadoop.io.DoubleWritable;
import org.apache.hadoop.io.LongWritable;

/**
 * The message combiners of {@code --combiner}: each folds all messages to one vertex into one,
 * which the computations then see as a single message with the same meaning.
 */
public final class Combiners {
    private Combiners() {
    }

    /** PageRank: the contributions add up. */
    public static final class DoubleSum implements MessageCombiner<LongWritable, DoubleWritable> {
        @Override
        public void combine(LongWritable vertex, DoubleWritable original, DoubleWritable other) {
            original.set(original.get() + other.get());
        }

        @Override
        public DoubleWritable createInitialMessage() {
            return new DoubleWritable(0);
        }
    }

    /** wcc, bfs: only the smallest label or depth matters. */
    public static final class LongMin implements MessageCombiner<LongWritable, LongWritable> {
        @Override
        public void combine(LongWritable vertex, LongWritable original, LongWritable other) {
            if (other.get() < original.get()) {
                original.set(other.get());
            }
        }

        @Override
        public LongWritable createInitialMessage() {
            return new LongWritable(Long.MAX_VALUE);
        }
    }

    /** sssp: only the shortest distance matters. */
    public static final class DoubleMin implements MessageCombiner<LongWritable, DoubleWritable> {
        @Override
        public void combine(LongWritable vertex, DoubleWritable original, DoubleWritable other) {
            if (other.get() < original.get()) {
                original.set(other.get());
            }
        }

        @Override
        public DoubleWritable createInitialMessage() {
            return new DoubleWritable(Double.POSITIVE_INFINITY);
        }
    }
}
