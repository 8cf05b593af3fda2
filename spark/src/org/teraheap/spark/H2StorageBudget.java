package org.teraheap.spark;

import java.util.HashMap;
import java.util.Map;

import org.apache.spark.TaskContext;
import org.apache.spark.memory.MemoryMode;
import org.apache.spark.storage.BlockId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Spark's storage memory for deserialized cached blocks, counted against H2 instead of H1.
 *
 * <p>Spark's memory manager decides whether a block may stay in memory from the room in H1's
 * storage pool. With TeraHeap, a deserialized block lives in H1 only until the next full GC moves
 * it to H2, so its bytes are counted here, against H2's capacity, and never enter H1's pool. The
 * advice woven into {@code MemoryStore} and {@code MemoryManager} routes the calls:
 *
 * <ul>
 *   <li>Each put of a deserialized RDD block is a {@link Put}. Its first request for memory
 *       decides where it is counted: here while H2 has room, otherwise in H1's pool, as Spark
 *       would. A put counted here that later finds H2 full fails, and Spark's usual path (spill
 *       to disk, or not caching) takes the block; it never falls back to H1 halfway, because
 *       Spark's transfer from unroll memory to storage memory must not fail.</li>
 *   <li>Unroll memory is counted per task, as {@code MemoryStore} does, and released first from
 *       here when the task releases unroll memory.</li>
 *   <li>Stored blocks are counted per block id, and released when {@code MemoryStore} removes
 *       the block (unpersist, block removal). H1's evictions never pick them: dropping them frees
 *       nothing in H1's pool.</li>
 * </ul>
 *
 * <p>Every method runs under the memory manager's lock (the advised methods are synchronized on
 * it), except {@link #beginPut} and {@link #endPut}, which touch only the calling thread.
 */
public final class H2StorageBudget {
    private static final Logger LOG = LoggerFactory.getLogger("org.teraheap.spark");

    /** How a put's memory is counted: not yet decided, here, or in H1's pool. */
    enum Placement { UNDECIDED, H2, H1 }

    /** One put of a deserialized RDD block, on the calling thread. */
    static final class Put {
        final BlockId block;
        Placement placement = Placement.UNDECIDED;

        Put(BlockId block) {
            this.block = block;
        }
    }

    private static volatile H2StorageBudget instance;
    private static final ThreadLocal<Put> CURRENT_PUT = new ThreadLocal<>();
    private static final ThreadLocal<BlockId> CURRENT_REMOVAL = new ThreadLocal<>();

    private final long capacity;
    private long used;
    private final Map<BlockId, Long> stored = new HashMap<>();
    private final Map<Long, Long> unrollByTask = new HashMap<>();
    private boolean warnedFull;

    private H2StorageBudget(long capacity) {
        this.capacity = capacity;
    }

    static void install(long capacity) {
        instance = new H2StorageBudget(capacity);
    }

    /** The budget, or null when the agent is inactive (stock JVM, TeraHeap off). */
    public static H2StorageBudget get() {
        return instance;
    }

    public long capacity() {
        return capacity;
    }

    public synchronized long used() {
        return used;
    }

    public synchronized boolean holds(BlockId block) {
        return stored.containsKey(block);
    }

    // ---- Puts ----

    public static void beginPut(BlockId block, MemoryMode mode) {
        if (instance != null && mode == MemoryMode.ON_HEAP && block.isRDD()) {
            CURRENT_PUT.set(new Put(block));
        }
    }

    /** Ends the calling thread's put; returns whether it was counted here. */
    public static boolean endPut() {
        Put put = CURRENT_PUT.get();
        CURRENT_PUT.remove();
        return put != null && put.placement == Placement.H2;
    }

    /** Outcomes of a memory request, for the advice: let Spark decide, granted, refused. */
    public static final int TO_SPARK = 0;
    public static final int GRANTED = 1;
    public static final int REFUSED = 2;

    /** A request for unroll memory ({@code unroll}) or storage memory for {@code block}. */
    public int acquire(BlockId block, long bytes, MemoryMode mode, boolean unroll) {
        Put put = CURRENT_PUT.get();
        if (put == null || mode != MemoryMode.ON_HEAP || !put.block.equals(block)
            || put.placement == Placement.H1) {
            return TO_SPARK;
        }
        synchronized (this) {
            if (used + bytes <= capacity) {
                used += bytes;
                if (unroll) {
                    unrollByTask.merge(currentTask(), bytes, Long::sum);
                } else {
                    stored.merge(block, bytes, Long::sum);
                }
                put.placement = Placement.H2;
                return GRANTED;
            }
            if (!warnedFull) {
                warnedFull = true;
                LOG.warn("TeraHeap: the H2 budget for cached blocks ({} MB) is full; further blocks"
                    + " take Spark's usual path (H1 storage, spill or recompute)", capacity >> 20);
            }
        }
        if (put.placement == Placement.UNDECIDED) {
            put.placement = Placement.H1;
            return TO_SPARK;
        }
        return REFUSED;
    }

    /**
     * Releases up to {@code bytes} of the calling task's unroll memory from here; returns what
     * is left for H1's pool.
     */
    public synchronized long releaseUnroll(long bytes, MemoryMode mode) {
        if (mode != MemoryMode.ON_HEAP) {
            return bytes;
        }
        long task = currentTask();
        Long held = unrollByTask.get(task);
        if (held == null) {
            return bytes;
        }
        long mine = Math.min(held, bytes);
        if (held == mine) {
            unrollByTask.remove(task);
        } else {
            unrollByTask.put(task, held - mine);
        }
        used -= mine;
        return bytes - mine;
    }

    // ---- Removals ----

    public static void beginRemoval(BlockId block) {
        H2StorageBudget budget = instance;
        if (budget != null && budget.holds(block)) {
            CURRENT_REMOVAL.set(block);
        }
    }

    public static void endRemoval() {
        CURRENT_REMOVAL.remove();
    }

    /**
     * Called for every release of storage memory: when it is the removal of a block counted
     * here, releases it here and returns true, so that H1's pool is left alone.
     */
    public boolean releaseStored() {
        BlockId block = CURRENT_REMOVAL.get();
        if (block == null) {
            return false;
        }
        CURRENT_REMOVAL.remove();
        synchronized (this) {
            Long bytes = stored.remove(block);
            if (bytes == null) {
                return false;
            }
            used -= bytes;
            return true;
        }
    }

    /** {@code MemoryStore.clear()}: every block and every unroll reservation goes. */
    public synchronized void releaseAll() {
        stored.clear();
        unrollByTask.clear();
        used = 0;
    }

    private static long currentTask() {
        TaskContext context = TaskContext.get();
        return context == null ? -1L : context.taskAttemptId();
    }
}
