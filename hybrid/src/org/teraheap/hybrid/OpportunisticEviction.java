package org.teraheap.hybrid;

import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.apache.spark.memory.MemoryManager;
import org.apache.spark.serializer.SerializerManager;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockInfo;
import org.apache.spark.storage.BlockInfoManager;
import org.apache.spark.storage.BlockManager;
import org.apache.spark.storage.DiskStore;
import org.apache.spark.storage.memory.DeserializedMemoryEntry;
import org.apache.spark.storage.memory.SerializedMemoryEntry;
import scala.Option;
import scala.collection.JavaConverters;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * Opportunistic eviction to disk (the paper's §4.3), for blocks whose level keeps them on disk
 * too: when the storage pool's free room falls under the window (the average bytes an eviction
 * frees, times the multiplier), one thread writes the least recently used such blocks to disk
 * ahead of time, up to the window, and leaves them in memory. Spark's eviction writes a block only
 * if the disk store lacks it, so evicting one written ahead frees its memory without a write.
 * The queue is bounded: when it is full the monitor stops choosing until the writer catches up.
 *
 * <p>A block is written under a read lock, so Spark neither evicts nor removes it meanwhile; its
 * values are read from the entry found when it was chosen (if the block is still the one chosen),
 * without touching the LRU order. Only on-heap blocks whose level keeps them on disk are chosen.
 */
final class OpportunisticEviction {
    private static final int QUEUE = 8;

