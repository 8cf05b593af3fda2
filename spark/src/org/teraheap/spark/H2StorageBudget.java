package org.teraheap.spark;

import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.sun.management.HotSpotDiagnosticMXBean;
import org.apache.spark.memory.MemoryManager;
import org.apache.spark.memory.MemoryMode;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.RDDBlockId;
import org.apache.spark.storage.memory.DeserializedMemoryEntry;
import org.apache.spark.storage.memory.MemoryEntry;
import org.teraheap.H2Stats;
import org.teraheap.TeraHeap;

/**
 * Spark's storage memory for deserialized cached RDD blocks, counted against H2 instead of H1.
 *
 * <p>A block is built in H1, and Spark counts it in H1's storage pool while it unrolls: its
 * objects really are in H1 then. Once the block is in the memory store, {@link #adopt} moves its
 * count from H1's pool to this budget, if H2 has room, and tags the block for the move to H2
 * at the next full GC. So H1's pool only ever holds blocks being built and blocks H2 had no room
 * for, and a full H1 pool no longer spills or drops blocks that live in H2. Or, adopting at
 * eviction ({@code adopt=evicted}), a block stays in H1's pool like any of Spark's until Spark
 * would evict it to make room, and {@link #keepFromEviction} adopts it then instead: while H1's
 * pool holds the cache, nothing moves. When H2's budget is
 * used up, a block simply stays counted in H1, untagged: Spark's usual path.
 *
 * <p>An adopted block stays in H1 until the next full GC moves it, so until then it is
 * <em>pending</em>: H2's room for it is held (with a region of slack per RDD, since each RDD
 * fills regions of its own), and after every full GC {@link #reconcile} looks at it again. Moved:
 * it is settled. Still in H1 after a full GC (H2 filled first, with data Spark does not know of):
 * it is handed back to H1's pool, where Spark can evict it like any block, and no block is
 * adopted until that succeeded; if a later GC moves it after all, it is taken back into H2's
 * budget.
 *
 * <p>Counts change under the memory manager's lock (adopt and reconcile take it; the advised
 * release methods are synchronized on it), so they stay consistent with Spark's own; this
 * object's lock is a leaf. The budget comes back when {@code MemoryStore.remove} drops a block
 * (unpersist, block removal, eviction); H2's regions themselves are freed by the next full GC.
 */
public final class H2StorageBudget {
    private static volatile H2StorageBudget instance;
    /** False once a piece of advice could not be woven: no block is taken from then on. */
    private static volatile boolean accepting;
    /** Blocks are adopted when Spark would evict them, not as soon as they are stored. */
    private static volatile boolean atEviction;
    /** The block that {@code MemoryStore.remove} is removing on this thread, if any. */
    private static final ThreadLocal<BlockId> REMOVING = new ThreadLocal<>();
    /** The eviction running on this thread: {bytes it must free, bytes adopted instead}. */
    private static final ThreadLocal<long[]> EVICTING = new ThreadLocal<>();

    /** A block counted here, or handed back to H1, until it is known to be in H2. */
    private static final class Tracked {
        final long bytes;
        final long rdd;
        final WeakReference<Object> values;
        /** Full GCs completed once it was tagged: a later one should have moved it. */
        long fullGcsAtTagging = Long.MAX_VALUE;

        Tracked(long bytes, long rdd, Object values) {
            this.bytes = bytes;
            this.rdd = rdd;
            this.values = new WeakReference<>(values);
        }
    }

    private final long capacity;
    /** H2's region size (-XX:TeraHeapRegionSize), read with the first adopted block. */
    private long regionBytes;
    /** Listens to GCs from the first adopted block on (the agent stays light until used). */
    private final FullGcWatch fullGcs = new FullGcWatch();
    private boolean listening;
    private long used;
    /** Bytes of every block ever taken into the budget; read at exit without the lock. */
    private volatile long takenBytes;
    private volatile long fullGcsAtFirstBlock;
    private final Map<BlockId, Long> stored = new HashMap<>();
    /** Adopted blocks not yet seen in H2 (a subset of {@code stored}). */
    private final Map<BlockId, Tracked> pending = new LinkedHashMap<>();
    /** Blocks handed back to H1's pool because a full GC left them in H1. */
    private final Map<BlockId, Tracked> handedBack = new LinkedHashMap<>();
    /** Blocks that a full GC left in H1 and that H1's pool had no room for yet. */
    private final Set<BlockId> stuck = new HashSet<>();
    private boolean reportedFull;
    private boolean reportedHandBack;
    private static boolean reportedError;
    /** Spark's memory manager and store entries, known from the first adopted block. */
    private MemoryManager memoryManager;
    private LinkedHashMap<BlockId, MemoryEntry<?>> entries;

    private H2StorageBudget(long capacity) {
        this.capacity = capacity;
    }

