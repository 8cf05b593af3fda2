package org.teraheap.giraph;

import net.bytebuddy.asm.Advice;

/**
 * Advice woven into unmodified Giraph. Byte Buddy copies these bodies into Giraph's methods, so
 * they stay small, read Giraph's fields there, and hand plain objects to {@link GiraphPlacement}.
 * They name no Giraph type: Byte Buddy resolves the advice's signatures through the agent's class
 * loader, which need not see Giraph (a job's own class loader may load it). Nothing they call may
 * break Giraph, so every exit suppresses what is thrown.
 */
final class GiraphAdvice {
    private GiraphAdvice() {
    }

    /** {@code DefaultVertex.setEdges}, which its {@code initialize} and every subclass use. */
    static final class SetEdges {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.FieldValue("edges") Object edges) {
            GiraphPlacement placement = GiraphPlacement.get();
            if (placement != null) {
                placement.edgesSet(edges);
            }
        }
    }

    /**
     * {@code WritableUtils.reinitializeVertexFromDataInput}: a vertex read back from bytes (as
     * every vertex loaded is, when its partition reaches its worker) has new edges.
     */
    static final class VertexRead {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.Argument(1) Object vertex) {
            GiraphPlacement placement = GiraphPlacement.get();
            if (placement != null) {
                placement.vertexRead(vertex);
            }
        }
    }

    /** {@code ServerData}'s constructor: one per worker and job. */
    static final class WorkerStarted {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.This Object serverData) {
            GiraphPlacement placement = GiraphPlacement.get();
            if (placement != null) {
                placement.workerStarted(serverData);
            }
        }
    }

    /** {@code ServerData.prepareSuperstep}: last superstep's incoming messages become current. */
    static final class PrepareSuperstep {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.This Object serverData) {
            GiraphPlacement placement = GiraphPlacement.get();
            if (placement != null) {
                placement.superstepPrepared(serverData);
            }
        }
    }
}