    private final int multiplier;
    private final ThreadPoolExecutor writer = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(QUEUE), r -> {
            Thread t = new Thread(r, "hybrid-spark-disk-eviction");
            t.setDaemon(true);
            return t;
        });
    /** Blocks written ahead and still in memory. */
    private final Set<BlockId> written = ConcurrentHashMap.newKeySet();
    private final Set<BlockId> queued = ConcurrentHashMap.newKeySet();
    /** Blocks found on disk already (read back from it and cached again): nothing to write. */
    private final Set<BlockId> onDisk = ConcurrentHashMap.newKeySet();

    /** A block chosen to be written ahead: its entry and block info when chosen. */
    private static final class Candidate {
        final BlockId id;
        final Object entry;
        final BlockInfo info;

        Candidate(BlockId id, Object entry, BlockInfo info) {
            this.id = id;
            this.entry = entry;
            this.info = info;
        }
    }

    private volatile MemoryManager memoryManager;
    private volatile LinkedHashMap<BlockId, ?> entries;
    private volatile BlockInfoManager blockInfo;
    private volatile SerializerManager serializers;
    private volatile BlockManager blockManager;

    private long evictions;
    private long evictedBytes;
    private long writtenAhead;
    private long writtenAheadBytes;
    private long skippedWrites;
    private long writesAtEviction;
    private long doubleWrites;

    OpportunisticEviction(int multiplier) {
        this.multiplier = multiplier;
    }

    void start(long periodNanos) {
        Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hybrid-spark-eviction-monitor");
            t.setDaemon(true);
            return t;
        }).scheduleWithFixedDelay(this::check, periodNanos, periodNanos, TimeUnit.NANOSECONDS);
    }

    void attach(MemoryManager memoryManager, LinkedHashMap<BlockId, ?> entries, BlockInfoManager blockInfo,
                SerializerManager serializers, BlockManager blockManager) {
        this.memoryManager = memoryManager;
        this.entries = entries;
        this.blockInfo = blockInfo;
        this.serializers = serializers;
        this.blockManager = blockManager;
        written.clear();
        queued.clear();
        onDisk.clear();
    }

    /** Spark's eviction freed {@code bytes} for one request. */
    synchronized void evicted(long bytes) {
        if (bytes > 0) {
            evictions++;
            evictedBytes += bytes;
        }
    }

    /** Spark is dropping the block from memory (its write lock held): to disk unless it is there already. */
    void dropping(BlockManager manager, BlockId block) {
        boolean onDisk = manager.diskStore().contains(block);
        boolean ahead = written.remove(block);
        Option<BlockInfo> info = blockInfo.get(block);
        boolean toDisk = info.isDefined() && info.get().level().useDisk();
        synchronized (this) {
            if (ahead && onDisk) {
                skippedWrites++;
            } else if (ahead) {
                doubleWrites++;   // written ahead, yet gone from disk: Spark writes it again
            } else if (toDisk && !onDisk) {
                writesAtEviction++;
            }
        }
    }

    /** The block left memory and disk or memory alone: it is no longer written ahead. */
    void removed(BlockId block) {
        written.remove(block);
        onDisk.remove(block);
    }

    private void check() {
        try {
            MemoryManager mm = memoryManager;
            if (mm == null) {
                return;
            }
            long window;
            synchronized (this) {
                window = evictions == 0 ? 0 : evictedBytes / evictions * multiplier;
            }
            long free = mm.maxOnHeapStorageMemory() - mm.onHeapStorageMemoryUsed();
            if (window == 0 || free >= window) {
                return;
            }
            for (Candidate chosen : leastRecentlyUsed(window)) {
                BlockId id = chosen.id;
                queued.add(id);
                try {
                    writer.execute(() -> {
                        try {
                            writeAhead(chosen);
                        } catch (RuntimeException e) {
                            HybridAgent.reportOnce("could not write " + id + " to disk ahead (" + e
                                + "): Spark writes it at eviction, as usual");
                        } finally {
                            queued.remove(id);
                        }
                    });
                } catch (RejectedExecutionException e) {
                    queued.remove(id);   // the queue is full: the writer is behind, choose again later
                    return;
                }
            }
        } catch (RuntimeException | Error e) {
            HybridAgent.reportOnce("opportunistic eviction failed (" + e + "): blocks are written at eviction as usual");
        }
    }

    /**
     * On-heap RDD blocks whose level keeps them on disk, least recently used first, not written
     * ahead, queued or on disk already, up to {@code bytes}.
     */
    private List<Candidate> leastRecentlyUsed(long bytes) {
        List<Candidate> chosen = new ArrayList<>();
        LinkedHashMap<BlockId, ?> lru = entries;
        long total = 0;
        synchronized (lru) {
            for (Map.Entry<BlockId, ?> e : lru.entrySet()) {
                if (total >= bytes) {
                    break;
                }
                BlockId id = e.getKey();
                if (!id.isRDD() || written.contains(id) || queued.contains(id) || onDisk.contains(id)
                        || !MemoryEntries.onHeap(e.getValue())) {
                    continue;
                }
                Option<BlockInfo> info = blockInfo.get(id);
                if (info.isDefined() && info.get().level().useDisk()) {
                    chosen.add(new Candidate(id, e.getValue(), info.get()));
                    total += MemoryEntries.size(e.getValue());
                }
            }
        }
        return chosen;
    }

    /** Writes the block to disk as Spark's eviction would, under a read lock, if it is still cached to go there. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private void writeAhead(Candidate chosen) {
        BlockId id = chosen.id;
        Object entry = chosen.entry;
        Option<BlockInfo> locked = blockInfo.lockForReading(id, false);
        if (locked.isEmpty()) {
            return;   // being written or removed: not ours to touch
        }
        try {
            BlockInfo info = locked.get();
            if (info != chosen.info) {
                return;   // removed and cached again since it was chosen: its entry is another
            }
            DiskStore disk = blockManager.diskStore();
            if (disk.contains(id)) {
                onDisk.add(id);
                return;
            }
            if (entry instanceof DeserializedMemoryEntry) {
                Object values = ((DeserializedMemoryEntry<?>) entry).value();
                disk.put(id, new AbstractFunction1<WritableByteChannel, BoxedUnit>() {
                    @Override
                    public BoxedUnit apply(WritableByteChannel channel) {
                        OutputStream out = Channels.newOutputStream(channel);
                        serializers.dataSerializeStream(id, out, JavaConverters.asScalaIterator(MemoryEntries.elements(values)),
                            (scala.reflect.ClassTag) info.classTag());
                        return BoxedUnit.UNIT;
                    }
                });
            } else if (entry instanceof SerializedMemoryEntry) {
                disk.putBytes(id, ((SerializedMemoryEntry<?>) entry).buffer());
            } else {
                return;
            }
            written.add(id);
            synchronized (this) {
                writtenAhead++;
                writtenAheadBytes += MemoryEntries.size(entry);
            }
        } finally {
            blockInfo.unlock(id, Option.empty());
        }
    }

    synchronized void addTo(Map<String, Long> f) {
        f.put("oe_written_ahead_blocks", writtenAhead);
        f.put("oe_skipped_writes", skippedWrites);
        f.put("oe_double_writes", doubleWrites);
        f.put("writes_at_eviction", writesAtEviction);
        f.put("evictions", evictions);
    }

    synchronized String summary() {
        return String.format(Locale.ROOT, " oe_multiplier=%d oe_written_ahead_blocks=%d oe_written_ahead_mb=%.1f "
            + "oe_skipped_writes=%d oe_double_writes=%d writes_at_eviction=%d evictions=%d",
            multiplier, writtenAhead, writtenAheadBytes / (double) (1 << 20), skippedWrites, doubleWrites,
            writesAtEviction, evictions);
    }
}