    static void install(long capacity, boolean adoptAtEviction) {
        atEviction = adoptAtEviction;
        H2StorageBudget budget = new H2StorageBudget(capacity);
        budget.fullGcs.start(budget::reconcile);
        instance = budget;
        accepting = true;
    }

    /**
     * A piece of advice could not be woven: no block is taken into H2 from now on. Blocks already
     * counted here stay counted (their release and eviction still go through the budget).
     */
    static void adviceMissing() {
        accepting = false;
    }

    /** The budget, or null while the agent is inactive (stock JVM, TeraHeap off, Spark refused). */
    public static H2StorageBudget get() {
        return instance;
    }

    public synchronized boolean holds(BlockId block) {
        return stored.containsKey(block);
    }

    /** Bytes of cached blocks counted against H2, moved or pending. */
    public synchronized long usedBytes() {
        return used;
    }

    /** Bytes of blocks adopted but not yet seen in H2. */
    public synchronized long pendingBytes() {
        return bytesOf(pending);
    }

    /** Bytes of blocks handed back to H1's pool because a full GC left them in H1. */
    public synchronized long handedBackBytes() {
        return bytesOf(handedBack);
    }

    private static long bytesOf(Map<BlockId, Tracked> blocks) {
        long bytes = 0;
        for (Tracked t : blocks.values()) {
            bytes += t.bytes;
        }
        return bytes;
    }

    /** Full GCs so far, and how many of them {@link #reconcile} has looked at since. */
    public long fullGcs() {
        return fullGcs.count();
    }

    public long reconciledGcs() {
        return fullGcs.handled();
    }

    /**
     * Called after {@code putIteratorAsValues} stored {@code block}: moves its count from H1's
     * storage pool to H2's budget and tags its values as a root labelled with the RDD id.
     */
    public static void adopt(BlockId block, MemoryManager memoryManager,
                             LinkedHashMap<BlockId, MemoryEntry<?>> entries) {
        H2StorageBudget budget = accepting ? instance : null;
        if (budget == null || atEviction || !(block instanceof RDDBlockId)) {
            return;
        }
        try {
            budget.adoptBlock((RDDBlockId) block, memoryManager, entries);
        } catch (RuntimeException | LinkageError e) {
            // Advice must never break Spark: the block simply stays on Spark's usual path.
            reportError(e);
        }
    }

    /**
     * {@code registerBlockManager}: the storage memory an executor tells the driver it has, H1's
     * pool plus H2's budget, against which the driver counts the cached blocks it reports.
     */
    public static long withH2Budget(long h1StorageBytes) {
        H2StorageBudget budget = get();
        return budget == null ? h1StorageBytes : h1StorageBytes + budget.capacity;
    }

    /** {@code evictBlocksToFreeSpace} begins, to free {@code space} bytes; returns what to restore. */
    public static long[] beginEviction(long space) {
        long[] outer = EVICTING.get();
        EVICTING.set(atEviction && accepting && instance != null ? new long[] {space, 0} : null);
        return outer;
    }

    /** It ends: returns the bytes it adopted into H2 rather than evicted, which it freed too. */
    public static long endEviction(long[] outer) {
        long[] current = EVICTING.get();
        EVICTING.set(outer);
        return current == null ? 0 : current[1];
    }

    /**
     * {@code blockIsEvictable}, under the memory manager's lock and the entries' (which Spark is
     * iterating: nothing here may look an entry up): true if Spark must not evict the block. It is
     * counted here already (evicting it frees no H1); or, adopting at eviction, it was adopted now
     * (whatever Spark thought of it: a block of the RDD being cached is welcome in H2 too), or
     * enough was adopted already in this eviction and nothing more need go. {@code evictable} is
     * Spark's own answer.
     */
    public static boolean keepFromEviction(BlockId block, MemoryEntry<?> entry, MemoryMode mode,
                                           boolean evictable, MemoryManager memoryManager,
                                           LinkedHashMap<BlockId, MemoryEntry<?>> entries) {
        H2StorageBudget budget = get();
        long[] eviction = EVICTING.get();
        if (budget == null || (!evictable && eviction == null)) {
            return false;   // Spark keeps it anyway
        }
        try {
            if (budget.holds(block)) {
                return true;
            }
            if (eviction == null || mode != MemoryMode.ON_HEAP) {
                return false;
            }
            if (eviction[1] >= eviction[0]) {
                return true;
            }
            if (block instanceof RDDBlockId && entry instanceof DeserializedMemoryEntry
                    && budget.adoptEntry((RDDBlockId) block, (DeserializedMemoryEntry<?>) entry,
                        memoryManager, entries)) {
                eviction[1] += entry.size();
                return true;
            }
            return false;   // H2 is full: Spark evicts it as it would
        } catch (RuntimeException | LinkageError e) {
            reportError(e);
            return false;
        }
    }

