package org.teraheap.bench.giraph;

import java.io.IOException;

import org.apache.giraph.edge.Edge;
import org.apache.giraph.edge.EdgeFactory;
import org.apache.giraph.io.EdgeReader;
import org.apache.giraph.io.formats.TextEdgeInputFormat;
import org.apache.hadoop.io.DoubleWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * Reads a Graphalytics edge list ({@link EdgeLine}) as an undirected graph: each line's edge is
 * given to Giraph in both directions, as Giraph's own {@code ReverseEdgeDuplicator} does, so
 * every vertex holds all its neighbours as out-edges. Self-loops are dropped. A line that occurs
 * twice (or as both {@code a b} and {@code b a}) gives two parallel edges, in {@link Reference}
 * too; Graphalytics files list each edge once.
 *
 * <p>Giraph creates a vertex for every id that is the source of an edge, so only vertices with
 * at least one edge exist: isolated vertices (which an edge list cannot name anyway) are not
 * represented, in the output nor in the vertex count N that PageRank uses.
 */
public class UndirectedEdgeListInputFormat extends TextEdgeInputFormat<LongWritable, DoubleWritable> {

    @Override
    public EdgeReader<LongWritable, DoubleWritable> createEdgeReader(InputSplit split,
            TaskAttemptContext context) throws IOException {
        return new UndirectedEdgeReader();
    }

    /** Gives each edge line twice: first as written, then reversed. */
    private final class UndirectedEdgeReader extends TextEdgeReader {
        private final EdgeLine line = new EdgeLine();
        /** Whether the current edge is the reverse of the line last read. */
        private boolean reversed = true;

        @Override
        public boolean nextEdge() throws IOException, InterruptedException {
            if (!reversed) {
                reversed = true;
                return true;
            }
            while (getRecordReader().nextKeyValue()) {
                if (line.parse(getRecordReader().getCurrentValue().toString())
                        && line.source != line.target) {
                    reversed = false;
                    return true;
                }
            }
            return false;
        }

        // Fresh objects per edge: the caller may hold on to them until it serializes the edge.
        @Override
        public LongWritable getCurrentSourceId() {
            return new LongWritable(reversed ? line.target : line.source);
        }

        @Override
        public Edge<LongWritable, DoubleWritable> getCurrentEdge() {
            long target = reversed ? line.source : line.target;
            return EdgeFactory.create(new LongWritable(target), new DoubleWritable(line.weight));
        }
    }
}
