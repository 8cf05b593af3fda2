package org.teraheap.spark;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.spark.memory.MemoryManager;
import org.apache.spark.memory.MemoryMode;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.RDDBlockId;
import org.apache.spark.storage.memory.DeserializedMemoryEntry;
import org.apache.spark.storage.memory.MemoryEntry;
import org.teraheap.TeraHeap;

/**
 * Spark's storage memory for deserialized cached RDD blocks, counted against H2 instead of H1.
 *
 * <p>A block is built in H1, and Spark counts it in H1's storage pool while it unrolls: its
 * objects really are in H1 then. Once the block is in the memory store, {@link #adopt} moves its
 * count from H1's pool to this budget, if H2 has room, and tags the block for the move to H2
 * at the next full GC. So H1's pool only ever holds blocks being built and blocks H2 had no room
 * for, and a full H1 pool no longer spills or drops blocks that live in H2. When H2's budget is
 * used up, a block simply stays counted in H1, untagged: Spark's usual path.
 *
 * <p>Counts change under the memory manager's lock (adopt takes it; the advised release methods
 * are synchronized on it), so they stay consistent with Spark's own; this object's lock is a
 * leaf. The budget comes back when {@code MemoryStore.remove} drops a block (unpersist, block
 * removal); H2's regions themselves are freed by the next full GC.
 */
public final class H2StorageBudget {
    /** The advice that must all be in place before any block is counted here. */
    static final int ADVICE_NEEDED = 5;

    private static volatile H2StorageBudget instance;
    private static int adviceWoven;
    private static boolean adviceMissing;
    /** Set once every piece of advice is in place and none is missing. */
    private static volatile boolean ready;
    /** The block that {@code MemoryStore.remove} is removing on this thread, if any. */
    private static final ThreadLocal<BlockId> REMOVING = new ThreadLocal<>();

    private final long capacity;
    private long used;
    private final Map<BlockId, Long> stored = new HashMap<>();
    private boolean reportedFull;

    private H2StorageBudget(long capacity) {
        this.capacity = capacity;
    }

    static void install(long capacity) {
        instance = new H2StorageBudget(capacity);
    }

    /** One more piece of advice is woven into Spark. */
    static synchronized void adviceWoven() {
        adviceWoven++;
        ready = adviceWoven == ADVICE_NEEDED && !adviceMissing;
    }

    /** A piece of advice could not be woven: Spark is left entirely to itself. */
    static synchronized void adviceMissing() {
        adviceMissing = true;
        ready = false;
    }

    /** The budget, or null while the agent is inactive (stock JVM, TeraHeap off, advice missing). */
    public static H2StorageBudget get() {
        return ready ? instance : null;
    }

    public synchronized boolean holds(BlockId block) {
        return stored.containsKey(block);
    }

    /**
     * Called after {@code putIteratorAsValues} stored {@code block}: moves its count from H1's
     * storage pool to H2's budget and tags its values as a root labelled with the RDD id.
     */
    public static void adopt(BlockId block, MemoryManager memoryManager,
                             LinkedHashMap<BlockId, MemoryEntry<?>> entries) {
        H2StorageBudget budget = get();
        if (budget == null || !(block instanceof RDDBlockId)) {
            return;
        }
        Object values;
        synchronized (memoryManager) {
            MemoryEntry<?> entry;
            synchronized (entries) {
                entry = entries.get(block);   // null if removed meanwhile
            }
            if (!(entry instanceof DeserializedMemoryEntry)) {
                return;
            }
            if (!budget.take(block, entry.size())) {
                return;   // H2 full: the block stays counted in H1, as Spark would have it
            }
            memoryManager.releaseStorageMemory(entry.size(), MemoryMode.ON_HEAP);
            values = ((DeserializedMemoryEntry<?>) entry).value();
        }
        long rdd = ((RDDBlockId) block).rddId();
        TeraHeap.tagRoot(values, rdd);
        TeraHeap.move(rdd);
    }

    private synchronized boolean take(BlockId block, long bytes) {
        // What H2 really holds counts too: regions that blocks dropped long ago still keep
        // alive (GraphX's graphs share arrays with the graphs they came from) take room that
        // the budget gave back.
        long inH2 = TeraHeap.stats().usedBytes();
        if (used + bytes > capacity || inH2 + bytes > capacity) {
            if (!reportedFull) {
                reportedFull = true;
                System.err.printf("[teraheap-spark] H2 has no room for more cached blocks (budget"
                    + " %d MB: %d MB counted, %d MB in use in H2): further blocks stay in H1's"
                    + " storage pool (spill or recompute when it is full); -XX:TeraHeapSize sets"
                    + " H2's size%n", capacity >> 20, used >> 20, inH2 >> 20);
            }
            return false;
        }
        used += bytes;
        stored.put(block, bytes);
        return true;
    }

    /** {@code MemoryStore.remove(block)} begins; returns what to restore when it ends. */
    public static BlockId beginRemoval(BlockId block) {
        BlockId outer = REMOVING.get();
        REMOVING.set(block);
        return outer;
    }

    public static void endRemoval(BlockId outer) {
        REMOVING.set(outer);
    }

    /**
     * Every {@code releaseStorageMemory} call: when it is the release of a block being removed
     * and counted here, releases it here and returns true, so that H1's pool is left alone.
     */
    public synchronized boolean releaseRemoved(long bytes, MemoryMode mode) {
        BlockId block = REMOVING.get();
        if (block == null || mode != MemoryMode.ON_HEAP) {
            return false;
        }
        Long mine = stored.get(block);
        if (mine == null || mine != bytes) {
            return false;
        }
        stored.remove(block);
        used -= bytes;
        REMOVING.set(null);
        return true;
    }

    /** {@code MemoryStore.clear()}: every block goes. */
    public synchronized void releaseAll() {
        stored.clear();
        used = 0;
    }
}
