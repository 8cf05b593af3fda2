package org.teraheap.hybrid;

import java.util.Map;

import org.apache.spark.SparkEnv;
import org.apache.spark.status.LiveExecutor;
import org.apache.spark.status.LiveRDD;
import org.apache.spark.status.LiveRDDDistribution;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockManager;
import org.apache.spark.storage.BlockStatus;
import org.apache.spark.storage.StorageLevel;
import scala.Option;
import scala.collection.JavaConverters;
import scala.collection.mutable.HashMap;

/**
 * What Spark's driver, and so its UI, is told of a block in the file tier: memory off the heap,
 * serialized, of the bytes it takes in the file. The executor registers the file as its off-heap
 * storage memory ({@link BlockManagerMasterAdvice}), so the UI's executors page and an RDD's data
 * distribution show the file tier as "off heap" and DRAM as "on heap".
 *
 * <p>Spark's status listener adds or subtracts each update's sizes: a block already reported on
 * the heap and then moved into the file is reported removed from the heap, then added off it.
 * Spark reports a block's removal with the storage level it had and no replica, which its
 * listener reads as memory added: the removal of a block in the file is made to say memory off
 * the heap freed. An
 * unpersisted RDD's blocks are not reported one by one: the driver's listener takes the RDD's
 * memory off the figure of the heap its storage level names, and the agent takes its part in
 * the file off the other.
 */
public final class FileBlockStatus {
    /** The block whose removal from the file this thread made last, or null (another block since). */
    private static final ThreadLocal<BlockId> REMOVED_FROM_FILE = new ThreadLocal<>();

    private FileBlockStatus() {
    }

    /**
     * Spark's status of a block in the file, made to say where it is and how large it is there. A
     * block also on disk keeps Spark's own status: the driver counts a block reported in memory
     * and on disk at once as memory it never gives back.
     */
    public static BlockStatus inFile(BlockStatus spark, long fileBytes) {
        StorageLevel level = spark.storageLevel();
        if (level.useDisk()) {
            return spark;
        }
        return new BlockStatus(StorageLevel.apply(false, true, true, false, level.replication()), fileBytes, 0);
    }

    /**
     * Tells the driver that a block it knew on the heap ({@code heapBytes}) is now in the file; the
     * caller holds the block's write lock, so no removal of it by this executor comes between the
     * two updates. A block the driver no longer places here (its RDD being unpersisted) is not
     * reported again; one also on disk is left as the driver knows it ({@link #inFile}).
     */
    static void movedIn(BlockId block, StorageLevel level, long heapBytes, long fileBytes) {
        SparkEnv env = SparkEnv.get();
        BlockManager manager = env == null ? null : env.blockManager();
        if (manager == null) {
            return;
        }
        try {
            if (level.useDisk() && manager.diskStore().contains(block)
                    || !manager.master().getLocations(block).contains(manager.blockManagerId())) {
                return;
            }
            manager.reportBlockStatus(block, new BlockStatus(StorageLevel.NONE(), heapBytes, 0), 0);
            manager.reportBlockStatus(block, new BlockStatus(StorageLevel.apply(false, true, true, false,
                level.replication()), fileBytes, 0), 0);
        } catch (Exception e) {   // the driver did not answer: the block is in the file all the same
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            HybridAgent.reportOnce("cannot tell the driver that " + block + " moved into the NVM file (" + e
                + "): Spark's UI may show such blocks on the heap");
        }
    }

    /**
     * The driver's status listener is about to drop an RDD: it takes the RDD's on-heap part off
     * the executors' on-heap figures (its off-heap part only for an RDD cached off the heap), so
     * the part in the file is taken off their off-heap figures here. An RDD cached off the heap by
     * Spark itself is left to the listener.
     */
    @SuppressWarnings("unchecked")
    public static void unpersisting(Object liveRdds, Object liveExecutors, int rddId) {
        Option<LiveRDD> rdd = ((HashMap<Object, LiveRDD>) liveRdds).get(rddId);
        if (rdd.isEmpty() || rdd.get().info().storageLevel().useOffHeap()) {
            return;
        }
        HashMap<String, LiveExecutor> executors = (HashMap<String, LiveExecutor>) liveExecutors;
        for (Map.Entry<String, LiveRDDDistribution> d
                : JavaConverters.mapAsJavaMap(rdd.get().getDistributions()).entrySet()) {
            long offHeap = d.getValue().offHeapUsed();
            Option<LiveExecutor> executor = executors.get(d.getKey());
            if (offHeap > 0 && executor.isDefined() && executor.get().hasMemoryInfo()) {
                LiveExecutor e = executor.get();
                e.usedOffHeap_$eq(Math.max(0, e.usedOffHeap() - offHeap));
            }
        }
    }

    /** The memory store's {@code remove} ran on this thread: for a block in the file or not. */
    public static void removed(BlockId block, boolean fromFile) {
        if (fromFile) {
            REMOVED_FROM_FILE.set(block);
        } else {
            REMOVED_FROM_FILE.remove();
        }
    }

    /**
     * The status Spark is about to report: the report of a removal that followed the block's
     * removal from the file says that the memory it frees was off the heap.
     */
    public static BlockStatus toReport(BlockId block, BlockStatus status) {
        StorageLevel level = status.storageLevel();
        if (level.isValid() || !level.useOffHeap() || !block.equals(REMOVED_FROM_FILE.get())) {
            return status;
        }
        REMOVED_FROM_FILE.remove();
        return new BlockStatus(StorageLevel.apply(false, false, true, false, 1), status.memSize(), status.diskSize());
    }
}
