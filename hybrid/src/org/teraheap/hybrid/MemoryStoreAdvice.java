package org.teraheap.hybrid;

import java.util.LinkedHashMap;

import net.bytebuddy.asm.Advice;
import org.apache.spark.memory.MemoryManager;
import org.apache.spark.memory.MemoryMode;
import org.apache.spark.serializer.SerializerManager;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockInfoManager;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import scala.Option;
import scala.util.Either;
import scala.util.Right;

/**
 * Advice woven into {@code org.apache.spark.storage.memory.MemoryStore}: each piece tells
 * {@link HybridStore} what Spark's store just did or is about to do. Byte Buddy copies these
 * bodies into Spark's methods, so they stay small; anything thrown is suppressed, never seen by
 * Spark, except a failed read of a block from the file tier (it fails the task, saying so).
 * Off-heap memory is left to Spark.
 */
final class MemoryStoreAdvice {
    private MemoryStoreAdvice() {
    }

    /** The constructor: the store, its memory manager, its LRU list of entries and its block manager. */
    static final class Created {
        @Advice.OnMethodExit
        static void exit(@Advice.FieldValue("memoryManager") MemoryManager memoryManager,
                         @Advice.FieldValue("entries") LinkedHashMap<BlockId, ?> entries,
                         @Advice.FieldValue("blockInfoManager") BlockInfoManager blockInfo,
                         @Advice.FieldValue("serializerManager") SerializerManager serializers,
                         @Advice.FieldValue("blockEvictionHandler") Object evictionHandler) {
            try {
                HybridStore.created(memoryManager, entries, blockInfo, serializers, evictionHandler);
            } catch (Throwable t) {
                HybridAgent.reportOnce("cannot follow Spark's memory store (" + t + "): blocks stay as Spark keeps them");
            }
        }
    }

