package org.teraheap.hybridtest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.TreeMap;

import com.codahale.metrics.Gauge;

import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.metrics.source.Source;
import org.apache.spark.status.api.v1.ExecutorSummary;
import org.apache.spark.status.api.v1.MemoryMetrics;
import org.apache.spark.status.api.v1.RDDDataDistribution;
import org.apache.spark.status.api.v1.RDDStorageInfo;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.RDDBlockId;
import org.apache.spark.storage.StorageLevel;
import org.teraheap.hybrid.FileTier;
import org.teraheap.hybrid.HybridMetricsPlugin;
import org.teraheap.hybrid.HybridStore;
import scala.Tuple2;
import scala.collection.JavaConverters;

/**
 * One scenario of the hybrid cache on unmodified Spark, in local mode: an RDD of known content
 * cached at a storage level and read several times. Prints "PASS what" or "FAIL what" per
 * assertion and exits 1 on any failure.
 *
 * <pre>HybridCheck LEVEL PARTITIONS MB_PER_PARTITION [expect...]</pre>
 * expect: {@code both-tiers} (blocks were in DRAM and in NVM), {@code async} (at least 90% of
 * the migrations asynchronous), {@code sync} (migrations, the larger share synchronous),
 * {@code untiered} (the agent is not in the way: no tier figures), {@code oe} (opportunistic
 * eviction wrote blocks ahead, evictions of those skipped their write, none was written twice),
 * {@code two-rdds} (the partitions split over two RDDs read in turn: Spark evicts a block only
 * for another RDD's), {@code file} (the file tier: blocks moved into the file and read back from
 * it, the file empty and whole again after unpersist), {@code file-full} (the file tier ran out of
 * room: blocks stayed in DRAM), {@code metrics} (the metrics plugin, given as spark.plugins, shows the
 * tiers in Spark's metrics system as the agent's figures do), {@code unserializable} (the cached
 * records are objects Spark's serializer cannot write: none goes to the file, results still right),
 * {@code ui} (the file tier: Spark's status store, which its UI and REST API read, shows the
 * file's blocks as off-heap memory of their size in the file, DRAM's as on-heap, one block
 * removed from the file off the off-heap figure, and none once unpersisted), {@code execution}
 * (the file tier: a sort then takes execution memory, for which Spark evicts storage; the blocks
 * it would evict move into the file, so every block is still cached and none went to disk),
 * {@code cluster} (with {@code -Dmaster=spark://...}: a standalone cluster whose executors have
 * the file tier and whose driver has the agent without it; each executor's figures, read by a
 * task on it, and the driver's status store agree on where the blocks are, before and after
 * unpersist).
 */
public final class HybridCheck {
    private static final int LONGS_PER_RECORD = 16;
    private static boolean failed;

    private HybridCheck() {
    }

