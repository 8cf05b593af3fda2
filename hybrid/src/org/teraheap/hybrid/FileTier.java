package org.teraheap.hybrid;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.spark.memory.MemoryManager;
import org.apache.spark.memory.MemoryMode;
import org.apache.spark.serializer.SerializerManager;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockInfoManager;
import org.apache.spark.storage.memory.DeserializedMemoryEntry;
import org.apache.spark.storage.memory.SerializedMemoryEntry;
import org.apache.spark.util.io.ChunkedByteBuffer;
import org.apache.spark.util.io.ChunkedByteBufferOutputStream;
import scala.Option;
import scala.Some;
import scala.collection.JavaConverters;
import scala.reflect.ClassTag;
import scala.runtime.AbstractFunction1;

/**
 * NVM on a real device: blocks moved out of Spark's memory store into a mapped file
 * ({@link NvmFile}), serialized with Spark's serializer, and read back as copies on the heap.
 *
 * <p>A block in the file has left Spark's {@code entries} and storage pool; the memory store's
 * lookups ({@code contains}, {@code getValues}, {@code getBytes}, {@code getSize}, {@code remove},
 * {@code clear}) are advised to find it here. A block moves under its write lock (no reader is
 * inside it), is in the file before it leaves {@code entries} (a lookup always finds it in one of
 * the two), and its extent is reused only after its last reader has copied it out. Spark's
 * eviction never sees a block in the file: it leaves only by removal.
 */
public final class FileTier implements NvmTier {
    private static final int CHUNK = 4 << 20;

    private static volatile FileTier instance;

    /** A block in the file. */
    private static final class Stored {
        final NvmFile.Extent extent;
        final int length;
        /** The storage memory Spark counted for it, which {@code getSize} keeps reporting. */
        final long size;
        final ClassTag<?> classTag;
        int readers;
        boolean removed;

        Stored(NvmFile.Extent extent, int length, long size, ClassTag<?> classTag) {
            this.extent = extent;
            this.length = length;
            this.size = size;
            this.classTag = classTag;
        }
    }

    private final NvmFile file;
    private final Map<BlockId, Stored> blocks = new HashMap<>();
    /** Blocks that cannot go to the file (they do not serialize, or exceed a segment): left in DRAM. */
    private final Set<BlockId> unmovable = ConcurrentHashMap.newKeySet();
    private volatile MemoryManager memoryManager;
    private volatile LinkedHashMap<BlockId, ?> entries;
    private volatile BlockInfoManager blockInfo;
    private volatile SerializerManager serializers;

    private long moved;
    private long movedBytes;
    private long reads;
    private long full;
    private long busy;
    private long peakUsed;
    private volatile boolean fullSeen;

    private FileTier(NvmFile file) {
        this.file = file;
    }

    static FileTier install(NvmFile file) {
        instance = new FileTier(file);
        return instance;
    }

    /** Spark built its memory store: the file starts empty with it. */
    void attach(MemoryManager memoryManager, LinkedHashMap<BlockId, ?> entries, BlockInfoManager blockInfo,
                SerializerManager serializers) {
        emptyFile();   // a store before this one (another SparkContext) left its blocks
        this.memoryManager = memoryManager;
        this.entries = entries;
        this.blockInfo = blockInfo;
        this.serializers = serializers;
    }

    // ---- moving blocks in ----

    @Override
    public boolean migrate(BlockId block, long bytes, boolean lockedByCaller) {
        BlockInfoManager info = blockInfo;
        if (info == null) {
            return false;
        }
        if (!lockedByCaller && info.lockForWriting(block, false).isEmpty()) {
            synchronized (this) {
                busy++;   // being read or written: a migration never waits for a task
            }
            return false;
        }
        try {
            long heapBytes = moveIn(block);
            if (heapBytes < 0) {
                return false;
            }
            if (!lockedByCaller) {   // the driver knew it on the heap; a block being stored is reported by Spark
                FileBlockStatus.movedIn(block, info.get(block).get().level(), heapBytes, fileBytesOf(block));
            }
            return true;
        } finally {
            if (!lockedByCaller) {
                info.unlock(block, Option.empty());
            }
        }
    }

    @Override
    public boolean place(BlockId block, long bytes, long writtenWhileUnrolling) {
        return migrate(block, bytes, true);
    }