    /** {@code releaseStorageMemory}: true if the release was this budget's, and done. */
    public static boolean releaseIfInH2Budget(long bytes, MemoryMode mode) {
        H2StorageBudget budget = get();
        try {
            return budget != null && budget.releaseRemoved(bytes, mode);
        } catch (RuntimeException | LinkageError e) {
            reportError(e);
            return false;
        }
    }

    /** {@code releaseAllStorageMemory}: the memory store is cleared. */
    public static void releaseAllInH2Budget() {
        H2StorageBudget budget = get();
        try {
            if (budget != null) {
                budget.releaseAll();
            }
        } catch (RuntimeException | LinkageError e) {
            reportError(e);
        }
    }

    private void adoptBlock(RDDBlockId block, MemoryManager memoryManager,
                            LinkedHashMap<BlockId, MemoryEntry<?>> entries) {
        synchronized (memoryManager) {
            MemoryEntry<?> entry;
            synchronized (entries) {
                entry = entries.get(block);   // null if removed meanwhile
            }
            if (!(entry instanceof DeserializedMemoryEntry)) {
                return;
            }
            adoptEntry(block, (DeserializedMemoryEntry<?>) entry, memoryManager, entries);
        }
    }

    /**
     * Takes a block into H2's budget, out of H1's pool, and tags it to move; false if H2 has no
     * room (it stays counted in H1, as Spark would have it). The caller holds Spark's memory
     * manager's lock.
     */
    private boolean adoptEntry(RDDBlockId block, DeserializedMemoryEntry<?> entry,
                               MemoryManager memoryManager,
                               LinkedHashMap<BlockId, MemoryEntry<?>> entries) {
        Object values = entry.value();
        if (!take(block, entry.size(), values, memoryManager, entries)) {
            return false;
        }
        memoryManager.releaseStorageMemory(entry.size(), MemoryMode.ON_HEAP);
        long rdd = block.rddId();
        TeraHeap.tagRoot(values, rdd);
        TeraHeap.move(rdd);
        tagged(block);
        return true;
    }

    /** From now on, a full GC that leaves the block in H1 did so for want of room. */
    private synchronized void tagged(BlockId block) {
        Tracked t = pending.get(block);
        if (t != null) {
            t.fullGcsAtTagging = fullGcs.count();
        }
    }

    private synchronized boolean take(RDDBlockId block, long bytes, Object values,
                                      MemoryManager memoryManager,
                                      LinkedHashMap<BlockId, MemoryEntry<?>> entries) {
        if (!listening) {
            regionBytes = Long.parseLong(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption("TeraHeapRegionSize").getValue());
            fullGcs.listen();
            listening = true;   // only once it listens: without it no block may be taken
            fullGcsAtFirstBlock = fullGcs.count();
            Runtime.getRuntime().addShutdownHook(new Thread(this::reportNeverMoved, "teraheap-spark-exit"));
        }
        // Those of the current SparkContext: a JVM may stop one and start another.
        this.memoryManager = memoryManager;
        this.entries = entries;
        // What H2 really holds counts too: whole regions (regions that blocks dropped long ago
        // still keep alive, as GraphX's graphs share arrays with the graphs they came from,
        // take room that the budget gave back), the blocks still waiting for their move, and
        // a region per RDD among those, whose last region is partly empty.
        H2Stats stats = TeraHeap.stats();
        long inH2 = Math.max(stats.usedBytes(), stats.regionsInUse() * regionBytes);
        // Handed-back blocks keep their move hint: a later GC may still move them.
        Set<Long> rdds = new HashSet<>();
        rdds.add((long) block.rddId());
        for (Tracked t : pending.values()) {
            rdds.add(t.rdd);
        }
        for (Tracked t : handedBack.values()) {
            rdds.add(t.rdd);
        }
        long waiting = bytesOf(pending);
        long needed = inH2 + waiting + bytesOf(handedBack) + rdds.size() * regionBytes + bytes;
        if (!stuck.isEmpty() || used + bytes > capacity || needed > capacity) {
            if (!reportedFull) {
                reportedFull = true;
                System.err.printf("[teraheap-spark] H2 has no room for more cached blocks (budget"
                    + " %d MB: %d MB counted, %d MB in use in H2, %d MB waiting for the move):"
                    + " further blocks stay in H1's storage pool (spill or recompute when it is"
                    + " full); -XX:TeraHeapSize sets H2's size%n",
                    capacity >> 20, used >> 20, inH2 >> 20, waiting >> 20);
            }
            return false;
        }
        used += bytes;
        takenBytes += bytes;
        stored.put(block, bytes);
        pending.put(block, new Tracked(bytes, block.rddId(), values));
        return true;
    }