    public static void main(String[] args) throws Exception {
        StorageLevel level = StorageLevel.fromString(args[0]);
        int partitions = Integer.parseInt(args[1]);
        int mbPerPartition = Integer.parseInt(args[2]);
        List<String> expect = new ArrayList<>();
        for (int i = 3; i < args.length; i++) {
            expect.add(args[i]);
        }
        // Records of 16 longs: about 150 bytes each on the heap.
        int records = mbPerPartition * (1 << 20) / 150;
        SparkConf conf = new SparkConf().setMaster(System.getProperty("master", "local[2]")).setAppName("hybrid-check")
            .set("spark.ui.enabled", "false")
            .set("spark.memory.fraction", System.getProperty("memoryFraction", "0.6"))
            .set("spark.ui.liveUpdate.period", "0");   // the status store written at every event, not every 100 ms
        long expected = expectedSum(partitions, records);
        try (JavaSparkContext sc = new JavaSparkContext(conf)) {
            int rddCount = expect.contains("two-rdds") ? 2 : 1;
            List<JavaRDD<long[]>> rdds = new ArrayList<>();
            List<JavaRDD<?>> cached = new ArrayList<>();
            for (int k = 0; k < rddCount; k++) {
                List<Integer> ids = new ArrayList<>();
                for (int p = k; p < partitions; p += rddCount) {
                    ids.add(p);
                }
                JavaRDD<long[]> data = sc.parallelize(ids, ids.size()).flatMap(p -> records(p, records).iterator());
                if (expect.contains("unserializable")) {
                    // Cached as objects Spark's (Java) serializer cannot write.
                    JavaRDD<Holder> held = data.map(Holder::new).persist(level);
                    cached.add(held);
                    rdds.add(held.map(h -> h.values));
                } else {
                    rdds.add(data.persist(level));
                    cached.add(rdds.get(rdds.size() - 1));
                }
            }
            for (int round = 0; round < 3; round++) {
                long sum = 0;
                for (JavaRDD<long[]> data : rdds) {
                    sum += data.map(HybridCheck::digest).fold(0L, Long::sum);
                }
                check(sum == expected, "round " + round + " at " + args[0] + ": sum " + sum + " equals " + expected);
            }
            Map<String, Long> f = HybridStore.figures();
            System.out.println("figures while cached: " + f);
            if (expect.contains("untiered")) {
                check(f.isEmpty() || f.get("blocks") == 0, "no block tiered: " + f);
            }
            if (expect.contains("both-tiers")) {
                check(f.get("peak_dram_bytes") > 0 && f.get("peak_nvm_bytes") > 0,
                      "blocks were in both tiers (peak DRAM " + f.get("peak_dram_bytes") + ", NVM " + f.get("peak_nvm_bytes") + ")");
                check(f.get("peak_dram_bytes") <= f.get("dram_share_bytes"),
                      "DRAM held no more than its share at any time (at most " + f.get("peak_dram_bytes") + " of "
                      + f.get("dram_share_bytes") + ")");
            }
            long migrations = f.isEmpty() ? 0 : f.get("sync_blocks") + f.get("async_blocks");
            if (expect.contains("async")) {
                check(migrations > 0 && f.get("async_blocks") * 10 >= migrations * 9,
                      "at least 90% of " + migrations + " migrations asynchronous (" + f.get("async_blocks") + ")");
            }
            if (expect.contains("sync")) {
                check(f.get("sync_blocks") > 0 && f.get("async_blocks") == 0,
                      "migrations made, all synchronous: " + f.get("sync_blocks") + " and " + f.get("async_blocks"));
            }
            if (expect.contains("oe")) {
                check(f.get("oe_written_ahead_blocks") > 0, "blocks written to disk ahead: " + f.get("oe_written_ahead_blocks"));
                check(f.get("oe_skipped_writes") > 0, "evictions that found their block on disk already: " + f.get("oe_skipped_writes"));
                check(f.get("oe_double_writes") == 0, "no block written twice: " + f.get("oe_double_writes"));
            }
            if (expect.contains("file")) {
                check(f.get("file_moved_blocks") > 0 && f.get("file_reads") > 0,
                      "blocks moved into the file (" + f.get("file_moved_blocks") + ") and read back from it ("
                      + f.get("file_reads") + ")");
                check(f.get("file_used_bytes") > 0 && f.get("file_used_bytes") <= f.get("file_capacity_bytes"),
                      "the file holds blocks, within its capacity: " + f.get("file_used_bytes") + " of "
                      + f.get("file_capacity_bytes"));
            }
            if (expect.contains("metrics")) {
                checkMetrics(f);
            }
            if (expect.contains("ui")) {
                checkStatusStore(sc, quiet(), cached.get(0).id(), partitions);
            }
            if (expect.contains("execution")) {
                checkExecutionEvicts(sc, rdds.get(0), cached.get(0).id(), partitions, expected);
            }
            if (expect.contains("cluster")) {
                checkCluster(sc, false);
            }
            if (expect.contains("file-full")) {
                check(f.get("file_full") > 0, "blocks found the file full: " + f.get("file_full"));
            }
            if (expect.contains("unserializable")) {
                check(f.get("file_moved_blocks") == 0 && f.get("file_blocks") == 0,
                      "no block of values the serializer cannot write went to the file: " + f.get("file_moved_blocks"));
            }
            for (JavaRDD<?> data : cached) {
                data.unpersist(true);
            }
            check(rddBlocksOnDisk(sc) == 0, "unpersist leaves no RDD block on disk: " + rddBlocksOnDisk(sc));
            f = HybridStore.figures();
            if (expect.contains("file")) {
                long segments = (f.get("file_capacity_bytes") + (1L << 30) - 1) >> 30;
                check(f.get("file_blocks") == 0 && f.get("file_used_bytes") == 0 && f.get("file_free_runs") == segments,
                      "unpersist empties the file, each segment one free run again: " + f);
            }
            if (expect.contains("ui")) {
                sc.sc().listenerBus().waitUntilEmpty(10_000);
                MemoryMetrics m = memoryMetrics(sc);
                check(m.usedOffHeapStorageMemory() == 0, "after unpersist Spark's status store shows no off-heap"
                      + " (file) storage memory used: " + m.usedOffHeapStorageMemory());
                check(m.usedOnHeapStorageMemory() < (1 << 20), "and under 1 MB on the heap (broadcast pieces): "
                      + m.usedOnHeapStorageMemory());
            }
            if (expect.contains("cluster")) {
                checkCluster(sc, true);
            }
            if (!f.isEmpty()) {
                check(f.get("dram_bytes") == 0 && f.get("nvm_bytes") == 0 && f.get("blocks") == 0
                      && f.get("dram_unroll_bytes") == 0 && f.get("nvm_unroll_bytes") == 0
                      && f.get("in_flight_bytes") == 0,
                      "unpersist empties both tiers: " + f);
            }
        }
        System.exit(failed ? 1 : 0);
    }