    /** Nothing to write yet: a block unrolls on the heap in either tier, and moves once stored. */
    @Override
    public void unrollMoved(long bytes) {
    }

    @Override
    public boolean movable(BlockId block) {
        return !unmovable.contains(block);
    }

    @Override
    public void forgotten(BlockId block) {
        unmovable.remove(block);
    }

    @Override
    public boolean hasRoom() {
        return !fullSeen;
    }

    @Override
    public boolean inStoragePool() {
        return false;
    }

    @Override
    public long waitedNanos() {
        return 0;
    }

    /**
     * Writes the block into the file and takes it out of Spark's store; its write lock is held.
     * The storage memory Spark counted for it, or -1 if it stays in DRAM.
     */
    private long moveIn(BlockId block) {
        LinkedHashMap<BlockId, ?> lru = entries;
        Object entry = MemoryEntries.find(lru, block);
        if (entry == null || !MemoryEntries.onHeap(entry)) {
            return -1;
        }
        ChunkedByteBuffer data;
        try {
            data = serialize(block, entry);
        } catch (VirtualMachineError e) {   // no heap for the copy now: the block may move later
            return -1;
        } catch (Throwable e) {   // a value Spark's serializer cannot write (MEMORY_ONLY caches any object)
            unmovable.add(block);
            HybridAgent.reportOnce("cannot serialize " + block + " for the NVM file (" + e
                + "): such blocks stay in DRAM");
            return -1;
        }
        if (data.size() > NvmFile.SEGMENT) {
            unmovable.add(block);
            return -1;
        }
        NvmFile.Extent extent = file.allocate(data.size());
        if (extent == null) {
            fullSeen = true;
            synchronized (this) {
                full++;
            }
            return -1;
        }
        file.write(extent, Arrays.asList(data.getChunks()).iterator());
        long size = MemoryEntries.size(entry);
        Stored stored = new Stored(extent, (int) data.size(), size, MemoryEntries.classTag(entry));
        synchronized (this) {
            blocks.put(block, stored);
        }
        boolean left;
        synchronized (lru) {
            left = lru.get(block) == entry && lru.remove(block) != null;
        }
        if (!left) {
            drop(block);
            return -1;
        }
        memoryManager.releaseStorageMemory(size, MemoryMode.ON_HEAP);
        synchronized (this) {
            moved++;
            movedBytes += data.size();
            peakUsed = Math.max(peakUsed, file.used());
        }
        return size;
    }

    /** The block's bytes as Spark would write them to disk: its serialized buffer, or its values serialized. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private ChunkedByteBuffer serialize(BlockId block, Object entry) {
        if (entry instanceof SerializedMemoryEntry) {
            return ((SerializedMemoryEntry<?>) entry).buffer();
        }
        DeserializedMemoryEntry<?> values = (DeserializedMemoryEntry<?>) entry;
        ChunkedByteBufferOutputStream out = new ChunkedByteBufferOutputStream(CHUNK, new AbstractFunction1<Object, ByteBuffer>() {
            @Override
            public ByteBuffer apply(Object size) {
                return ByteBuffer.allocate((Integer) size);
            }
        });
        serializers.dataSerializeStream(block, out, JavaConverters.asScalaIterator(MemoryEntries.elements(values.value())),
            (ClassTag) values.classTag());
        out.close();
        return out.toChunkedByteBuffer();
    }

    // ---- Spark's lookups, for blocks its entries lack ----

    /** Whether the block is in the file. */
    public static boolean holds(BlockId block) {
        return sizeOf(block) >= 0;
    }

    /** The size Spark counted for a block in the file, or -1. */
    public static long sizeOf(BlockId block) {
        Stored s = stored(block);
        return s == null ? -1 : s.size;
    }

    /** The bytes a block takes in the file, or -1 if it is not there. */
    public static long fileBytesOf(BlockId block) {
        Stored s = stored(block);
        return s == null ? -1 : s.length;
    }

    private static Stored stored(BlockId block) {
        FileTier t = instance;
        if (t == null) {
            return null;
        }
        synchronized (t) {
            return t.blocks.get(block);
        }
    }

