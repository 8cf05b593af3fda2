package org.teraheap.hybrid;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import org.apache.spark.TaskContext;
import org.apache.spark.memory.MemoryManager;
import org.apache.spark.serializer.SerializerManager;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockInfoManager;
import org.apache.spark.storage.BlockManager;

/**
 * Which tier each cached RDD block of Spark's memory store is in, and the policies that put it
 * there: the paper's hybrid store, kept beside Spark's own instead of replacing it.
 *
 * <p>Spark's storage pool stays the total of both tiers, so Spark's admission, eviction and
 * reports are unchanged; DRAM holds at most its share of the pool ({@code dram}), NVM the rest.
 * A block's tier is chosen when it starts to unroll: always DRAM in the layered modes; in flat
 * mode with dynamic unrolling, NVM when the request, or twice the stage's average block, exceeds
 * DRAM's free room. A block unrolling in DRAM that outgrows DRAM's room gets it by a synchronous
 * migration: the task, holding the memory manager's lock as Spark's own eviction does, moves the
 * least recently used DRAM blocks to NVM one at a time and waits for each write; with NVM
 * outside Spark's pool (the file tier) Spark's own evictions do the same first. The monitor
 * ({@link MigrationMonitor}) migrates ahead of need, asynchronously.
 *
 * <p>Only RDD blocks are tiered; broadcast and other blocks stay as Spark keeps them. The counts
 * change under this object's lock, a leaf taken after Spark's memory manager and after its
 * {@code entries}; device waits happen outside it. A block being migrated counts in DRAM until
 * its write is done, so no unroll is given room that is not there yet.
 */
public final class HybridStore {
    enum Tier { DRAM, NVM }

    private static final class Block {
        final long bytes;
        Tier tier;
        boolean migrating;

        Block(long bytes, Tier tier) {
            this.bytes = bytes;
            this.tier = tier;
        }
    }

    /** Memory a task holds for unrolling (or putting) one block, in that block's tier. */
    private static final class Unroll {
        final BlockId block;
        Tier tier;
        long bytes;
        /** Of {@code bytes}, what Spark has released to store the block: counted until it is stored. */
        long committing;
        /** Bytes already written to NVM: unrolled in DRAM before DRAM had no more room. */
        long writtenToNvm;

        Unroll(BlockId block, Tier tier) {
            this.block = block;
            this.tier = tier;
        }
    }

    private static volatile HybridStore instance;
    /**
     * The block whose putIterator runs on this thread (the innermost: a block's values may read
     * another block being put, a broadcast say): its unroll memory's release is its storing.
     */
    private static final ThreadLocal<BlockId> PUTTING = new ThreadLocal<>();

    final HybridOptions options;
    final NvmTier nvm;
    final HybridCounters counters = new HybridCounters();
    /** Opportunistic eviction, if on. */
    final OpportunisticEviction oe;

    private volatile MemoryManager memoryManager;
    private LinkedHashMap<BlockId, ?> entries;
    private long dramShare;
    private final Map<BlockId, Block> blocks = new HashMap<>();
    private final Map<Long, List<Unroll>> unrolls = new HashMap<>();
    private long dramBlocks;
    private long nvmBlocks;
    private long dramUnroll;
    private long nvmUnroll;
    private long inFlight;
    private int averageStage = -1;
    private long averageCount;
    private long averageBytes;

    private HybridStore(HybridOptions options, NvmTier nvm) {
        this.options = options;
        this.nvm = nvm;
        this.oe = options.oe > 0 ? new OpportunisticEviction(options.oe) : null;
    }

    static HybridStore install(HybridOptions options, NvmTier nvm) {
        instance = new HybridStore(options, nvm);
        return instance;
    }

    // ---- Spark's memory store, as the advice reports it ----

    /** A memory store was built: its pool, before any task runs, is the total of both tiers. */
    public static void created(MemoryManager memoryManager, LinkedHashMap<BlockId, ?> entries,
                               BlockInfoManager blockInfo, SerializerManager serializers, Object evictionHandler) {
        HybridStore s = instance;
        if (s != null) {
            s.attach(memoryManager, entries);
            if (s.nvm instanceof FileTier) {
                ((FileTier) s.nvm).attach(memoryManager, entries, blockInfo, serializers);
            }
            if (s.oe != null && evictionHandler instanceof BlockManager) {
                s.oe.attach(memoryManager, entries, blockInfo, serializers, (BlockManager) evictionHandler);
            }
        }
    }

