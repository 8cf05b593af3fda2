package org.teraheap.bench.giraph;

import org.apache.giraph.graph.BasicComputation;
import org.apache.giraph.graph.Vertex;
import org.apache.hadoop.io.DoubleWritable;
import org.apache.hadoop.io.LongWritable;

/**
 * Graphalytics breadth-first search (bfs): each vertex's depth in hops from the source
 * ({@link SourceVertex}); {@link #UNREACHABLE} (Long.MAX_VALUE, as Graphalytics) for vertices
 * the source does not reach. Messages carry the depth the receiver would get.
 */
public class BreadthFirstSearch
        extends BasicComputation<LongWritable, LongWritable, DoubleWritable, LongWritable> {
    static final long UNREACHABLE = Long.MAX_VALUE;

    private long source;

    @Override
    public void preSuperstep() {
        if (getSuperstep() == 1) {
            source = SourceVertex.get(getConf(), this);
        }
    }

    @Override
    public void compute(Vertex<LongWritable, LongWritable, DoubleWritable> vertex,
            Iterable<LongWritable> messages) {
        if (getSuperstep() == 0) {
            vertex.getValue().set(UNREACHABLE);
            SourceVertex.offer(this, vertex.getId());
            // Stay active: superstep 1 must run for every vertex to find the source.
            return;
        }
        long depth = UNREACHABLE;
        if (getSuperstep() == 1) {
            if (vertex.getId().get() == source) {
                depth = 0;
            }
        } else {
            for (LongWritable offered : messages) {
                depth = Math.min(depth, offered.get());
            }
        }
        if (depth < vertex.getValue().get()) {
            vertex.getValue().set(depth);
            sendMessageToAllEdges(vertex, new LongWritable(depth + 1));
        }
        vertex.voteToHalt();
    }
}