    /**
     * A block's values read back from the file (deserialized lazily from a heap copy, as Spark
     * reads a block from disk), or None if it is not there.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static Option<Object> valuesOf(BlockId block) {
        FileTier t = instance;
        Stored s = t == null ? null : t.pin(block);
        if (s == null) {
            return Option.empty();
        }
        ChunkedByteBuffer copy = t.copyOut(block, s);
        return new Some<>(t.serializers.dataDeserializeStream(block, copy.toInputStream(false), (ClassTag) s.classTag));
    }

    /** A serialized block's bytes read back from the file (a copy on the heap), or None. */
    public static Option<Object> bytesOf(BlockId block) {
        FileTier t = instance;
        Stored s = t == null ? null : t.pin(block);
        return s == null ? Option.empty() : new Some<>(t.copyOut(block, s));
    }

    /** Removes a block from the file; false if it is not there. */
    public static boolean remove(BlockId block) {
        FileTier t = instance;
        return t != null && t.drop(block);
    }

    /** Forgets a block; its extent is freed now, or by its last reader. */
    private boolean drop(BlockId block) {
        NvmFile.Extent free = null;
        synchronized (this) {
            Stored s = blocks.remove(block);
            if (s == null) {
                return false;
            }
            s.removed = true;
            if (s.readers == 0) {
                free = s.extent;
            }
        }
        if (free != null) {
            release(free);
        }
        return true;
    }

    /** Spark cleared its memory store: the file is emptied, each extent once its readers are done. */
    public static void clear() {
        FileTier t = instance;
        if (t != null) {
            t.emptyFile();
        }
    }

    private synchronized void emptyFile() {
        for (Stored s : blocks.values()) {
            s.removed = true;
            if (s.readers == 0) {
                release(s.extent);
            }
        }
        blocks.clear();
        unmovable.clear();
    }

    /** The off-heap storage memory an executor registers with the driver: Spark's own and the file. */
    public static long withFileCapacity(long maxOffHeap) {
        FileTier t = instance;
        return t == null ? maxOffHeap : maxOffHeap + t.file.capacity();
    }

    private synchronized Stored pin(BlockId block) {
        Stored s = blocks.get(block);
        if (s == null) {
            return null;
        }
        s.readers++;
        reads++;
        return s;
    }

    /**
     * Copies a pinned block's bytes to the heap, then unpins it (freeing it if it was removed
     * meanwhile). A copy that fails throws, naming the block and the file tier: Spark fails the
     * task with it.
     */
    private ChunkedByteBuffer copyOut(BlockId block, Stored s) {
        try {
            return new ChunkedByteBuffer(file.read(s.extent, s.length));
        } catch (RuntimeException | InternalError e) {   // InternalError: the device failed under the mapping
            throw new IllegalStateException("hybrid-spark: cannot read " + block + " back from the NVM file: " + e, e);
        } finally {
            boolean free;
            synchronized (this) {
                free = --s.readers == 0 && s.removed;
            }
            if (free) {
                release(s.extent);
            }
        }
    }

    private void release(NvmFile.Extent extent) {
        file.free(extent);
        fullSeen = false;
    }

    // ---- figures ----

    @Override
    public void addTo(Map<String, Long> f) {
        synchronized (this) {
            f.put("file_blocks", (long) blocks.size());
            long bytes = 0;
            for (Stored s : blocks.values()) {
                bytes += s.length;
            }
            f.put("file_block_bytes", bytes);
            f.put("file_moved_blocks", moved);
            f.put("file_reads", reads);
            f.put("file_full", full);
            f.put("file_busy", busy);
            f.put("file_peak_used_bytes", peakUsed);
        }
        f.put("file_capacity_bytes", file.capacity());
        f.put("file_used_bytes", file.used());
        f.put("file_free_runs", (long) file.freeRuns());
    }

    @Override
    public String describe() {
        return "NVM in a " + NvmFile.size(file.capacity()) + " file in " + file.directory() + " (mapped)";
    }

    /** The summary line's part: the file's figures (MB). */
    synchronized String summary() {
        return String.format(Locale.ROOT, " file_capacity_mb=%.1f file_moved_blocks=%d file_moved_mb=%.1f "
            + "file_peak_used_mb=%.1f file_reads=%d file_full=%d file_busy=%d", file.capacity() / (double) (1 << 20),
            moved, movedBytes / (double) (1 << 20), peakUsed / (double) (1 << 20), reads, full, busy);
    }
}