    /** Spark's eviction freed {@code bytes} to store one block. */
    public static void evicted(long bytes) {
        onStore(s -> {
            if (s.oe != null) {
                s.oe.evicted(bytes);
            }
        });
    }

    /** Spark's block manager drops the block from memory, to disk if its level says so. */
    public static void dropping(Object manager, BlockId block) {
        onRddBlock(block, s -> {
            if (s.oe != null && manager instanceof BlockManager) {
                s.oe.dropping((BlockManager) manager, block);
            }
        });
    }

    private void attach(MemoryManager memoryManager, LinkedHashMap<BlockId, ?> entries) {
        long pool = memoryManager.maxOnHeapStorageMemory();   // takes the manager's lock: before ours
        synchronized (this) {
            this.memoryManager = memoryManager;
            this.entries = entries;
            // In the file tier NVM is outside the pool: DRAM is all of it.
            dramShare = nvm.inStoragePool() ? (long) (options.dram * pool) : pool;
            blocks.clear();
            unrolls.clear();
            dramBlocks = nvmBlocks = dramUnroll = nvmUnroll = inFlight = 0;
            averageStage = -1;
            averageCount = averageBytes = 0;
        }
        counters.storeCreated(pool, dramShare);
    }

    /** Spark is about to reserve {@code bytes} of unroll memory for {@code block} (on-heap). */
    public static void reserving(BlockId block, long bytes) {
        onRddBlock(block, s -> s.reserve(block, bytes));
    }

    /** The reservation was refused: it was counted ahead. */
    public static void refused(BlockId block, long bytes) {
        onRddBlock(block, s -> s.unreserve(block, bytes));
    }

    /** Spark is releasing up to {@code bytes} of this task's unroll memory (on-heap). */
    public static void releasing(long bytes) {
        BlockId putting = PUTTING.get();
        onStore(s -> s.release(bytes, putting));
    }

    /** putIterator starts on this thread; returns the block whose putIterator it runs within, if any. */
    public static BlockId putting(BlockId block) {
        BlockId outer = PUTTING.get();
        PUTTING.set(block);
        return outer;
    }

    /** putIterator is done: {@code storedBytes} if the block is now in the store, else -1. */
    public static void put(BlockId block, long storedBytes, BlockId outer) {
        PUTTING.set(outer);
        onRddBlock(block, s -> s.store(block, storedBytes, false));
    }

    /** putBytes is about to take {@code bytes} of storage memory for a serialized block. */
    public static void puttingBytes(BlockId block, long bytes) {
        onRddBlock(block, s -> s.reserve(block, bytes));
    }

    /** putBytes is done. */
    public static void putBytes(BlockId block, long bytes, boolean stored) {
        onRddBlock(block, s -> {
            if (stored) {
                s.store(block, bytes, true);
            } else {
                s.unreserve(block, bytes);
            }
        });
    }

    /** The block left the memory store (eviction, unpersist, removal). */
    public static void removed(BlockId block) {
        onStore(s -> s.forget(block));
    }

    /** The memory store was emptied. */
    public static void cleared() {
        onStore(HybridStore::forgetAll);
    }

    /** Runs {@code action} on the store once it follows Spark's; an error in it is said once. */
    private static void onStore(Consumer<HybridStore> action) {
        HybridStore s = instance;
        if (s != null && s.memoryManager != null) {
            try {
                action.accept(s);
            } catch (RuntimeException e) {
                failed(e);
            }
        }
    }

    private static void onRddBlock(BlockId block, Consumer<HybridStore> action) {
        if (block.isRDD()) {
            onStore(action);
        }
    }

    /** An error in the accounting: said once; the counts may be off from then on, Spark is not. */
    private static void failed(RuntimeException e) {
        HybridAgent.reportOnce("lost track of the tiers (" + e + "): blocks may not move between them as they should");
    }

    // ---- the tiers ----

    private static long task() {
        TaskContext context = TaskContext.get();
        return context == null ? -1L : context.taskAttemptId();
    }

    /** DRAM's room left; in the file tier a block unrolling for NVM takes DRAM's room too, until it is stored. */
    private long dramFree() {
        return dramShare - dramBlocks - dramUnroll - (nvm.inStoragePool() ? 0 : nvmUnroll);
    }

    private Unroll unroll(long task, BlockId block) {
        List<Unroll> held = unrolls.get(task);
        if (held != null) {
            for (Unroll u : held) {
                if (u.block.equals(block)) {
                    return u;
                }
            }
        }
        return null;
    }

