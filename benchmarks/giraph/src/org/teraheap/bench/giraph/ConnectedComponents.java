package org.teraheap.bench.giraph;

import org.apache.giraph.edge.Edge;
import org.apache.giraph.graph.BasicComputation;
import org.apache.giraph.graph.Vertex;
import org.apache.hadoop.io.DoubleWritable;
import org.apache.hadoop.io.LongWritable;

/**
 * Graphalytics weakly connected components (wcc): each vertex ends labelled with the smallest
 * vertex id of its component, found by propagating the smallest label seen until nothing
 * changes (every vertex votes to halt each superstep; a smaller label wakes it up).
 */
public class ConnectedComponents
        extends BasicComputation<LongWritable, LongWritable, DoubleWritable, LongWritable> {

    @Override
    public void compute(Vertex<LongWritable, LongWritable, DoubleWritable> vertex,
            Iterable<LongWritable> messages) {
        if (getSuperstep() == 0) {
            // The neighbours' ids are known locally: start from the smallest of them.
            long smallest = vertex.getId().get();
            for (Edge<LongWritable, DoubleWritable> edge : vertex.getEdges()) {
                smallest = Math.min(smallest, edge.getTargetVertexId().get());
            }
            vertex.getValue().set(smallest);
            sendMessageToAllEdges(vertex, new LongWritable(smallest));
        } else {
            long smallest = vertex.getValue().get();
            for (LongWritable label : messages) {
                smallest = Math.min(smallest, label.get());
            }
            if (smallest < vertex.getValue().get()) {
                vertex.getValue().set(smallest);
                sendMessageToAllEdges(vertex, new LongWritable(smallest));
            }
        }
        vertex.voteToHalt();
    }
}
