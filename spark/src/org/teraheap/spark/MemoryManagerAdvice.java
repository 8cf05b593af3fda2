package org.teraheap.spark;

import net.bytebuddy.asm.Advice;
import org.apache.spark.memory.MemoryMode;
import org.apache.spark.storage.BlockId;

/**
 * Advice woven into Spark's {@code UnifiedMemoryManager} and {@code MemoryManager}: the
 * requests and releases of storage memory for deserialized RDD blocks go to
 * {@link H2StorageBudget}. The advised methods are synchronized on the manager, so the
 * budget changes under Spark's own memory lock.
 */
final class MemoryManagerAdvice {
    private MemoryManagerAdvice() {
    }

    /** {@code acquireStorageMemory(blockId, numBytes, memoryMode)}. */
    static final class AcquireStorage {
        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static int enter(@Advice.Argument(0) BlockId block, @Advice.Argument(1) long bytes,
                         @Advice.Argument(2) MemoryMode mode) {
            H2StorageBudget budget = H2StorageBudget.get();
            return budget == null ? H2StorageBudget.TO_SPARK : budget.acquire(block, bytes, mode, false);
        }

        @Advice.OnMethodExit
        static void exit(@Advice.Enter int outcome, @Advice.Return(readOnly = false) boolean granted) {
            if (outcome != H2StorageBudget.TO_SPARK) {
                granted = outcome == H2StorageBudget.GRANTED;
            }
        }
    }

    /** {@code acquireUnrollMemory(blockId, numBytes, memoryMode)}. */
    static final class AcquireUnroll {
        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static int enter(@Advice.Argument(0) BlockId block, @Advice.Argument(1) long bytes,
                         @Advice.Argument(2) MemoryMode mode) {
            H2StorageBudget budget = H2StorageBudget.get();
            return budget == null ? H2StorageBudget.TO_SPARK : budget.acquire(block, bytes, mode, true);
        }

        @Advice.OnMethodExit
        static void exit(@Advice.Enter int outcome, @Advice.Return(readOnly = false) boolean granted) {
            if (outcome != H2StorageBudget.TO_SPARK) {
                granted = outcome == H2StorageBudget.GRANTED;
            }
        }
    }

    /** {@code releaseUnrollMemory(numBytes, memoryMode)}: H2's share first, the rest to H1. */
    static final class ReleaseUnroll {
        @Advice.OnMethodEnter
        static void enter(@Advice.Argument(value = 0, readOnly = false) long bytes,
                          @Advice.Argument(1) MemoryMode mode) {
            H2StorageBudget budget = H2StorageBudget.get();
            if (budget != null) {
                bytes = budget.releaseUnroll(bytes, mode);
            }
        }
    }

    /** {@code releaseStorageMemory(numBytes, memoryMode)}: skipped for a block counted in H2. */
    static final class ReleaseStorage {
        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean enter() {
            H2StorageBudget budget = H2StorageBudget.get();
            return budget != null && budget.releaseStored();
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