    private void count(Tier tier, long bytes) {
        if (tier == Tier.DRAM) {
            dramUnroll += bytes;
        } else {
            nvmUnroll += bytes;
        }
    }

    /**
     * Counts {@code bytes} more for {@code block}'s unroll (or put), in the tier its first
     * reservation chose; makes room in DRAM first, synchronously, if that is its tier.
     */
    private void reserve(BlockId block, long bytes) {
        long task = task();
        boolean short_;
        synchronized (this) {
            Unroll u = unroll(task, block);
            if (u == null) {
                u = new Unroll(block, firstTier(bytes));
                unrolls.computeIfAbsent(task, t -> new ArrayList<>()).add(u);
            }
            u.bytes += bytes;
            count(u.tier, bytes);
            short_ = (u.tier == Tier.DRAM || !nvm.inStoragePool()) && dramFree() < 0;
        }
        if (short_ && !makeRoom()) {
            moveUnrollToNvm(task, block);
        }
    }

    private Tier firstTier(long request) {
        if (options.dynamicUnroll) {
            long average = averageCount == 0 ? 0 : averageBytes / averageCount;
            if (Math.max(request, 2 * average) > dramFree() && nvm.hasRoom()) {
                return Tier.NVM;
            }
        }
        return Tier.DRAM;
    }

    private synchronized void unreserve(BlockId block, long bytes) {
        Unroll u = unroll(task(), block);
        if (u != null) {
            long undo = Math.min(bytes, u.bytes);
            u.bytes -= undo;
            count(u.tier, -undo);
            dropIfEmpty(task(), u);
        }
    }

    /** Spark releases unroll memory by task, not by block: the block being stored goes first. */
    private synchronized void release(long bytes, BlockId putting) {
        long task = task();
        List<Unroll> held = unrolls.get(task);
        if (held == null || (putting != null && !putting.isRDD())) {
            return;   // a block that is not tiered releases unroll memory that was never counted
        }
        Unroll current = putting == null ? null : unroll(task, putting);
        if (current != null && bytes == current.bytes - current.committing) {
            // putIterator releasing all its block's unroll memory: the block's transfer to storage
            // memory (another block's partially unrolled values, read meanwhile, release their own).
            current.committing += bytes;
            return;
        }
        for (Unroll u : new ArrayList<>(held)) {
            long take = Math.min(bytes, u.bytes - u.committing);
            u.bytes -= take;
            count(u.tier, -take);
            bytes -= take;
            dropIfEmpty(task, u);
            if (bytes == 0) {
                break;
            }
        }
    }

    private void dropIfEmpty(long task, Unroll u) {
        if (u.bytes == 0) {
            List<Unroll> held = unrolls.get(task);
            held.remove(u);
            if (held.isEmpty()) {
                unrolls.remove(task);
            }
        }
    }

    /**
     * The unrolled block is stored ({@code storedBytes} >= 0) or not: the unroll memory released
     * for it becomes the block's; all of it for a block put {@code whole} (putBytes).
     */
    private void store(BlockId block, long storedBytes, boolean whole) {
        long task = task();
        Tier tier;
        long written;
        synchronized (this) {
            Unroll u = unroll(task, block);
            if (u == null) {
                return;
            }
            tier = u.tier;
            written = u.writtenToNvm;
            long committed = whole ? u.bytes : u.committing;
            u.bytes -= committed;
            u.committing = 0;
            count(tier, -committed);
            dropIfEmpty(task, u);
            if (storedBytes < 0) {
                return;
            }
            add(block, storedBytes, tier);
        }
        placed(block, tier, storedBytes, written);
    }

    private void add(BlockId block, long bytes, Tier tier) {
        blocks.put(block, new Block(bytes, tier));
        if (tier == Tier.DRAM) {
            dramBlocks += bytes;
        } else {
            nvmBlocks += bytes;
        }
        TaskContext context = TaskContext.get();
        int stage = context == null ? -1 : context.stageId();
        if (stage != averageStage) {
            averageStage = stage;
            averageCount = averageBytes = 0;
        }
        averageCount++;
        averageBytes += bytes;
        counters.tiersNow(dramBlocks, nvmBlocks);
    }