    /**
     * A sort whose buffers take execution memory: Spark evicts storage blocks for it (down to
     * half the pool). With the file tier those blocks move into the file instead of being dropped
     * or written to disk: all of the RDD's blocks stay cached, none on disk, and a read after the
     * sort still gives the sum.
     */
    private static void checkExecutionEvicts(JavaSparkContext sc, JavaRDD<long[]> data, int rddId, int partitions,
                                             long expected) {
        long movedBefore = HybridStore.figures().get("file_moved_blocks");
        long pairs = 3_000_000L;
        long sorted = sc.parallelize(Arrays.asList(0, 1), 2)
            .flatMapToPair(p -> new Iterator<Tuple2<Long, Long>>() {
                private final SplittableRandom random = new SplittableRandom(p);
                private long made;

                @Override
                public boolean hasNext() {
                    return made < pairs / 2;
                }

                @Override
                public Tuple2<Long, Long> next() {
                    return new Tuple2<>(random.nextLong(), made++);
                }
            })
            .sortByKey(true, 2).count();
        check(sorted == pairs, "the sort saw its " + pairs + " records: " + sorted);
        long moved = HybridStore.figures().get("file_moved_blocks") - movedBefore;
        int cachedBlocks = 0;
        int onDisk = 0;
        for (int split = 0; split < partitions; split++) {
            RDDBlockId block = new RDDBlockId(rddId, split);
            cachedBlocks += SparkEnv.get().blockManager().memoryStore().contains(block) ? 1 : 0;
            onDisk += SparkEnv.get().blockManager().diskStore().contains(block) ? 1 : 0;
        }
        check(moved > 0, "blocks moved into the file while the sort took execution memory: " + moved);
        check(cachedBlocks == partitions && onDisk == 0, "after the sort every block is cached in DRAM or the file ("
              + cachedBlocks + " of " + partitions + "), none on disk (" + onDisk + ")");
        long sum = data.map(HybridCheck::digest).fold(0L, Long::sum);
        check(sum == expected, "read after the sort: sum " + sum + " equals " + expected);
    }

    /**
     * A cluster's executors, each with its own file: the figures of each (read by a task on it,
     * once its monitor has stopped moving blocks), and what the driver's status store shows of
     * them. Before unpersist the blocks are in both tiers of every executor, and the file's bytes
     * are the executor's off-heap storage memory; after it, every file is empty, and so is that.
     */
    private static void checkCluster(JavaSparkContext sc, boolean unpersisted) throws Exception {
        Map<String, Map<String, Long>> executors = executorFigures(sc, 2);
        check(executors.size() == 2, "figures from both executors: " + executors.keySet());
        sc.sc().listenerBus().waitUntilEmpty(10_000);
        Map<String, MemoryMetrics> shown = new TreeMap<>();
        for (ExecutorSummary e : JavaConverters.seqAsJavaList(sc.sc().statusStore().executorList(true))) {
            if (e.memoryMetrics().isDefined()) {
                shown.put(e.id(), e.memoryMetrics().get());
            }
        }
        for (Map.Entry<String, Map<String, Long>> e : executors.entrySet()) {
            Map<String, Long> f = e.getValue();
            MemoryMetrics m = shown.get(e.getKey());
            String who = "executor " + e.getKey() + ": ";
            if (m == null) {
                check(false, who + "in Spark's status store");
                continue;
            }
            check(m.totalOffHeapStorageMemory() == f.get("file_capacity_bytes") && f.get("file_capacity_bytes") > 0,
                  who + "its off-heap storage memory is its file: " + m.totalOffHeapStorageMemory() + " of "
                  + f.get("file_capacity_bytes"));
            check(m.usedOffHeapStorageMemory() == f.get("file_block_bytes"), who + "off-heap storage memory used is"
                  + " the bytes of its file's blocks: " + m.usedOffHeapStorageMemory() + " of " + f.get("file_block_bytes"));
            if (unpersisted) {
                check(f.get("file_blocks") == 0 && f.get("blocks") == 0 && m.usedOnHeapStorageMemory() < (1 << 20),
                      who + "unpersist empties its file and its DRAM: " + f);
            } else {
                check(f.get("file_moved_blocks") > 0 && f.get("file_reads") > 0 && f.get("file_blocks") > 0
                      && f.get("dram_bytes") > 0 && m.usedOnHeapStorageMemory() > 0,
                      who + "blocks moved into its file and read back, blocks in both tiers: " + f);
            }
        }
    }

