package org.teraheap.sparktest;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.RDDInfo;
import org.apache.spark.storage.StorageLevel;
import org.teraheap.H2Stats;
import org.teraheap.TeraHeap;
import org.teraheap.spark.H2StorageBudget;
import org.teraheap.spark.TeraHeapMetricsPlugin;

/**
 * Checks what Spark does with a cached RDD under teraheap-spark.jar. The driver is started with
 * {@code -javaagent:teraheap-spark.jar} (and executors too, for {@code cluster}).
 *
 * <pre>
 *   SparkCacheCheck h2 LEVEL      TeraHeap on: every partition cached in memory, none on disk,
 *                                 all of it moved to H2; unpersist frees H2's regions
 *   SparkCacheCheck spill LEVEL   TeraHeap off or a stock JVM: the same RDD does not fit
 *                                 H1's storage pool, so Spark spills (or drops) part of it
 *   SparkCacheCheck nomove LEVEL  TeraHeap on, a heap that holds the whole job and no full GC:
 *                                 blocks taken into H2's budget, none moved (the agent says
 *                                 so at exit)
 *   SparkCacheCheck untouched LEVEL  TeraHeap on, the agent refusing this Spark: as spill,
 *                                 and nothing of Spark's moved to H2
 *   SparkCacheCheck budget LEVEL  TeraHeap on, H2 budget smaller than the RDD: part in H2,
 *                                 the rest on Spark's usual path
 *   SparkCacheCheck handback LEVEL  TeraHeap on, H2 filled at the first full GC by a group of
 *                                 the program's own, tagged before the RDD: its blocks, taken
 *                                 into H2's budget, stay in H1 and are counted in H1's storage
 *                                 pool again; once the group is dropped they move and are
 *                                 counted in H2 again
 *   SparkCacheCheck cluster MASTER [LEVEL]  a standalone cluster, two executors, each its own
 *                                 H2; with a replicated level (_2), every block on both
 *                                 executors, and both copies in their executor's H2
 *   SparkCacheCheck loader LEVEL  as h2, after a second copy of Spark's MemoryStore was loaded
 *                                 by another class loader: the agent refuses that one, in one
 *                                 line, and still serves the Spark on the class path
 *   SparkCacheCheck reenter LEVEL  an H2 budget that one RDD fills: a second RDD stays in H1,
 *                                 and a third evicts part of it to disk; once the first is
 *                                 unpersisted, reading the second back from disk puts its
 *                                 blocks into memory again, and into H2
 *   SparkCacheCheck dataframe LEVEL  a cached DataFrame (Spark SQL's in-memory columnar cache):
 *                                 its batches go to H2, and unpersist frees their regions
 *   SparkCacheCheck evicted LEVEL  the agent adopting at eviction, an RDD larger than H1's
 *                                 storage pool: every partition cached in memory, none on disk;
 *                                 the blocks Spark would have evicted moved to H2, those the
 *                                 pool held stayed in H1
 *   SparkCacheCheck kept LEVEL    the agent adopting at eviction, an RDD that H1's storage pool
 *                                 holds: every partition cached, and nothing moved to H2 though
 *                                 full GCs ran
 * </pre>
 * Every scenario also checks the RDD's contents, twice: once computed, once from the cache.
 * Exits 1 with a line starting "FAIL" when a check fails.
 */
public final class SparkCacheCheck {
    private static final int PARTITIONS = 8;
    private static final long FILLER_LABEL = 1L << 40;

