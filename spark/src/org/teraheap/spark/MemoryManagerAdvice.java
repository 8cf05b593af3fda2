package org.teraheap.spark;

import net.bytebuddy.asm.Advice;
import org.apache.spark.memory.MemoryMode;

/**
 * Advice woven into Spark's {@code MemoryManager}: releasing a block that is counted against H2
 * gives back H2's budget, not H1's storage pool. The advised methods are synchronized on the
 * manager, so the budget changes under Spark's own memory lock.
 */
final class MemoryManagerAdvice {
    private MemoryManagerAdvice() {
    }

    /** {@code releaseStorageMemory(numBytes, memoryMode)}: skipped for a block counted in H2. */
    static final class ReleaseStorage {
        // A true return skips Spark's body (skipOn = OnNonDefaultValue): H1's pool is untouched.
        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean enter(@Advice.Argument(0) long bytes, @Advice.Argument(1) MemoryMode mode) {
            H2StorageBudget budget = H2StorageBudget.get();
            return budget != null && budget.releaseRemoved(bytes, mode);
        }
    }

    /** {@code releaseAllStorageMemory()}: the store is cleared. */
    static final class ReleaseAll {
        @Advice.OnMethodEnter
        static void enter() {
            H2StorageBudget budget = H2StorageBudget.get();
            if (budget != null) {
                budget.releaseAll();
            }
        }
    }
}
