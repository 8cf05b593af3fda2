package org.teraheap.spark;

import java.util.LinkedHashMap;

import net.bytebuddy.asm.Advice;
import org.apache.spark.memory.MemoryManager;
import org.apache.spark.memory.MemoryMode;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.memory.MemoryEntry;
import scala.util.Either;

/**
 * Advice woven into {@code org.apache.spark.storage.memory.MemoryStore}. Byte Buddy copies these
 * bodies into Spark's methods, so they stay small and call into {@link H2StorageBudget}, which
 * reports its own errors; anything thrown anyway is suppressed, never seen by Spark.
 */
final class MemoryStoreAdvice {
    private MemoryStoreAdvice() {
    }

    /** {@code putIteratorAsValues}: a deserialized block now in the store is offered to H2. */
    static final class PutValues {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.Argument(0) BlockId block, @Advice.Argument(2) MemoryMode mode,
                         @Advice.Return Either<?, ?> result,
                         @Advice.FieldValue("memoryManager") MemoryManager memoryManager,
                         @Advice.FieldValue("entries") LinkedHashMap<BlockId, MemoryEntry<?>> entries) {
            if (mode == MemoryMode.ON_HEAP && result.isRight()) {
                H2StorageBudget.adopt(block, memoryManager, entries);
            }
        }
    }

    /** {@code remove}: marks the block, so that its release goes to the right budget. */
    static final class Remove {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static BlockId enter(@Advice.Argument(0) BlockId block) {
            return H2StorageBudget.beginRemoval(block);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter BlockId outer) {
            H2StorageBudget.endRemoval(outer);
        }
    }

    /**
     * {@code evictBlocksToFreeSpace}: adopting at eviction, what it adopts into H2 instead of
     * evicting counts as freed, as it left H1's pool.
     */
    static final class Evict {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static long[] enter(@Advice.Argument(1) long space) {
            return H2StorageBudget.beginEviction(space);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter long[] outer, @Advice.Return(readOnly = false) long freed) {
            freed += H2StorageBudget.endEviction(outer);
        }
    }

    /**
     * {@code blockIsEvictable}: evicting a block that lives in H2 frees nothing in H1; adopting at
     * eviction, a block goes to H2 rather than be evicted.
     */
    static final class Evictable {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.Argument(0) BlockId block, @Advice.Argument(1) MemoryEntry<?> entry,
                         @Advice.Argument(2) MemoryMode mode,
                         @Advice.Return(readOnly = false) boolean evictable,
                         @Advice.FieldValue("memoryManager") MemoryManager memoryManager,
                         @Advice.FieldValue("entries") LinkedHashMap<BlockId, MemoryEntry<?>> entries) {
            if (H2StorageBudget.keepFromEviction(block, entry, mode, evictable, memoryManager, entries)) {
                evictable = false;
            }
        }
    }
}
