package org.teraheap.spark;

import java.util.LinkedHashMap;

import net.bytebuddy.asm.Advice;
import org.apache.spark.memory.MemoryMode;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.RDDBlockId;
import org.apache.spark.storage.memory.DeserializedMemoryEntry;
import org.apache.spark.storage.memory.MemoryEntry;
import org.teraheap.TeraHeap;
import scala.util.Either;

/**
 * Advice woven into {@code org.apache.spark.storage.memory.MemoryStore}. Byte Buddy copies each
 * method's body into Spark's, so these bodies only call into {@link H2StorageBudget}.
 */
final class MemoryStoreAdvice {
    private MemoryStoreAdvice() {
    }

    /**
     * {@code putIteratorAsValues}: brackets the put, and once a block counted against H2 is in
     * the store, tags its values as a root labelled with the RDD id and advises the move.
     */
    static final class PutValues {
        @Advice.OnMethodEnter
        static void enter(@Advice.Argument(0) BlockId block, @Advice.Argument(2) MemoryMode mode) {
            H2StorageBudget.beginPut(block, mode);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class)
        static void exit(@Advice.Argument(0) BlockId block,
                         @Advice.Return Either<?, ?> result,
                         @Advice.FieldValue("entries") LinkedHashMap<BlockId, MemoryEntry<?>> entries) {
            if (H2StorageBudget.endPut() && result != null && result.isRight()) {
                MemoryEntry<?> entry;
                synchronized (entries) {
                    entry = entries.get(block);
                }
                if (entry instanceof DeserializedMemoryEntry) {
                    long rdd = ((RDDBlockId) block).rddId();
                    TeraHeap.tagRoot(((DeserializedMemoryEntry<?>) entry).value(), rdd);
                    TeraHeap.move(rdd);
                }
            }
        }
    }

    /** {@code remove}: a block counted against H2 is released there, not from H1's pool. */
    static final class Remove {
        @Advice.OnMethodEnter
        static void enter(@Advice.Argument(0) BlockId block) {
            H2StorageBudget.beginRemoval(block);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class)
        static void exit() {
            H2StorageBudget.endRemoval();
        }
    }

    /** {@code blockIsEvictable}: evicting a block counted against H2 frees nothing in H1. */
    static final class Evictable {
        @Advice.OnMethodExit
        static void exit(@Advice.Argument(0) BlockId block,
                         @Advice.Return(readOnly = false) boolean evictable) {
            H2StorageBudget budget = H2StorageBudget.get();
            if (evictable && budget != null && budget.holds(block)) {
                evictable = false;
            }
        }
    }
}