    /**
     * A block just stored in NVM goes there now, by the task that stored it: the task pays the
     * write, less what it wrote when its unroll left DRAM. A block NVM cannot take stays in DRAM.
     */
    private void placed(BlockId block, Tier tier, long bytes, long alreadyWritten) {
        if (tier == Tier.NVM && !nvm.place(block, bytes, alreadyWritten)) {
            tier = Tier.DRAM;
            synchronized (this) {
                Block b = blocks.get(block);
                if (b != null && b.tier == Tier.NVM) {
                    b.tier = Tier.DRAM;
                    nvmBlocks -= b.bytes;
                    dramBlocks += b.bytes;
                    counters.tiersNow(dramBlocks, nvmBlocks);
                }
            }
        }
        counters.placed(tier, bytes);
    }

    private synchronized void forget(BlockId block) {
        if (oe != null) {
            oe.removed(block);
        }
        nvm.forgotten(block);
        Block b = blocks.remove(block);
        if (b == null) {
            return;
        }
        if (b.tier == Tier.DRAM) {
            dramBlocks -= b.bytes;
        } else {
            nvmBlocks -= b.bytes;
        }
        if (b.migrating) {
            inFlight -= b.bytes;   // its migration finds it gone
        }
        counters.tiersNow(dramBlocks, nvmBlocks);
    }

    private synchronized void forgetAll() {
        blocks.clear();
        unrolls.clear();
        dramBlocks = nvmBlocks = dramUnroll = nvmUnroll = inFlight = 0;
        counters.tiersNow(0, 0);
    }

    // ---- migrations ----