    /**
     * At exit: blocks were taken into H2's budget, but no full GC came to move any of them (H1
     * held the whole job). Said, since the user asked for H2 and did not get it. Reads no
     * lock: another thread may hold one while the JVM exits.
     */
    private void reportNeverMoved() {
        if (takenBytes > 0 && TeraHeap.stats().bytesMoved() == 0 && fullGcs.count() == fullGcsAtFirstBlock) {
            System.err.printf("[teraheap-spark] %d MB of cached blocks were taken into H2's budget, but"
                + " no full GC ran to move them: they stayed in H1, which held the whole job. A smaller"
                + " H1 (-Xmx; --driver-memory in local mode) puts them in H2%n", takenBytes >> 20);
        }
    }

    /**
     * After full GCs (on the agent's own thread): settles the pending blocks that moved, hands
     * back to H1's pool those that a full GC left in H1, and takes back into H2's budget handed
     * back blocks that a later GC moved after all.
     */
    void reconcile() {
        MemoryManager manager;
        synchronized (this) {
            manager = memoryManager;
        }
        if (manager == null) {
            return;
        }
        try {
            // Spark's lock first, as everywhere: acquiring H1 storage may evict other blocks.
            synchronized (manager) {
                reconcileLocked(manager);
            }
        } catch (RuntimeException | LinkageError e) {
            reportError(e);
        }
    }

    private void reconcileLocked(MemoryManager manager) {
        long gcs = fullGcs.count();
        List<BlockId> moved = new ArrayList<>();
        List<BlockId> left = new ArrayList<>();
        List<BlockId> backInH2 = new ArrayList<>();
        synchronized (this) {
            for (Map.Entry<BlockId, Tracked> e : pending.entrySet()) {
                Object values = e.getValue().values.get();
                if (values == null || TeraHeap.isInH2(values)) {
                    moved.add(e.getKey());
                } else if (gcs > e.getValue().fullGcsAtTagging) {
                    left.add(e.getKey());
                }
            }
            for (Map.Entry<BlockId, Tracked> e : handedBack.entrySet()) {
                Object values = e.getValue().values.get();
                if (values != null && TeraHeap.isInH2(values)) {
                    backInH2.add(e.getKey());
                }
            }
            for (BlockId b : moved) {
                pending.remove(b);
            }
        }
        // First the blocks a GC moved after all: their room in H1's pool is free again, and an
        // eviction for the blocks handed back below must not pick them.
        for (BlockId b : backInH2) {
            Tracked t;
            synchronized (this) {
                t = handedBack.remove(b);
            }
            if (t == null || !inMemoryStore(b)) {
                continue;
            }
            manager.releaseStorageMemory(t.bytes, MemoryMode.ON_HEAP);
            synchronized (this) {
                stored.put(b, t.bytes);
                used += t.bytes;
            }
        }
        Set<BlockId> stillStuck = new HashSet<>();
        for (BlockId b : left) {
            Tracked t;
            synchronized (this) {
                t = pending.get(b);
            }
            if (t == null || !inMemoryStore(b)) {
                continue;   // removed meanwhile
            }
            // The block is in H1: count it in H1's pool again, where Spark may evict it.
            if (!manager.acquireStorageMemory(b, t.bytes, MemoryMode.ON_HEAP)) {
                stillStuck.add(b);
                continue;
            }
            synchronized (this) {
                pending.remove(b);
                stored.remove(b);
                used -= t.bytes;
                handedBack.put(b, t);
                if (!reportedHandBack) {
                    reportedHandBack = true;
                    System.err.printf("[teraheap-spark] a full GC left cached block %s (%d MB) in"
                        + " H1 (H2 filled first): it is counted in H1's storage pool again%n",
                        b, t.bytes >> 20);
                }
            }
        }
        synchronized (this) {
            stuck.clear();
            stuck.addAll(stillStuck);
        }
    }

    private boolean inMemoryStore(BlockId block) {
        LinkedHashMap<BlockId, MemoryEntry<?>> store;
        synchronized (this) {
            store = entries;
        }
        synchronized (store) {
            return store.containsKey(block);
        }
    }

    private static synchronized void reportError(Throwable e) {
        if (!reportedError) {
            reportedError = true;
            System.err.println("[teraheap-spark] unexpected error, the block stays on Spark's usual"
                + " path: " + e);
        }
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
        if (handedBack.remove(block) != null) {
            return false;   // counted in H1's pool: Spark releases it there
        }
        Long mine = stored.get(block);
        if (mine == null || mine != bytes) {
            return false;
        }
        stored.remove(block);
        stuck.remove(block);
        pending.remove(block);
        used -= bytes;
        REMOVING.set(null);
        return true;
    }

    /** {@code MemoryStore.clear()}: every block goes. */
    public synchronized void releaseAll() {
        stored.clear();
        pending.clear();
        handedBack.clear();
        used = 0;
        stuck.clear();
    }
}
