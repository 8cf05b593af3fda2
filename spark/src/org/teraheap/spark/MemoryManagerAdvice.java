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
        // An error returns false: Spark's own body then runs.
        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class, suppress = Throwable.class)
        static boolean enter(@Advice.Argument(0) long bytes, @Advice.Argument(1) MemoryMode mode) {
            return H2StorageBudget.releaseIfInH2Budget(bytes, mode);
        }
    }

    /** {@code releaseAllStorageMemory()}: the store is cleared. */
    static final class ReleaseAll {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter() {
            H2StorageBudget.releaseAllInH2Budget();
        }
    }
}
