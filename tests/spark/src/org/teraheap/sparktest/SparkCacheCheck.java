package org.teraheap.sparktest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.RDDInfo;
import org.apache.spark.storage.StorageLevel;
import org.teraheap.H2Stats;
import org.teraheap.TeraHeap;

/**
 * Checks what Spark does with a cached RDD under teraheap-spark.jar. The driver is started with
 * {@code -javaagent:teraheap-spark.jar} (and executors too, for {@code cluster}).
 *
 * <pre>
 *   SparkCacheCheck h2 LEVEL      TeraHeap on: every partition cached in memory, none on disk,
 *                                 all of it moved to H2; unpersist frees H2's regions
 *   SparkCacheCheck spill LEVEL   TeraHeap off or a stock JVM: the same RDD does not fit
 *                                 H1's storage pool, so Spark spills (or drops) part of it
 *   SparkCacheCheck budget LEVEL  TeraHeap on, H2 budget smaller than the RDD: part in H2,
 *                                 the rest on Spark's usual path
 *   SparkCacheCheck cluster MASTER  a standalone cluster, two executors, each its own H2
 * </pre>
 * Every scenario also checks the RDD's contents, twice: once computed, once from the cache.
 * Exits 1 with a line starting "FAIL" when a check fails.
 */
public final class SparkCacheCheck {
    private static final int PARTITIONS = 8;

    public static void main(String[] args) throws Exception {
        String scenario = args[0];
        int perPartition = Integer.getInteger("elements", 600_000);
        SparkConf conf = new SparkConf().setAppName("teraheap-check-" + scenario)
            .set("spark.ui.enabled", "false");
        StorageLevel level = StorageLevel.MEMORY_AND_DISK();
        if (scenario.equals("cluster")) {
            conf.setMaster(args[1]);
        } else {
            conf.setMaster("local[2]");
            level = StorageLevel.fromString(args[1]);
        }
        try (JavaSparkContext sc = new JavaSparkContext(conf)) {
            sc.setLogLevel("WARN");
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
            check(sum(rdd) == expected, "first pass sum " + sum(rdd) + ", expected " + expected);
            gcEverywhere(sc);
            check(sum(rdd) == expected, "cached pass sum differs from " + expected);
            RDDInfo info = sc.sc().getRDDStorageInfo()[0];
            long memSize = info.memSize();
            String where = info.numCachedPartitions() + " of " + PARTITIONS + " partitions cached, "
                + (memSize >> 20) + " MB in memory, " + (info.diskSize() >> 20) + " MB on disk";
            System.out.println(scenario + ": " + where + "; driver H2: " + TeraHeap.stats());
            switch (scenario) {
                case "h2": {
                    check(TeraHeap.isEnabled(), "run with -XX:+EnableTeraHeap");
                    check(info.numCachedPartitions() == PARTITIONS && info.diskSize() == 0, where);
                    H2Stats stats = TeraHeap.stats();
                    check(stats.bytesMoved() >= memSize * 9 / 10,
                        "only " + stats.bytesMoved() + " bytes moved to H2 for " + memSize + " cached");
                    rdd.unpersist(true);
                    System.gc();
                    stats = TeraHeap.stats();
                    check(stats.regionsInUse() == 0 && stats.regionsFreed() > 0,
                        "after unpersist H2 still holds " + stats);
                    break;
                }
                case "spill":
                    check(!TeraHeap.isEnabled(), "run with TeraHeap off");
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
                    break;
                }
                default:
                    check(false, "unknown scenario " + scenario);
            }
        }
        System.out.println("PASS " + scenario);
    }

    private static long sum(JavaRDD<long[]> rdd) {
        return rdd.map(v -> v[2]).reduce(Long::sum);
    }

    /** A full GC on the driver and on every executor: cached blocks advised to move move now. */
    private static void gcEverywhere(JavaSparkContext sc) {
        sc.parallelize(Arrays.asList(0, 1, 2, 3, 4, 5, 6, 7), PARTITIONS).foreach(i -> System.gc());
        System.gc();
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            System.out.println("FAIL " + what);
            System.exit(1);
        }
    }
}