    /**
     * The synchronous transfer: under the memory manager's lock, so that every other task's
     * reservation waits as in Spark's eviction, the least recently used DRAM blocks go to NVM
     * one at a time until DRAM's count fits its share. False if nothing is left to move.
     */
    private boolean makeRoom() {
        // Waits for asynchronous migrations at most this long: past it, the block unrolls in NVM.
        long giveUp = System.nanoTime() + 5_000_000_000L;
        Set<BlockId> refused = new HashSet<>();   // by the tier: busy, or no room for them
        while (true) {
            synchronized (memoryManager) {
                while (true) {
                    synchronized (this) {
                        if (dramFree() >= 0) {
                            return true;
                        }
                    }
                    if (!nvm.hasRoom()) {
                        return false;
                    }
                    if (moveLeastRecentlyUsed(refused) < 0) {
                        break;
                    }
                }
            }
            // Only blocks in flight are left: wait for them outside the memory manager's lock,
            // which a migration into the file takes to release the block's memory.
            synchronized (this) {
                if (inFlight == 0 || System.nanoTime() - giveUp > 0) {
                    return false;
                }
                try {
                    wait(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
    }

    /**
     * Spark is about to evict {@code space} bytes of blocks, for a block or for execution memory,
     * under the memory manager's lock. With NVM outside Spark's pool (the file tier) the least
     * recently used DRAM blocks move to NVM instead, synchronously, as the paper's layered store
     * takes what its memory store evicts; returns the bytes so freed. In the emulated tier NVM is
     * in the pool, so an eviction means both tiers are full: Spark evicts as usual.
     */
    public static long evicting(long space) {
        HybridStore s = instance;
        return s == null || s.memoryManager == null || s.nvm.inStoragePool() ? 0 : s.moveForEviction(space);
    }

    private long moveForEviction(long space) {
        long freed = 0;
        Set<BlockId> refused = new HashSet<>();
        // Blocks in flight are skipped, not waited for: their migrations need the lock held here.
        try {
            while (freed < space && nvm.hasRoom()) {
                long moved = moveLeastRecentlyUsed(refused);
                if (moved < 0) {
                    break;
                }
                freed += moved;
            }
        } catch (RuntimeException e) {
            failed(e);   // what moved before stays freed: Spark evicts only the rest
        }
        return freed;
    }

    /**
     * Moves DRAM's least recently used block not in {@code refused} to NVM, synchronously, the
     * memory manager's lock held: its bytes, 0 if the tier refused it (added to {@code refused}),
     * -1 if no block is left to move.
     */
    private long moveLeastRecentlyUsed(Set<BlockId> refused) {
        List<BlockId> chosen = leastRecentlyUsedInDram(1, refused);
        if (chosen.isEmpty()) {
            return -1;
        }
        BlockId victim = chosen.get(0);
        long bytes = migratingBytes(victim);
        boolean moved = false;
        try {
            moved = nvm.migrate(victim, bytes, false);
        } finally {
            if (moved) {
                migrated(victim, false);
            } else {
                notMigrated(victim);
                refused.add(victim);
            }
        }
        return moved ? bytes : 0;
    }

    /** A block DRAM could not make room for continues its unroll in NVM, its bytes so far written there. */
    private void moveUnrollToNvm(long task, BlockId block) {
        long bytes;
        synchronized (this) {
            Unroll u = unroll(task, block);
            if (u == null || u.tier == Tier.NVM) {
                return;
            }
            count(Tier.DRAM, -u.bytes);
            u.tier = Tier.NVM;
            count(Tier.NVM, u.bytes);
            bytes = u.bytes - u.committing;
            u.writtenToNvm += bytes;
        }
        nvm.unrollMoved(bytes);   // placed, not migrated: the block was never stored in DRAM
    }

    /**
     * Marks up to {@code bytes} (at least one block) of DRAM's least recently used blocks, not
     * already migrating nor in {@code skip}, as migrating; Spark's {@code entries} is in access order.
     */
    List<BlockId> leastRecentlyUsedInDram(long bytes, Set<BlockId> skip) {
        List<BlockId> chosen = new ArrayList<>();
        LinkedHashMap<BlockId, ?> lru = entries;
        synchronized (lru) {
            long total = 0;
            for (BlockId id : lru.keySet()) {
                synchronized (this) {
                    Block b = blocks.get(id);
                    if (b != null && b.tier == Tier.DRAM && !b.migrating && !skip.contains(id) && nvm.movable(id)) {
                        b.migrating = true;
                        inFlight += b.bytes;
                        chosen.add(id);
                        total += b.bytes;
                    }
                }
                if (total >= bytes) {
                    break;
                }
            }
        }
        return chosen;
    }

    /** A block chosen for migration that will not be migrated after all: it stays in DRAM. */
    synchronized void notMigrated(BlockId id) {
        Block b = blocks.get(id);
        if (b != null && b.migrating) {
            b.migrating = false;
            inFlight -= b.bytes;
        }
        notifyAll();
    }

    /** The size of a block chosen for migration; 0 if it was removed since. */
    synchronized long migratingBytes(BlockId id) {
        Block b = blocks.get(id);
        return b == null ? 0 : b.bytes;
    }

    /** A migrating block's write is done: it is in NVM now, if it is still cached. */
    synchronized void migrated(BlockId id, boolean asynchronous) {
        Block b = blocks.get(id);
        // A block removed while migrating was forgotten, and left the counts then; one cached
        // again under its id meanwhile is the one the file tier moved (it moves by id).
        if (b != null && b.tier == Tier.DRAM && (b.migrating || !nvm.inStoragePool())) {
            if (b.migrating) {
                inFlight -= b.bytes;
            }
            b.migrating = false;
            b.tier = Tier.NVM;
            dramBlocks -= b.bytes;
            nvmBlocks += b.bytes;
            counters.migrated(b.bytes, asynchronous);
            counters.tiersNow(dramBlocks, nvmBlocks);
        }
        notifyAll();
    }

    /**
     * What the store holds now and has done, by name (bytes and block counts), for tests and
     * reports; empty before the agent is installed.
     */
    public static Map<String, Long> figures() {
        HybridStore s = instance;
        Map<String, Long> f = new LinkedHashMap<>();
        if (s == null) {
            return f;
        }
        synchronized (s) {
            f.put("dram_share_bytes", s.dramShare);
            f.put("dram_bytes", s.dramBlocks);
            f.put("nvm_bytes", s.nvmBlocks);
            f.put("dram_unroll_bytes", s.dramUnroll);
            f.put("nvm_unroll_bytes", s.nvmUnroll);
            f.put("blocks", (long) s.blocks.size());
            f.put("in_flight_bytes", s.inFlight);
        }
        s.counters.addTo(f);
        s.nvm.addTo(f);
        if (s.oe != null) {
            s.oe.addTo(f);
        }
        return f;
    }

    // ---- what the monitor reads ----

    synchronized boolean attached() {
        return memoryManager != null;
    }

    /** DRAM's use, blocks and unrolls, as a fraction of its share. */
    synchronized double dramUse() {
        return dramShare == 0 ? 0 : (double) (dramShare - dramFree()) / dramShare;
    }

    synchronized long averageBlock() {
        return averageCount == 0 ? 0 : averageBytes / averageCount;
    }

    synchronized long inFlight() {
        return inFlight;
    }
}
