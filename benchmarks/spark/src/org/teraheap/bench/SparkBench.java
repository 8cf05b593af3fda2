package org.teraheap.bench;

import java.util.Locale;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;

/**
 * Entry point of the Spark workloads of the TeraHeap benchmark suite.
 *
 * <pre>SparkBench &lt;workload&gt; [--scale S] [--storage LEVEL] [--partitions P] [--iterations N]
 *     [--gc-each-job]</pre>
 *
 * Every Spark setting (master, serializer, memory fractions, ...) comes from {@code spark.*}
 * Java system properties, which {@link SparkConf} reads; only the master has a default
 * (local[2]). The single {@code RESULT} line on stdout is the machine-readable outcome; all
 * logging goes to stderr. With TeraHeap on, it also gives H2's space against the cached data
 * ({@link H2Space}); {@code --gc-each-job} runs a full collection after every job, for tests
 * (never for timings), so that H2's space is compared with the cache that often.
 */
public final class SparkBench {

    /** Partitions are sized to hold about this many bytes of cached data each. */
    private static final long BYTES_PER_PARTITION = 24L << 20;
    private static final int MIN_PARTITIONS = 4;

    private SparkBench() {
    }

    /** Resolved command line; what a workload needs to know. */
    record Params(Workload workload, double scale, StorageLevel level, String levelName,
                  int partitions, int iterations, boolean iterationsGiven, boolean gcEachJob) {
    }

    /** What a workload hands back: its checksum and how to compare it. */
    record Outcome(String checksum, String tolerance, int iterations) {
        static Outcome exact(long value, int iterations) {
            // Unsigned: the hash sums use the whole 64-bit range.
            return new Outcome(Long.toUnsignedString(value), "0", iterations);
        }

        static Outcome approx(double value, String tolerance, int iterations) {
            return new Outcome(Double.toString(value), tolerance, iterations);
        }
    }

    /** A bad command line: reported as one line, without a stack trace. */
    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }

    public static void main(String[] args) {
        Params params;
        try {
            params = parse(args);
        } catch (UsageException e) {
            System.err.println("SparkBench: " + e.getMessage());
            System.exit(2);
            return;
        }

        SparkConf conf = new SparkConf().setAppName("teraheap-bench-" + params.workload().id());
        if (!conf.contains("spark.master")) {
            conf.setMaster("local[2]");
        }

        int status = 0;
        JavaSparkContext jsc = new JavaSparkContext(conf);
        try {
            jsc.setLogLevel("WARN");
            // The clock and the footprint sampler cover the workload only, not context start/stop.
            Footprint footprint = new Footprint(jsc.sc());
            H2Space space = H2Space.start(jsc, params.gcEachJob());
            long start = System.nanoTime();
            Outcome out = params.workload().run(jsc, params);
            long end = System.nanoTime();
            long cached = footprint.stop();
            H2Space.Report h2 = space == null ? null : space.finish();
            String h2Fields = h2 == null ? "" : String.format(Locale.ROOT,
                    " h2_peak_bytes=%d h2_cached_at_peak_bytes=%d h2_worst_excess_bytes=%d h2_samples=%d"
                            + " h2_dropped_bytes=%d h2_report_uptime_ms=%d",
                    h2.peakBytes(), h2.cachedAtPeakBytes(), h2.worstExcessBytes(), h2.samples(),
                    h2.droppedBytes(), h2.reportUptimeMs());

            System.out.println(String.format(Locale.ROOT,
                    "RESULT workload=%s scale=%s storage=%s partitions=%d iterations=%d seconds=%.3f "
                            + "checksum=%s tolerance=%s cached_bytes=%d%s",
                    params.workload().id(), Double.toString(params.scale()), params.levelName(),
                    params.partitions(), out.iterations(), (end - start) / 1e9,
                    out.checksum(), out.tolerance(), cached, h2Fields));
            System.out.flush();
        } catch (Throwable t) {
            System.err.println("SparkBench: workload " + params.workload().id() + " failed");
            t.printStackTrace();
            status = 1;
        } finally {
            jsc.stop();
        }
        // Spark may leave non-daemon threads behind; leave explicitly with the status.
        System.exit(status);
    }

    static Params parse(String[] args) throws UsageException {
        if (args.length == 0) {
            throw new UsageException("usage: SparkBench <workload> [--scale S] [--storage LEVEL] "
                    + "[--partitions P] [--iterations N] [--gc-each-job]; workloads: " + Workload.names());
        }
        Workload workload = Workload.byId(args[0]);
        if (workload == null) {
            throw new UsageException("unknown workload '" + args[0] + "' (known: " + Workload.names() + ")");
        }
        double scale = 1.0;
        String levelName = "MEMORY_ONLY";
        Integer partitions = null;
        Integer iterations = null;
        boolean gcEachJob = false;
        for (int i = 1; i < args.length; i += 2) {
            String option = args[i];
            if (option.equals("--gc-each-job")) {
                gcEachJob = true;
                i--;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new UsageException("missing value after " + option);
            }
            String value = args[i + 1];
            switch (option) {
                case "--scale" -> {
                    scale = parseDouble(option, value);
                    if (!(scale > 0) || Double.isInfinite(scale)) {
                        throw new UsageException("--scale must be a positive number, got '" + value + "'");
                    }
                }
                case "--storage" -> levelName = value.toUpperCase(Locale.ROOT);
                case "--partitions" -> partitions = parsePositiveInt(option, value);
                case "--iterations" -> iterations = parsePositiveInt(option, value);
                default -> throw new UsageException("unknown option '" + option + "'");
            }
        }
        StorageLevel level;
        try {
            level = StorageLevel.fromString(levelName);
        } catch (IllegalArgumentException e) {
            throw new UsageException("bad storage level '" + levelName + "' (e.g. MEMORY_ONLY, "
                    + "MEMORY_ONLY_SER, MEMORY_AND_DISK, MEMORY_AND_DISK_SER, DISK_ONLY, OFF_HEAP)");
        }
        if (level == StorageLevel.NONE()) {
            throw new UsageException("storage level NONE would cache nothing; pick a real level");
        }
        int parts = partitions != null ? partitions : defaultPartitions(workload.estimatedBytes(scale));
        int iters = iterations != null ? iterations : workload.defaultIterations();
        return new Params(workload, scale, level, levelName, parts, iters, iterations != null, gcEachJob);
    }

    /** About 16-32 MB of cached data per partition, and at least {@link #MIN_PARTITIONS}. */
    static int defaultPartitions(long estimatedBytes) {
        long n = (estimatedBytes + BYTES_PER_PARTITION - 1) / BYTES_PER_PARTITION;
        return (int) Math.max(MIN_PARTITIONS, Math.min(n, 100_000));
    }

    private static double parseDouble(String option, String value) throws UsageException {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new UsageException(option + " needs a number, got '" + value + "'");
        }
    }

    private static int parsePositiveInt(String option, String value) throws UsageException {
        try {
            int v = Integer.parseInt(value);
            if (v > 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(option + " needs a positive integer, got '" + value + "'");
    }
}