    /** Each executor's figures, read by tasks on it once they stop changing (at most 10 s); by executor id. */
    private static Map<String, Map<String, Long>> executorFigures(JavaSparkContext sc, int executors)
            throws InterruptedException {
        Map<String, Map<String, Long>> last = new TreeMap<>();
        for (int attempt = 0; attempt < 50; attempt++) {
            Map<String, Map<String, Long>> now = new TreeMap<>();
            List<Integer> tasks = new ArrayList<>();
            for (int i = 0; i < 8 * executors; i++) {
                tasks.add(i);
            }
            for (Tuple2<String, Map<String, Long>> t : sc.parallelize(tasks, tasks.size())
                    .map(i -> new Tuple2<String, Map<String, Long>>(SparkEnv.get().executorId(),
                                                                    new java.util.HashMap<>(HybridStore.figures())))
                    .collect()) {
                now.put(t._1(), t._2());
            }
            boolean quiet = now.size() == executors;
            for (Map.Entry<String, Map<String, Long>> e : now.entrySet()) {
                Map<String, Long> before = last.get(e.getKey());
                quiet &= before != null && e.getValue().get("in_flight_bytes") == 0
                         && e.getValue().get("file_block_bytes").equals(before.get("file_block_bytes"));
            }
            if (quiet) {
                return now;
            }
            last = now;
            Thread.sleep(200);
        }
        return last;
    }

    /** The plugin's gauges, as Spark's metrics system holds them, read what the agent's figures say. */
    @SuppressWarnings("rawtypes")
    private static void checkMetrics(Map<String, Long> figures) {
        String name = "plugin." + HybridMetricsPlugin.class.getName();
        scala.collection.Seq<Source> sources = SparkEnv.get().metricsSystem().getSourcesByName(name);
        check(sources.size() == 1, "the metrics source " + name + " is registered (" + sources.size() + ")");
        if (sources.size() != 1) {
            return;
        }
        SortedMap<String, Gauge> gauges = sources.apply(0).metricRegistry().getGauges();
        check(gauges.keySet().containsAll(HybridMetricsPlugin.GAUGES), "every gauge is there: " + gauges.keySet());
        long file = (Long) gauges.get("file_used_bytes").getValue();
        long nvm = (Long) gauges.get("nvm_bytes").getValue();
        long dram = (Long) gauges.get("dram_bytes").getValue();
        // The monitor may still move blocks from DRAM to the file: the gauges, read between two
        // readings of the figures, lie between them.
        Map<String, Long> after = HybridStore.figures();
        check(between(file, figures, after, "file_used_bytes") && between(nvm, figures, after, "nvm_bytes")
              && between(dram, figures, after, "dram_bytes") && file > 0 && nvm > 0 && dram > 0,
              "the gauges read the tiers (DRAM " + dram + ", NVM " + nvm + ", file " + file + ")");
    }

    /** The figures once the monitor has stopped moving blocks (at most 10 s). */
    private static Map<String, Long> quiet() throws InterruptedException {
        Map<String, Long> before = HybridStore.figures();
        for (int i = 0; i < 50; i++) {
            Thread.sleep(200);
            Map<String, Long> now = HybridStore.figures();
            if (now.get("file_block_bytes").equals(before.get("file_block_bytes")) && now.get("in_flight_bytes") == 0) {
                return now;
            }
            before = now;
        }
        return before;
    }

