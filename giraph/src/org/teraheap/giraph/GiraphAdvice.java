package org.teraheap.giraph;

import net.bytebuddy.asm.Advice;
import org.apache.giraph.edge.OutEdges;
import org.apache.giraph.graph.Vertex;
import org.apache.giraph.utils.Trimmable;

/**
 * Advice woven into unmodified Giraph. Byte Buddy copies these bodies into Giraph's methods, so
 * they stay small, read Giraph's fields there, and hand plain objects to {@link GiraphPlacement}.
 */
final class GiraphAdvice {
    private GiraphAdvice() {
    }

    /** {@code DefaultVertex.setEdges}, which its {@code initialize} and every subclass use. */
    static final class SetEdges {
        @Advice.OnMethodExit
        static void exit(@Advice.FieldValue("edges") OutEdges<?, ?> edges) {
            GiraphPlacement placement = GiraphPlacement.get();
            if (placement != null && edges != null && edges.size() > 0) {
                // Giraph trims edges after the first compute, copying a ByteArrayEdges' array; done
                // now, the array tagged is the one the vertex keeps.
                if (edges instanceof Trimmable) {
                    ((Trimmable) edges).trim();
                }
                placement.edgesSet(edges);
            }
        }
    }

    /**
     * {@code WritableUtils.reinitializeVertexFromDataInput}: a vertex read back from bytes (as
     * every vertex loaded is, when its partition reaches its worker) has new edges.
     */
    static final class VertexRead {
        @Advice.OnMethodExit
        static void exit(@Advice.Argument(1) Vertex<?, ?, ?> vertex) {
            GiraphPlacement placement = GiraphPlacement.get();
            Object read = vertex.getEdges();
            OutEdges<?, ?> edges = read instanceof OutEdges ? (OutEdges<?, ?>) read : null;
            if (placement != null && edges != null && edges.size() > 0) {
                if (edges instanceof Trimmable) {
                    ((Trimmable) edges).trim();
                }
                placement.edgesSet(edges);
            }
        }
    }

    /** {@code ServerData}'s constructor: one per worker and job. */
    static final class WorkerStarted {
        @Advice.OnMethodExit
        static void exit(@Advice.This Object serverData) {
            GiraphPlacement placement = GiraphPlacement.get();
            if (placement != null) {
                placement.workerStarted(serverData);
            }
        }
    }

    /** {@code ServerData.prepareSuperstep}: last superstep's incoming messages become current. */
    static final class PrepareSuperstep {
        @Advice.OnMethodExit
        static void exit(@Advice.This Object serverData) {
            GiraphPlacement placement = GiraphPlacement.get();
            if (placement != null) {
                placement.superstepPrepared(serverData);
            }
        }
    }
}
