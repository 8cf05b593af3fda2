package org.teraheap.hybrid;

import net.bytebuddy.asm.Advice;

/**
 * Advice woven into Spark's {@code BlockManagerMaster}: an executor registers with the driver the
 * storage memory it can hold, the file tier as off-heap memory, since the sizes it reports for
 * blocks in the file count against that figure in Spark's UI ({@link FileBlockStatus}).
 */
final class BlockManagerMasterAdvice {
    private BlockManagerMasterAdvice() {
    }

    /** {@code registerBlockManager(id, localDirs, maxOnHeapMemSize, maxOffHeapMemSize, endpoint, reregister)}. */
    static final class Register {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 3, readOnly = false) long maxOffHeap) {
            maxOffHeap = FileTier.withFileCapacity(maxOffHeap);
        }
    }
}