    /**
     * What Spark's UI shows of the tiers (its status store, which the UI's pages and the REST API
     * read): the file as off-heap storage memory, holding the bytes of the blocks in it; DRAM's
     * blocks on the heap; the RDD's data distribution split the same way.
     */
    private static void checkStatusStore(JavaSparkContext sc, Map<String, Long> f, int rddId, int partitions)
            throws Exception {
        sc.sc().listenerBus().waitUntilEmpty(10_000);
        MemoryMetrics m = memoryMetrics(sc);
        long inFile = 0;   // blocks also on disk keep Spark's own status
        for (int split = 0; split < partitions; split++) {
            RDDBlockId block = new RDDBlockId(rddId, split);
            long bytes = FileTier.fileBytesOf(block);
            inFile += bytes > 0 && !SparkEnv.get().blockManager().diskStore().contains(block) ? bytes : 0;
        }
        check(m.totalOffHeapStorageMemory() == f.get("file_capacity_bytes"),
              "the executor's off-heap storage memory is the file: " + m.totalOffHeapStorageMemory() + " of "
              + f.get("file_capacity_bytes"));
        check(inFile > 0 && m.usedOffHeapStorageMemory() == inFile,
              "off-heap storage memory used is the bytes of the blocks in the file: " + m.usedOffHeapStorageMemory()
              + " of " + inFile);
        check(m.usedOnHeapStorageMemory() > 0, "blocks in DRAM are on-heap storage memory: " + m.usedOnHeapStorageMemory());
        long offHeap = 0;
        long onHeap = 0;
        for (RDDStorageInfo rdd : JavaConverters.seqAsJavaList(sc.sc().statusStore().rddList(true))) {
            if (rdd.dataDistribution().isDefined()) {
                for (RDDDataDistribution d : JavaConverters.seqAsJavaList(rdd.dataDistribution().get())) {
                    offHeap += d.offHeapMemoryUsed().isDefined() ? (Long) d.offHeapMemoryUsed().get() : 0;
                    onHeap += d.onHeapMemoryUsed().isDefined() ? (Long) d.onHeapMemoryUsed().get() : 0;
                }
            }
        }
        check(offHeap == inFile && onHeap > 0, "the RDD's data distribution: " + offHeap + " bytes off the heap (the file),"
              + " " + onHeap + " on it");
        // One block in the file removed by itself (Spark reports the removal): off the heap it goes.
        for (int split = 0; split < partitions; split++) {
            RDDBlockId block = new RDDBlockId(rddId, split);
            long bytes = FileTier.fileBytesOf(block);
            if (bytes > 0 && !SparkEnv.get().blockManager().diskStore().contains(block)) {
                SparkEnv.get().blockManager().removeBlock(block, true);
                sc.sc().listenerBus().waitUntilEmpty(10_000);
                long after = memoryMetrics(sc).usedOffHeapStorageMemory();
                check(after == inFile - bytes, "a block removed from the file (" + bytes + " bytes) leaves " + after
                      + " off the heap, " + (inFile - bytes) + " expected");
                return;
            }
        }
        check(false, "a block in the file to remove");
    }

    private static MemoryMetrics memoryMetrics(JavaSparkContext sc) {
        for (ExecutorSummary e : JavaConverters.seqAsJavaList(sc.sc().statusStore().executorList(true))) {
            if (e.memoryMetrics().isDefined()) {
                return e.memoryMetrics().get();
            }
        }
        throw new IllegalStateException("no executor with memory metrics in Spark's status store");
    }

    private static boolean between(long value, Map<String, Long> before, Map<String, Long> after, String key) {
        return value >= Math.min(before.get(key), after.get(key)) && value <= Math.max(before.get(key), after.get(key));
    }

    private static long rddBlocksOnDisk(JavaSparkContext sc) {
        long n = 0;
        for (BlockId id : JavaConverters.seqAsJavaList(SparkEnv.get().blockManager().diskBlockManager().getAllBlocks())) {
            n += id.isRDD() ? 1 : 0;
        }
        return n;
    }

    /** A record Spark's Java serializer cannot write. */
    private static final class Holder {
        final long[] values;

        Holder(long[] values) {
            this.values = values;
        }
    }

    private static List<long[]> records(int partition, int count) {
        SplittableRandom random = new SplittableRandom(1234567L * (partition + 1));
        List<long[]> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long[] r = new long[LONGS_PER_RECORD];
            for (int j = 0; j < r.length; j++) {
                r[j] = random.nextLong();
            }
            out.add(r);
        }
        return out;
    }

    private static long digest(long[] r) {
        long h = 0;
        for (long v : r) {
            h = h * 31 + v;
        }
        return h;
    }

    private static long expectedSum(int partitions, int records) {
        long sum = 0;
        for (int p = 0; p < partitions; p++) {
            for (long[] r : records(p, records)) {
                sum += digest(r);
            }
        }
        return sum;
    }

    /** Prints "PASS what" or "FAIL what"; a failure makes the check's exit status 1. */
    static void check(boolean ok, String what) {
        System.out.println((ok ? "PASS " : "FAIL ") + what);
        failed |= !ok;
    }

    static boolean failed() {
        return failed;
    }
}