    public static void main(String[] args) throws Exception {
        String scenario = args[0];
        int perPartition = Integer.getInteger("elements", 600_000);
        SparkConf conf = new SparkConf().setAppName("teraheap-check-" + scenario)
            .set("spark.ui.enabled", "false");
        StorageLevel level = StorageLevel.MEMORY_AND_DISK();
        if (scenario.equals("cluster")) {
            conf.setMaster(args[1]);
            if (args.length > 2) {
                level = StorageLevel.fromString(args[2]);
            }
        } else {
            conf.setMaster("local[2]");
            level = StorageLevel.fromString(args[1]);
        }
        // Tagged before the RDD's blocks, so that a full GC moves it first; advised to move only
        // once they are cached (taken into H2's budget, waiting for their move): it fills H2
        // (TeraHeapSize must be smaller) before they can move.
        if (scenario.equals("dataframe")) {
            dataframe(conf, level);
            System.out.println("PASS " + scenario);
            return;
        }
        if (scenario.equals("reenter")) {
            reenter(conf, level, perPartition);
            System.out.println("PASS " + scenario);
            return;
        }
        if (scenario.equals("loader")) {
            String refusal = loadSparkElsewhere();
            check(refusal.contains("left alone"), "no refusal of a Spark in another class loader: '" + refusal + "'");
            System.out.println("loader: the agent said: " + refusal.trim());
        }
        Object[] filler = null;
        if (scenario.equals("handback")) {
            filler = new Object[1100];
            for (int i = 0; i < filler.length; i++) {
                filler[i] = new long[25_000];
            }
            TeraHeap.tagRoot(filler, FILLER_LABEL);
        }
        try (JavaSparkContext sc = new JavaSparkContext(conf)) {
            sc.setLogLevel("WARN");
            if (filler != null) {
                // Spark's start loads thousands of classes: take its full GCs (Metaspace) now.
                sc.parallelize(Arrays.asList(1, 2, 3), 3).map(i -> i * 2).collect();
                System.gc();
            }
            JavaRDD<long[]> rdd = sc.parallelize(Arrays.asList(0, 1, 2, 3, 4, 5, 6, 7), PARTITIONS)
                .flatMap(p -> {
                    List<long[]> values = new ArrayList<>(perPartition);
                    for (int i = 0; i < perPartition; i++) {
                        values.add(new long[] {p, i, p * 1_000_003L + i});
                    }
                    return values.iterator();
                });
            rdd.persist(level);
            long n = perPartition;
            long expected = PARTITIONS * n * (n - 1) / 2 + 1_000_003L * n * (PARTITIONS * (PARTITIONS - 1) / 2);
            long first = sum(rdd);
            check(first == expected, "first pass sum " + first + ", expected " + expected);
            if (filler != null) {
                TeraHeap.move(FILLER_LABEL);
            }
            if (!scenario.equals("nomove")) {
                gcEverywhere(sc);
            }
            check(sum(rdd) == expected, "cached pass sum differs from " + expected);
            RDDInfo info = sc.sc().getRDDStorageInfo()[0];
            long memSize = info.memSize();
            String where = info.numCachedPartitions() + " of " + PARTITIONS + " partitions cached, "
                + (memSize >> 20) + " MB in memory, " + (info.diskSize() >> 20) + " MB on disk";
            System.out.println(scenario + ": " + where + "; driver H2: " + TeraHeap.stats());
            switch (scenario) {
                case "h2":
                case "loader": {
                    check(TeraHeap.isEnabled(), "run with -XX:+EnableTeraHeap");
                    check(info.numCachedPartitions() == PARTITIONS && info.diskSize() == 0, where);
                    H2Stats stats = TeraHeap.stats();
                    check(stats.bytesMoved() >= memSize * 9 / 10,
                        "only " + stats.bytesMoved() + " bytes moved to H2 for " + memSize + " cached");
                    if (conf.contains("spark.plugins")) {
                        checkMetrics(stats);
                    }
                    checkStorageMemory(sc, memSize);
                    rdd.unpersist(true);
                    System.gc();
                    stats = TeraHeap.stats();
                    check(stats.regionsInUse() == 0 && stats.regionsFreed() > 0,
                        "after unpersist H2 still holds " + stats);
                    break;
                }
                case "evicted": {
                    check(TeraHeap.isEnabled(), "run with -XX:+EnableTeraHeap");
                    check(info.numCachedPartitions() == PARTITIONS && info.diskSize() == 0, where);
                    long moved = TeraHeap.stats().bytesMoved();
                    long inH1 = h1StorageUsed(sc);
                    System.out.println("moved to H2: " + (moved >> 20) + " MB; H1's storage pool: "
                        + (inH1 >> 20) + " MB");
                    check(moved > 0, "nothing moved to H2 although the RDD overflows H1's pool");
                    check(inH1 > 0 && moved < memSize, "blocks H1's pool held moved too: " + (moved >> 20)
                        + " MB moved of " + (memSize >> 20) + " MB cached");
                    checkStorageMemory(sc, memSize);
                    break;
                }
                case "kept":
                    check(TeraHeap.isEnabled(), "run with -XX:+EnableTeraHeap");
                    check(info.numCachedPartitions() == PARTITIONS && info.diskSize() == 0, where);
                    check(TeraHeap.stats().bytesMoved() == 0 && H2StorageBudget.get().usedBytes() == 0,
                        "blocks went to H2 though H1's storage pool held them: " + TeraHeap.stats());
                    break;
                case "spill":
                    check(!TeraHeap.isEnabled(), "run with TeraHeap off");
                    check(info.numCachedPartitions() < PARTITIONS || info.diskSize() > 0,
                        "expected H1's storage pool to overflow: " + where);
                    break;
                case "nomove": {
                    check(TeraHeap.isEnabled(), "run with TeraHeap on");
                    check(TeraHeap.stats().bytesMoved() == 0, "a full GC ran: give a heap that holds the job");
                    H2StorageBudget budget = H2StorageBudget.get();
                    check(budget != null && budget.usedBytes() > 0, "no block was taken into H2's budget");
                    break;
                }
                case "untouched":
                    check(TeraHeap.isEnabled(), "run with TeraHeap on");
                    check(H2StorageBudget.get() == null, "the agent is active");
                    check(TeraHeap.stats().bytesMoved() == 0, "blocks moved to H2");
                    check(info.numCachedPartitions() < PARTITIONS || info.diskSize() > 0,
                        "expected H1's storage pool to overflow: " + where);
                    break;
                case "budget": {
                    H2Stats stats = TeraHeap.stats();
                    check(stats.bytesMoved() > 0, "nothing moved to H2");
                    check(stats.bytesMoved() < memSize || info.diskSize() > 0
                        || info.numCachedPartitions() < PARTITIONS, "the budget did not bind: " + where);
                    break;
                }
                case "handback": {
                    H2StorageBudget budget = H2StorageBudget.get();
                    check(budget != null, "the agent is not active");
                    awaitReconciled(budget);
                    long back = budget.handedBackBytes();
                    System.out.println("handed back to H1: " + (back >> 20) + " MB; H2 budget used: "
                        + (budget.usedBytes() >> 20) + " MB; H1 storage used: " + (h1StorageUsed(sc) >> 20) + " MB");
                    check(TeraHeap.isInH2(filler), "the program's group did not move");
                    check(back > 0, "no block was handed back to H1 although H2 was full");
                    check(budget.pendingBytes() == 0, "blocks still wait for a move after a full GC");
                    check(h1StorageUsed(sc) >= back, "H1's storage pool does not count the "
                        + (back >> 20) + " MB handed back: " + (h1StorageUsed(sc) >> 20) + " MB");
                    check(info.numCachedPartitions() == PARTITIONS && info.diskSize() == 0, where);
                    long h1Before = h1StorageUsed(sc);
                    filler = null;
                    System.gc();   // frees the group's regions; the blocks move on their kept hint
                    awaitReconciled(budget);
                    System.out.println("after the group is dropped: handed back " + (budget.handedBackBytes() >> 20)
                        + " MB; H2 budget used: " + (budget.usedBytes() >> 20) + " MB; H1 storage used: "
                        + (h1StorageUsed(sc) >> 20) + " MB");
                    check(budget.handedBackBytes() == 0, "blocks moved to H2 are still counted in H1");
                    check(h1StorageUsed(sc) <= h1Before - back, "H1's storage pool still counts moved blocks");
                    check(budget.usedBytes() >= back, "H2's budget does not count the moved blocks");
                    check(sum(rdd) == expected, "sum from H2 differs from " + expected);
                    break;
                }
                case "cluster": {
                    List<String> executors = sc.parallelize(Arrays.asList(0, 1, 2, 3, 4, 5, 6, 7), PARTITIONS)
                        .map(i -> SparkEnv.get().executorId() + " " + TeraHeap.isEnabled() + " "
                            + TeraHeap.stats().bytesMoved())
                        .distinct().collect();
                    System.out.println("executors: " + executors);
                    long withH2 = executors.stream().filter(e -> e.split(" ")[1].equals("true")
                        && Long.parseLong(e.split(" ")[2]) > 0).map(e -> e.split(" ")[0]).distinct().count();
                    check(withH2 >= 2, "expected two executors with cached data in H2: " + executors);
                    check(info.numCachedPartitions() == PARTITIONS && info.diskSize() == 0, where);
                    if (level.replication() == 2) {
                        checkReplicas(sc, rdd);
                    }
                    checkStorageMemory(sc, memSize);
                    break;
                }
                default:
                    check(false, "unknown scenario " + scenario);
            }
        }
        System.out.println("PASS " + scenario);
    }

