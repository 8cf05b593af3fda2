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
 * Spark reports a block's removal with a storage level that says nothing of where the block was
 * (on the heap, by default): the removal of a block in the file is made to say off the heap. An
 * unpersisted RDD's blocks are not reported one by one: the driver's listener takes the RDD's
 * memory off the figure of the heap its storage level names, and the agent takes its part in
 * the file off the other.
 */
public final class FileBlockStatus {
    /** The block whose removal from the file this thread made last, or null (another block since). */
    private static final ThreadLocal<BlockId> REMOVED_FROM_FILE = new ThreadLocal<>();

    private FileBlockStatus() {
    }

    /** Spark's status of a block in the file, made to say where it is and how large it is there. */
    public static BlockStatus inFile(BlockStatus spark, long fileBytes) {
        StorageLevel level = spark.storageLevel();
        return new BlockStatus(StorageLevel.apply(level.useDisk(), true, true, false, level.replication()),
            fileBytes, spark.diskSize());
    }

    /**
     * Tells the driver that a block it knew on the heap ({@code heapBytes}) is now in the file; the
     * caller holds the block's write lock, so no removal of it comes between the two updates.
     */
    static void movedIn(BlockId block, StorageLevel level, long heapBytes, long fileBytes) {
        SparkEnv env = SparkEnv.get();
        BlockManager manager = env == null ? null : env.blockManager();
        if (manager == null) {
            return;
        }
        try {
            boolean onDisk = level.useDisk() && manager.diskStore().contains(block);
            long diskBytes = onDisk ? manager.diskStore().getSize(block) : 0;
            manager.reportBlockStatus(block, new BlockStatus(StorageLevel.NONE(), heapBytes, diskBytes), 0);
            manager.reportBlockStatus(block, new BlockStatus(StorageLevel.apply(onDisk, true, true, false,
                level.replication()), fileBytes, diskBytes), 0);
        } catch (RuntimeException e) {
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
        if (status.storageLevel().isValid() || !block.equals(REMOVED_FROM_FILE.get())) {
            return status;
        }
        REMOVED_FROM_FILE.remove();
        return new BlockStatus(StorageLevel.apply(false, false, true, false, 1), status.memSize(), status.diskSize());
    }
}
