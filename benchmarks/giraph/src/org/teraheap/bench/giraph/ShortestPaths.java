package org.teraheap.bench.giraph;

import org.apache.giraph.edge.Edge;
import org.apache.giraph.graph.BasicComputation;
import org.apache.giraph.graph.Vertex;
import org.apache.hadoop.io.DoubleWritable;
import org.apache.hadoop.io.LongWritable;

/**
 * Graphalytics single-source shortest paths (sssp) over the edge weights, from the source of
 * {@link SourceVertex}; infinity for vertices the source does not reach. Bellman-Ford style:
 * a vertex whose distance shrinks offers distance + weight to each neighbour.
 */
public class ShortestPaths
        extends BasicComputation<LongWritable, DoubleWritable, DoubleWritable, DoubleWritable> {

    private long source;

    @Override
    public void preSuperstep() {
        if (getSuperstep() == 1) {
            source = SourceVertex.get(getConf(), this);
        }
    }

    @Override
    public void compute(Vertex<LongWritable, DoubleWritable, DoubleWritable> vertex,
            Iterable<DoubleWritable> messages) {
        if (getSuperstep() == 0) {
            vertex.getValue().set(Double.POSITIVE_INFINITY);
            SourceVertex.offer(this, vertex.getId());
            // Stay active: superstep 1 must run for every vertex to find the source.
            return;
        }
        double distance = Double.POSITIVE_INFINITY;
        if (getSuperstep() == 1) {
            if (vertex.getId().get() == source) {
                distance = 0;
            }
        } else {
            for (DoubleWritable offered : messages) {
                distance = Math.min(distance, offered.get());
            }
        }
        if (distance < vertex.getValue().get()) {
            vertex.getValue().set(distance);
            for (Edge<LongWritable, DoubleWritable> edge : vertex.getEdges()) {
                sendMessage(edge.getTargetVertexId(),
                        new DoubleWritable(distance + edge.getValue().get()));
            }
        }
        vertex.voteToHalt();
    }
}