    /**
     * Storage memory as the driver counts it for each executor, which the UI's executors page
     * and the REST API show: blocks in H2 included, it must not exceed what the executor
     * registered (H1's storage pool plus H2's budget, with the agent).
     */
    private static void checkStorageMemory(JavaSparkContext sc, long memSize) throws InterruptedException {
        scala.collection.Iterator<scala.Tuple2<String, scala.Tuple2<Object, Object>>> status =
            sc.sc().getExecutorMemoryStatus().iterator();
        while (status.hasNext()) {
            scala.Tuple2<String, scala.Tuple2<Object, Object>> e = status.next();
            long max = (Long) e._2()._1();
            long remaining = (Long) e._2()._2();
            System.out.println("storage memory of " + e._1() + ": " + ((max - remaining) >> 20) + " of "
                + (max >> 20) + " MB used");
            check(remaining >= 0, "block manager " + e._1() + " holds " + ((max - remaining) >> 20)
                + " MB of blocks against " + (max >> 20) + " MB of storage memory");
        }
        // The status store (the UI's figures) follows the listener bus: wait for the blocks.
        long used = 0;
        List<org.apache.spark.status.api.v1.ExecutorSummary> executors = new ArrayList<>();
        for (int i = 0; i < 200 && used < memSize; i++) {
            Thread.sleep(50);
            executors = scala.collection.JavaConverters.seqAsJavaList(sc.sc().statusStore().executorList(true));
            used = executors.stream().mapToLong(org.apache.spark.status.api.v1.ExecutorSummary::memoryUsed).sum();
        }
        check(used >= memSize, "the status store counts " + used + " bytes of blocks, not " + memSize);
        for (org.apache.spark.status.api.v1.ExecutorSummary e : executors) {
            check(e.memoryUsed() <= e.maxMemory(), "executor " + e.id() + "'s storage memory reads "
                + (100 * e.memoryUsed() / Math.max(1, e.maxMemory())) + "% (" + e.memoryUsed() + " of "
                + e.maxMemory() + " bytes)");
        }
    }

