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
import org.teraheap.spark.H2StorageBudget;

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
 *   SparkCacheCheck handback LEVEL  TeraHeap on, H2 filled at the first full GC by a group of
 *                                 the program's own, tagged before the RDD: its blocks, taken
 *                                 into H2's budget, stay in H1 and are counted in H1's storage
 *                                 pool again; once the group is dropped they move and are
 *                                 counted in H2 again
 *   SparkCacheCheck cluster MASTER  a standalone cluster, two executors, each its own H2
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
        } else {
            conf.setMaster("local[2]");
            level = StorageLevel.fromString(args[1]);
        }
        // Tagged before the RDD's blocks, so that a full GC moves it first; advised to move only
        // once they are cached (taken into H2's budget, waiting for their move): it fills H2
        // (TeraHeapSize must be smaller) before they can move.
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