    /** {@code reserveUnrollMemoryForThisTask(blockId, memory, mode)}: picks the tier, makes room. */
    static final class ReserveUnroll {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) BlockId block, @Advice.Argument(1) long bytes,
                          @Advice.Argument(2) MemoryMode mode) {
            if (mode == MemoryMode.ON_HEAP) {
                HybridStore.reserving(block, bytes);
            }
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Argument(0) BlockId block, @Advice.Argument(1) long bytes,
                         @Advice.Argument(2) MemoryMode mode, @Advice.Return boolean granted) {
            if (mode == MemoryMode.ON_HEAP && !granted) {
                HybridStore.refused(block, bytes);
            }
        }
    }

    /** {@code releaseUnrollMemoryForThisTask(mode, memory)}. */
    static final class ReleaseUnroll {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) MemoryMode mode, @Advice.Argument(1) long bytes) {
            if (mode == MemoryMode.ON_HEAP) {
                HybridStore.releasing(bytes);
            }
        }
    }

    /** {@code putIterator(blockId, values, classTag, mode, holder)}: a block unrolled, stored or not. */
    static final class PutIterator {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static BlockId enter(@Advice.Argument(0) BlockId block, @Advice.Argument(3) MemoryMode mode) {
            return mode == MemoryMode.ON_HEAP ? HybridStore.putting(block) : null;
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Argument(0) BlockId block, @Advice.Argument(3) MemoryMode mode,
                         @Advice.Return Either<?, ?> result, @Advice.Enter BlockId outer) {
            if (mode == MemoryMode.ON_HEAP) {
                HybridStore.put(block, result instanceof Right ? (Long) ((Right<?, ?>) result).value() : -1L, outer);
            }
        }
    }

    /** {@code putBytes(blockId, size, mode, bytes, classTag)}: a serialized block put whole. */
    static final class PutBytes {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) BlockId block, @Advice.Argument(1) long size,
                          @Advice.Argument(2) MemoryMode mode) {
            if (mode == MemoryMode.ON_HEAP) {
                HybridStore.puttingBytes(block, size);
            }
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Argument(0) BlockId block, @Advice.Argument(1) long size,
                         @Advice.Argument(2) MemoryMode mode, @Advice.Return boolean stored) {
            if (mode == MemoryMode.ON_HEAP) {
                HybridStore.putBytes(block, size, stored);
            }
        }
    }

    /**
     * {@code remove(blockId)}: eviction, unpersist and block removal all pass here; a block in
     * the file tier is removed from it.
     */
    static final class Remove {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.Argument(0) BlockId block, @Advice.Return(readOnly = false) boolean removed) {
            boolean fromFile = !removed && FileTier.remove(block);
            FileBlockStatus.removed(block, fromFile);
            if (fromFile) {
                removed = true;
            }
            if (removed) {
                HybridStore.removed(block);
            }
        }
    }

    /** {@code contains(blockId)}: a block in the file tier is in the store. */
    static final class Contains {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.Argument(0) BlockId block, @Advice.Return(readOnly = false) boolean contains) {
            if (!contains && FileTier.holds(block)) {
                contains = true;
            }
        }
    }

    /**
     * {@code getValues(blockId)}: a block in the file tier is read back from it. Not suppressed:
     * a read that fails names the block and the file tier, and fails the task with that.
     */
    static final class GetValues {
        @Advice.OnMethodExit
        static void exit(@Advice.Argument(0) BlockId block,
                         @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Option<?> values) {
            if (values.isEmpty()) {
                values = FileTier.valuesOf(block);
            }
        }
    }

    /** {@code getBytes(blockId)}: a serialized block in the file tier is read back from it (as getValues). */
    static final class GetBytes {
        @Advice.OnMethodExit
        static void exit(@Advice.Argument(0) BlockId block,
                         @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Option<?> bytes) {
            if (bytes.isEmpty()) {
                bytes = FileTier.bytesOf(block);
            }
        }
    }

    /**
     * {@code getSize(blockId)}: Spark's body would dereference the missing entry of a block in the
     * file tier; it is skipped for one, and the size Spark counted returned. A block that moved
     * into the file while Spark's body ran (its caller holds no lock on it) makes the body throw:
     * its size in the file is returned instead.
     */
    static final class GetSize {
        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class, suppress = Throwable.class)
        static long enter(@Advice.Argument(0) BlockId block) {
            return FileTier.sizeOf(block) + 1;   // 0 (not in the file): Spark's body runs
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Argument(0) BlockId block, @Advice.Enter long inFile,
                         @Advice.Return(readOnly = false) long size,
                         @Advice.Thrown(readOnly = false) Throwable thrown) {
            if (inFile != 0) {
                size = inFile - 1;
            } else if (thrown != null) {
                long inFileNow = FileTier.sizeOf(block);
                if (inFileNow >= 0) {
                    size = inFileNow;
                    thrown = null;
                }
            }
        }
    }

    /**
     * {@code evictBlocksToFreeSpace(blockId, space, mode)}: with the file tier, blocks move into
     * the file first, and Spark evicts only what is still missing (its body is skipped if nothing
     * is, since it asserts a positive {@code space}); the bytes freed are both parts. What Spark's
     * own eviction freed goes to opportunistic eviction's average.
     */
    static final class Evict {
        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class, suppress = Throwable.class)
        static boolean enter(@Advice.Argument(value = 1, readOnly = false) long space,
                             @Advice.Argument(2) MemoryMode mode, @Advice.Local("moved") long moved) {
            moved = mode == MemoryMode.ON_HEAP ? HybridStore.evicting(space) : 0;
            if (moved >= space) {
                return true;
            }
            space -= moved;
            return false;
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Argument(2) MemoryMode mode, @Advice.Enter boolean skipped,
                         @Advice.Local("moved") long moved, @Advice.Return(readOnly = false) long freed) {
            long evicted = freed;
            freed += moved;
            if (mode == MemoryMode.ON_HEAP && !skipped) {
                HybridStore.evicted(evicted);
            }
        }
    }

    /**
     * {@code BlockManager.dropFromMemory(blockId, data, classTag)}: an evicted block going to disk,
     * or not. The block manager is an Object here: naming the class being adapted in its advice
     * would load it in the middle of its own definition.
     */
    static final class Drop {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This Object manager, @Advice.Argument(0) BlockId block) {
            HybridStore.dropping(manager, block);
        }
    }

    /** {@code clear()}. */
    static final class Clear {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit() {
            FileTier.clear();
            HybridStore.cleared();
        }
    }
}