    /**
     * A replicated RDD on two executors: the driver knows two copies of every block, both in
     * memory, and each executor holds all of them in H2's budget, moved to its H2.
     */
    private static void checkReplicas(JavaSparkContext sc, JavaRDD<long[]> rdd) throws InterruptedException {
        java.util.Map<String, Long> cachedPerExecutor = new java.util.HashMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            org.apache.spark.storage.RDDBlockId block = new org.apache.spark.storage.RDDBlockId(rdd.id(), p);
            java.util.Map<org.apache.spark.storage.BlockManagerId, org.apache.spark.storage.BlockStatus> copies =
                scala.collection.JavaConverters.mapAsJavaMap(SparkEnv.get().blockManager().master().getBlockStatus(block, true));
            check(copies.size() == 2, block + " has " + copies.size() + " copies, not 2: " + copies);
            for (java.util.Map.Entry<org.apache.spark.storage.BlockManagerId, org.apache.spark.storage.BlockStatus> c
                     : copies.entrySet()) {
                check(c.getValue().memSize() > 0 && c.getValue().diskSize() == 0,
                    "a copy of " + block + " is not in memory: " + c.getValue());
                cachedPerExecutor.merge(c.getKey().executorId(), c.getValue().memSize(), Long::sum);
            }
        }
        check(cachedPerExecutor.size() == 2, "copies on " + cachedPerExecutor.keySet() + ", not two executors");
        int id = rdd.id();
        java.util.Map<String, String> reports = new java.util.TreeMap<>();
        for (int attempt = 0; attempt < 10 && reports.size() < 2; attempt++) {
            List<String> seen = sc.parallelize(Arrays.asList(0, 1, 2, 3, 4, 5, 6, 7), PARTITIONS).map(i -> {
                System.gc();   // moves the blocks this executor took, replicas included
                H2StorageBudget budget = H2StorageBudget.get();
                for (int w = 0; w < 400 && budget != null && budget.reconciledGcs() < budget.fullGcs(); w++) {
                    Thread.sleep(50);
                }
                int held = 0;
                for (int p = 0; p < PARTITIONS; p++) {
                    if (budget != null && budget.holds(new org.apache.spark.storage.RDDBlockId(id, p))) {
                        held++;
                    }
                }
                return SparkEnv.get().executorId() + " " + held + " "
                    + (budget == null ? -1 : budget.pendingBytes()) + " " + TeraHeap.stats().bytesMoved();
            }).collect();
            for (String r : seen) {
                reports.put(r.split(" ")[0], r);
            }
        }
        System.out.println("replicas: cached per executor " + cachedPerExecutor + "; executors (id, blocks in H2's"
            + " budget, bytes waiting for the move, bytes moved): " + reports.values());
        check(reports.keySet().equals(cachedPerExecutor.keySet()),
            "tasks ran on " + reports.keySet() + ", copies are on " + cachedPerExecutor.keySet());
        for (String r : reports.values()) {
            String[] f = r.split(" ");
            long cached = cachedPerExecutor.get(f[0]);
            check(Integer.parseInt(f[1]) == PARTITIONS, "executor " + f[0] + " holds " + f[1] + " of "
                + PARTITIONS + " blocks in H2's budget");
            check(Long.parseLong(f[2]) == 0, "executor " + f[0] + " still waits to move " + f[2] + " bytes");
            check(Long.parseLong(f[3]) >= cached * 9 / 10, "executor " + f[0] + " moved " + f[3]
                + " bytes to H2 for " + cached + " cached");
        }
    }

    /**
     * Defines Spark's MemoryStore a second time, in a class loader of its own over the same jars,
     * and returns what the agent printed meanwhile.
     */
    private static String loadSparkElsewhere() throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            urls.add(new File(entry).toURI().toURL());
        }
        PrintStream err = System.err;
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        try (URLClassLoader other = new URLClassLoader(urls.toArray(new URL[0]),
                                                        ClassLoader.getPlatformClassLoader())) {
            System.setErr(new PrintStream(said, true));
            Class<?> store = Class.forName("org.apache.spark.storage.memory.MemoryStore", false, other);
            check(store.getClassLoader() == other, "the second MemoryStore was not defined by its own loader");
        } finally {
            System.setErr(err);
        }
        return said.toString();
    }

    /** The metrics plugin's gauges, as Spark's metrics system holds them, agree with H2's stats. */
    @SuppressWarnings("unchecked")
    private static void checkMetrics(H2Stats stats) {
        String name = "plugin." + TeraHeapMetricsPlugin.class.getName();
        scala.collection.Seq<org.apache.spark.metrics.source.Source> sources =
            SparkEnv.get().metricsSystem().getSourcesByName(name);
        check(sources.size() == 1, "expected the metrics source " + name + ", found " + sources.size());
        java.util.SortedMap<String, com.codahale.metrics.Gauge> gauges =
            sources.apply(0).metricRegistry().getGauges();
        for (String gauge : TeraHeapMetricsPlugin.GAUGES) {
            check(gauges.containsKey(gauge), "no gauge " + gauge + " in " + gauges.keySet());
        }
        long moved = (Long) gauges.get("h2.bytesMoved").getValue();
        long used = (Long) gauges.get("h2.usedBytes").getValue();
        long cached = (Long) gauges.get("cache.h2Bytes").getValue();
        System.out.println("metrics: h2.bytesMoved " + moved + ", h2.usedBytes " + used + ", cache.h2Bytes " + cached);
        check(moved >= stats.bytesMoved() && used > 0, "H2's gauges do not match its stats " + stats);
        check(cached > 0, "the gauge of cached bytes counted in H2 reads 0");
    }

    /** A DataFrame cached at {@code level}: Spark SQL's columnar batches are RDD blocks too. */
    private static void dataframe(SparkConf conf, StorageLevel level) {
        SparkSession spark = SparkSession.builder().config(conf).getOrCreate();
        try {
            spark.sparkContext().setLogLevel("WARN");
            long n = 3_000_000L;
            Dataset<Row> df = spark.range(n).selectExpr("id", "id * 7 % 1000003 as v",
                "concat('row-', cast(id as string)) as name");
            df.persist(level);
            long expected = 0;
            for (long i = 0; i < n; i++) {
                expected += i * 7 % 1000003;
            }
            long first = df.agg(org.apache.spark.sql.functions.sum("v")).first().getLong(0);
            check(first == expected, "first pass sum " + first + ", expected " + expected);
            System.gc();
            long cached = df.agg(org.apache.spark.sql.functions.sum("v")).first().getLong(0);
            check(cached == expected, "cached pass sum " + cached + ", expected " + expected);
            RDDInfo[] infos = spark.sparkContext().getRDDStorageInfo();
            check(infos.length == 1, "expected one cached RDD, found " + infos.length);
            long memSize = infos[0].memSize();
            H2Stats stats = TeraHeap.stats();
            System.out.println("dataframe: " + infos[0].numCachedPartitions() + " partitions cached, "
                + (memSize >> 20) + " MB in memory, " + (infos[0].diskSize() >> 20) + " MB on disk; H2: " + stats);
            check(memSize > 0 && infos[0].diskSize() == 0, "the DataFrame is not all in memory");
            check(stats.bytesMoved() >= memSize * 9 / 10,
                "only " + stats.bytesMoved() + " bytes moved to H2 for " + memSize + " cached");
            df.unpersist(true);
            System.gc();
            stats = TeraHeap.stats();
            check(stats.regionsInUse() == 0 && stats.regionsFreed() > 0, "after unpersist H2 still holds " + stats);
        } finally {
            spark.stop();
        }
    }

    private static JavaRDD<long[]> numbers(JavaSparkContext sc, int perPartition, long salt) {
        return sc.parallelize(Arrays.asList(0, 1, 2, 3, 4, 5, 6, 7), PARTITIONS).flatMap(p -> {
            List<long[]> values = new ArrayList<>(perPartition);
            for (int i = 0; i < perPartition; i++) {
                values.add(new long[] {p, i, p * 1_000_003L + i + salt});
            }
            return values.iterator();
        });
    }

    /** Which of the RDD's partitions the block manager holds on disk. */
    private static List<Integer> onDisk(JavaRDD<?> rdd) {
        List<Integer> partitions = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            scala.Option<org.apache.spark.storage.BlockStatus> status =
                SparkEnv.get().blockManager().getStatus(new org.apache.spark.storage.RDDBlockId(rdd.id(), p));
            if (status.isDefined() && status.get().diskSize() > 0) {
                partitions.add(p);
            }
        }
        return partitions;
    }

    private static void reenter(SparkConf conf, StorageLevel level, int perPartition) throws Exception {
        try (JavaSparkContext sc = new JavaSparkContext(conf)) {
            sc.setLogLevel("WARN");
            H2StorageBudget budget = H2StorageBudget.get();
            check(budget != null, "the agent is not active");
            JavaRDD<long[]> first = numbers(sc, perPartition, 0).persist(level);
            JavaRDD<long[]> second = numbers(sc, perPartition, 1).persist(level);
            JavaRDD<long[]> third = numbers(sc, perPartition, 2).persist(level);
            long n = perPartition;
            long expected = PARTITIONS * n * (n - 1) / 2 + 1_000_003L * n * (PARTITIONS * (PARTITIONS - 1) / 2)
                + PARTITIONS * n;   // salt 1
            sum(first);
            check(budget.usedBytes() > 0, "the first RDD was not taken into H2's budget");
            long secondSum = sum(second);
            check(secondSum == expected, "second RDD sum " + secondSum + ", expected " + expected);
            for (int p = 0; p < PARTITIONS; p++) {
                check(!budget.holds(new org.apache.spark.storage.RDDBlockId(second.id(), p)),
                    "H2's budget took a block of the second RDD although the first filled it");
            }
            sum(third);   // evicts blocks of the second RDD from H1's pool: to disk
            List<Integer> disk = onDisk(second);
            System.out.println("reenter: partitions of the second RDD on disk: " + disk);
            check(!disk.isEmpty(), "no block of the second RDD went to disk: the check would be vacuous");
            first.unpersist(true);
            System.gc();   // frees the first RDD's regions: H2 has room again
            awaitReconciled(budget);
            long movedBefore = TeraHeap.stats().bytesMoved();
            secondSum = sum(second);   // reads its disk blocks, and caches them in memory again
            check(secondSum == expected, "second RDD sum from disk " + secondSum + ", expected " + expected);
            List<Integer> back = new ArrayList<>();
            for (int p : disk) {
                if (budget.holds(new org.apache.spark.storage.RDDBlockId(second.id(), p))) {
                    back.add(p);
                }
            }
            System.out.println("reenter: read back from disk into H2's budget: " + back);
            check(!back.isEmpty(), "no block read back from disk was taken into H2");
            System.gc();
            awaitReconciled(budget);
            long moved = TeraHeap.stats().bytesMoved() - movedBefore;
            check(moved > 0 && budget.pendingBytes() == 0,
                "blocks read back from disk did not move to H2 (" + moved + " bytes moved)");
            secondSum = sum(second);
            check(secondSum == expected, "second RDD sum from H2 " + secondSum + ", expected " + expected);
        }
    }

    private static long sum(JavaRDD<long[]> rdd) {
        return rdd.map(v -> v[2]).reduce(Long::sum);
    }

    /** A full GC on the driver and on every executor: cached blocks advised to move move now. */
    private static void gcEverywhere(JavaSparkContext sc) {
        sc.parallelize(Arrays.asList(0, 1, 2, 3, 4, 5, 6, 7), PARTITIONS).foreach(i -> System.gc());
        System.gc();
    }

    /** Waits until the agent has looked at every full GC so far (it does so on its own thread). */
    private static void awaitReconciled(H2StorageBudget budget) throws InterruptedException {
        for (int i = 0; i < 400 && budget.reconciledGcs() < budget.fullGcs(); i++) {
            Thread.sleep(50);
        }
        check(budget.reconciledGcs() >= budget.fullGcs(), "the agent did not look at the last full GC");
    }

    /** Storage memory H1's pool counts as used (local mode: the driver is the executor). */
    private static long h1StorageUsed(JavaSparkContext sc) {
        return SparkEnv.get().memoryManager().storageMemoryUsed();
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            System.out.println("FAIL " + what);
            System.exit(1);
        }
    }
}
