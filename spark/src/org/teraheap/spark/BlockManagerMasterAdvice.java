package org.teraheap.spark;

import net.bytebuddy.asm.Advice;

/**
 * Advice woven into Spark's {@code BlockManagerMaster}, the executor's side of the driver's block
 * registry. Executors report each cached block's size to the driver, blocks in H2 included, and
 * the driver sets them against the storage memory the executor registered: H1's pool alone,
 * unadvised, so the UI's and the REST API's storage memory would read above 100%. The executor
 * registers H1's pool plus H2's budget instead, what it really can hold.
 */
final class BlockManagerMasterAdvice {
    private BlockManagerMasterAdvice() {
    }

    /** {@code registerBlockManager(id, localDirs, maxOnHeapMemSize, maxOffHeapMemSize, endpoint, reregister)}. */
    static final class Register {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 2, readOnly = false) long maxOnHeap) {
            maxOnHeap = H2StorageBudget.withH2Budget(maxOnHeap);
        }
    }
}
