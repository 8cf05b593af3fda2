package org.teraheap.bench.giraph;

import java.io.File;
import java.io.FileWriter;
import java.io.IOException;
import java.io.Writer;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.text.SimpleDateFormat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.apache.giraph.conf.GiraphConfiguration;
import org.apache.giraph.conf.GiraphConstants;
import org.apache.giraph.io.formats.GiraphFileInputFormat;
import org.apache.giraph.io.formats.IdWithValueTextOutputFormat;
import org.apache.giraph.job.GiraphJob;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.log4j.Logger;

/**
 * Entry point of the Giraph workloads of the TeraHeap benchmark suite: runs one Graphalytics
 * algorithm on unmodified Giraph 1.3, in this JVM, with Hadoop's local job runner (one task that
 * is both master and worker, as {@code GiraphRunner -w 1 -ca giraph.SplitMasterWorker=false}).
 *
 * <pre>
 * GiraphBench &lt;workload&gt; --graph &lt;edge file&gt; --out &lt;dir&gt; [--workers 1] [--threads 2]
 *     [--iterations 10] [--source id] [--combiner] [--gc-each-superstep] [--scratch dir]
 *     [--csv file --config name --scale s] [--ca key=value ...]
 * </pre>
 *
 * The job's timings go to one {@code RESULT} line on stdout (and a CSV row with {@code --csv});
 * Giraph's own phase timers to a {@code GIRAPH} line on stderr, and its logging to stderr at WARN. Exit status 0 when the job succeeded, 1 when it
 * failed, 2 for a bad command line.
 */
public final class GiraphBench {
    static final String CSV_HEADER = "time,workload,config,scale,status,wall_s,other_s,minor_gc_s,"
            + "major_gc_s,h2_moved_mb,peak_mb,checksum";
    /** Collectors whose time counts as minor GC; every other collector's counts as major. */
    private static final Set<String> YOUNG_COLLECTORS = new HashSet<>(
            Arrays.asList("PS Scavenge", "G1 Young Generation", "Copy", "ParNew"));
    private static final int DEFAULT_THREADS = 2;
    private static final String PER_WORKER_REQUESTS = "giraph.waitForPerWorkerRequests";

    private GiraphBench() {
    }

    /** The parsed command line. */
    static final class Options {
        Workload workload;
        File graph;
        File out;
        int threads = DEFAULT_THREADS;
        int iterations = BenchConf.DEFAULT_ITERATIONS;
        Long source;
        boolean combiner;
        boolean gcEachSuperstep;
        File scratchParent = new File(System.getProperty("java.io.tmpdir"));
        File csv;
        String config = "";
        String scale = "";
        List<String[]> giraphSettings = new ArrayList<>();
    }

    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }

    public static void main(String[] args) {
        Options options;
        try {
            options = parse(args);
            prepareOutput(options.out);
        } catch (UsageException e) {
            System.err.println("GiraphBench: " + e.getMessage());
            System.exit(2);
            return;
        }
        // Giraph leaves ZooKeeper and Netty threads behind: leave explicitly.
        System.exit(run(options));
    }

    static int run(Options o) {
        File scratch = null;
        boolean passed = false;
        long[] gcBefore = gcMillis();
        long start = System.nanoTime();
        long end = start;
        try {
            scratch = Files.createTempDirectory(o.scratchParent.toPath(), "giraph-bench-").toFile();
            // A failed job leaves Giraph's threads running, which may write here after the
            // cleanup below: delete once more on the way out.
            final File scratchDir = scratch;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(scratchDir)));
            GiraphJob job = new GiraphJob(configure(o, scratch), "teraheap-bench-" + o.workload.id);
            FileOutputFormat.setOutputPath(job.getInternalJob(), new Path(o.out.getAbsolutePath()));
            // GC times and the clock cover the job only.
            gcBefore = gcMillis();
            start = System.nanoTime();
            passed = job.run(false);
            end = System.nanoTime();
        } catch (Exception e) {
            end = System.nanoTime();
            System.err.println("GiraphBench: " + o.workload.id + " failed");
            e.printStackTrace();
        } finally {
            if (scratch != null) {
                deleteTree(scratch);
            }
        }
        long[] gcAfter = gcMillis();

        double wall = (end - start) / 1e9;
        double minorGc = (gcAfter[0] - gcBefore[0]) / 1e3;
        double majorGc = (gcAfter[1] - gcBefore[1]) / 1e3;
        double h2MovedMb = h2BytesMoved() / (double) (1 << 20);
        long peakMb = peakRssKb() / 1024;
        H2Space.Report h2 = null;
        if (o.gcEachSuperstep) {
            try {
                h2 = H2Space.finish();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        String h2Fields = h2 == null ? "" : String.format(Locale.ROOT,
                " h2_peak_bytes=%d h2_live_at_peak_bytes=%d h2_worst_excess_bytes=%d h2_samples=%d"
                        + " h2_final_bytes=%d h2_final_live_bytes=%d",
                h2.peakBytes, h2.liveAtPeakBytes, h2.worstExcessBytes, h2.samples, h2.finalBytes,
                h2.finalLiveBytes);

        String checksum = "";
        int vertices = 0;
        if (passed) {
            try {
                VertexResults results = VertexResults.read(o.out, o.workload.doubleValues);
                vertices = results.size;
                checksum = VertexResults.hex(results.checksum(o.workload));
            } catch (IOException e) {
                System.err.println("GiraphBench: cannot read the job's output: " + e.getMessage());
                passed = false;
            }
        }
        if (passed) {
            System.out.println(String.format(Locale.ROOT,
                    "RESULT workload=%s wall_s=%.3f minor_gc_s=%.3f major_gc_s=%.3f vertices=%d checksum=%s%s",
                    o.workload.id, wall, minorGc, majorGc, vertices, checksum, h2Fields));
            System.out.flush();
            if (TimersObserver.summary() != null) {
                System.err.println("GIRAPH workload=" + o.workload.id + " " + TimersObserver.summary());
            }
        } else {
            System.err.println("GiraphBench: job " + o.workload.id + " failed after "
                    + String.format(Locale.ROOT, "%.3f", wall) + " s");
        }
        if (o.csv != null) {
            String row = String.join(",", new SimpleDateFormat("yyyyMMdd-HHmmss").format(new Date()),
                    o.workload.id, o.config, o.scale, passed ? "ok" : "failed",
                    String.format(Locale.ROOT, "%.3f", wall),
                    String.format(Locale.ROOT, "%.3f", Math.max(0, wall - minorGc - majorGc)),
                    String.format(Locale.ROOT, "%.3f", minorGc),
                    String.format(Locale.ROOT, "%.3f", majorGc),
                    String.format(Locale.ROOT, "%.1f", h2MovedMb),
                    Long.toString(peakMb), checksum);
            try {
                appendCsv(o.csv, row);
            } catch (IOException e) {
                System.err.println("GiraphBench: cannot append to " + o.csv + ": " + e.getMessage());
                return 1;
            }
        }
        return passed ? 0 : 1;
    }

    /** The job's settings; the caller's {@code --ca} entries come last and win. */
    static GiraphConfiguration configure(Options o, File scratch) throws IOException {
        GiraphConfiguration conf = new GiraphConfiguration();
        conf.setComputationClass(o.workload.computation);
        conf.setMasterComputeClass(o.workload.master);
        if (o.combiner) {
            conf.setMessageCombinerClass(o.workload.combiner);
        }
        if (o.gcEachSuperstep) {
            conf.setWorkerContextClass(GcEachSuperstep.class);
        }
        conf.setEdgeInputFormatClass(UndirectedEdgeListInputFormat.class);
        GiraphFileInputFormat.addEdgeInputPath(conf, new Path(o.graph.getAbsolutePath()));
        conf.setVertexOutputFormatClass(IdWithValueTextOutputFormat.class);

        // The local job runner runs one task at a time: one worker, which is also the master.
        conf.setWorkerConfiguration(1, 1, 100.0f);
        GiraphConstants.SPLIT_MASTER_WORKER.set(conf, false);
        conf.setNumComputeThreads(o.threads);
        GiraphConstants.NUM_INPUT_THREADS.set(conf, o.threads);
        // Giraph writes with one thread anyway unless the output format is marked thread-safe,
        // which the text formats are not (their threads would all open the same part file).
        GiraphConstants.NUM_OUTPUT_THREADS.set(conf, o.threads);

        conf.setInt(BenchConf.ITERATIONS, o.iterations);
        if (o.source != null) {
            conf.setLong(BenchConf.SOURCE, o.source);
        }

        // Giraph and Hadoop default to ./_bsp and /tmp/hadoop-$USER, and ZooKeeper to the fixed
        // port 22181: keep each run's files in its own scratch directory and on its own port, so
        // that runs neither litter the working directory nor collide.
        conf.set("hadoop.tmp.dir", new File(scratch, "hadoop").getPath());
        conf.set(GiraphConstants.ZOOKEEPER_DIR, new File(scratch, "zk").getPath());
        GiraphConstants.ZOOKEEPER_MANAGER_DIRECTORY.set(conf, new File(scratch, "zk-manager").getPath());
        GiraphConstants.CHECKPOINT_DIRECTORY.set(conf, new File(scratch, "checkpoints").getPath());
        // Where out-of-core Giraph (giraph.useOutOfCoreGraph=true) spills partitions.
        GiraphConstants.PARTITIONS_DIRECTORY.set(conf, new File(scratch, "partitions").getPath());
        GiraphConstants.ZOOKEEPER_SERVER_PORT.set(conf, freePort());

        // Giraph resets the root logger to giraph.logLevel (default info): keep the level that
        // log4j.properties (or -Dlog4j.configuration) chose.
        GiraphConstants.LOG_LEVEL.set(conf, Logger.getRootLogger().getLevel().toString().toLowerCase(Locale.ROOT));
        // The client polls for the job's end every 5 s by default, which would round wall_s up.
        conf.setInt("mapreduce.client.completion.pollinterval", 50);
        GiraphConstants.JOB_OBSERVER_CLASS.set(conf, TimersObserver.class);

        for (String[] setting : o.giraphSettings) {
            conf.set(setting[0], setting[1]);
        }
        // Out-of-core Giraph throttles senders with credit-based flow control, which Giraph 1.3
        // only sets up with giraph.waitForPerWorkerRequests; without it the job dies with a
        // ClassCastException (NoOpFlowControl to CreditBasedFlowControl) before loading input.
        if (GiraphConstants.USE_OUT_OF_CORE_GRAPH.get(conf) && conf.get(PER_WORKER_REQUESTS) == null) {
            conf.setBoolean(PER_WORKER_REQUESTS, true);
        }
        return conf;
    }

    static Options parse(String[] args) throws UsageException {
        if (args.length == 0) {
            throw new UsageException("usage: GiraphBench <workload> --graph <edge file> --out <dir> "
                    + "[--workers 1] [--threads 2] [--iterations 10] [--source id] [--combiner] "
                    + "[--gc-each-superstep] [--scratch dir] [--csv file --config name --scale s] "
                    + "[--ca key=value ...]; workloads: " + Workload.names());
        }
        Options o = new Options();
        o.workload = Workload.byId(args[0]);
        if (o.workload == null) {
            throw new UsageException("unknown workload '" + args[0] + "' (known: " + Workload.names() + ")");
        }
        for (int i = 1; i < args.length; i++) {
            String option = args[i];
            if (option.equals("--combiner")) {
                o.combiner = true;
                continue;
            }
            if (option.equals("--gc-each-superstep")) {
                o.gcEachSuperstep = true;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new UsageException("missing value after " + option);
            }
            String value = args[++i];
            switch (option) {
                case "--graph":
                    o.graph = new File(value);
                    break;
                case "--out":
                    o.out = new File(value);
                    break;
                case "--workers":
                    if (positiveInt(option, value) != 1) {
                        throw new UsageException("--workers must be 1: Hadoop's local job runner "
                                + "runs one task at a time, and that task is master and worker");
                    }
                    break;
                case "--threads":
                    o.threads = positiveInt(option, value);
                    break;
                case "--iterations":
                    o.iterations = positiveInt(option, value);
                    break;
                case "--source":
                    try {
                        o.source = Long.parseLong(value);
                    } catch (NumberFormatException e) {
                        throw new UsageException("--source needs a vertex id, got '" + value + "'");
                    }
                    break;
                case "--scratch":
                    o.scratchParent = new File(value);
                    break;
                case "--csv":
                    o.csv = new File(value);
                    break;
                case "--config":
                    o.config = value;
                    break;
                case "--scale":
                    o.scale = value;
                    break;
                case "--ca":
                    int eq = value.indexOf('=');
                    if (eq <= 0) {
                        throw new UsageException("--ca needs key=value, got '" + value + "'");
                    }
                    o.giraphSettings.add(new String[] {value.substring(0, eq), value.substring(eq + 1)});
                    break;
                default:
                    throw new UsageException("unknown option '" + option + "'");
            }
        }
        if (o.graph == null || o.out == null) {
            throw new UsageException("--graph and --out are required");
        }
        if (!o.graph.isFile()) {
            throw new UsageException("no such graph file: " + o.graph);
        }
        if (o.combiner && o.workload.combiner == null) {
            throw new UsageException("--combiner: " + o.workload.id + " has no message combiner "
                    + "(a most frequent label cannot be found from a partial summary)");
        }
        if (!o.scratchParent.isDirectory()) {
            throw new UsageException("no such scratch directory: " + o.scratchParent);
        }
        for (String field : new String[] {o.config, o.scale}) {
            if (field.contains(",") || field.contains("\n")) {
                throw new UsageException("--config and --scale go into a CSV: no commas");
            }
        }
        return o;
    }

    private static int positiveInt(String option, String value) throws UsageException {
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

    /**
     * Makes way for the job's output directory, which Hadoop wants not to exist. An old output
     * (only part files, Hadoop's _SUCCESS and .crc files) is deleted; anything else is refused,
     * so that a mistyped --out cannot delete someone's data.
     */
    static void prepareOutput(File out) throws UsageException {
        if (!out.exists()) {
            return;
        }
        File[] files = out.listFiles();
        if (files == null) {
            throw new UsageException("--out " + out + " exists and is not a directory");
        }
        for (File f : files) {
            String name = f.getName();
            boolean hadoopFile = name.startsWith("part-") || name.equals("_SUCCESS")
                    || (name.startsWith(".") && name.endsWith(".crc"));
            if (!f.isFile() || !hadoopFile) {
                throw new UsageException("--out " + out + " holds " + name
                        + ", which is not a job output file; not replacing it");
            }
        }
        deleteTree(out);
        if (out.exists()) {
            throw new UsageException("cannot delete the old output " + out);
        }
    }

    private static void deleteTree(File f) {
        File[] children = f.listFiles();
        if (children != null) {
            for (File c : children) {
                deleteTree(c);
            }
        }
        f.delete();
    }

    /** A port nobody listens on now, for Giraph's in-process ZooKeeper. */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Accumulated collection time in ms since JVM start: {minor, major}. */
    static long[] gcMillis() {
        long[] ms = new long[2];
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            long t = Math.max(0, gc.getCollectionTime());
            ms[YOUNG_COLLECTORS.contains(gc.getName()) ? 0 : 1] += t;
        }
        return ms;
    }

    /** VmHWM, the peak resident set of this process, in kB; 0 where /proc is missing. */
    static long peakRssKb() {
        try {
            for (String line : Files.readAllLines(new File("/proc/self/status").toPath(),
                    StandardCharsets.UTF_8)) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            // Not Linux: report 0.
        }
        return 0;
    }

    /**
     * Bytes TeraHeap moved to H2 since the JVM started, when the TeraHeap API is on the class path
     * (the agent jar carries it); 0 otherwise. By reflection, so that the bench jar runs on any JVM
     * without the API.
     */
    static long h2BytesMoved() {
        try {
            Class<?> teraHeap = Class.forName("org.teraheap.TeraHeap", true, ClassLoader.getSystemClassLoader());
            Object stats = teraHeap.getMethod("stats").invoke(null);
            return (Long) stats.getClass().getMethod("bytesMoved").invoke(stats);
        } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
            return 0;
        }
    }

    private static void appendCsv(File csv, String row) throws IOException {
        boolean fresh = !csv.exists() || csv.length() == 0;
        File parent = csv.getAbsoluteFile().getParentFile();
        if (parent != null) {
            parent.mkdirs();
        }
        try (Writer w = new FileWriter(csv, true)) {
            if (fresh) {
                w.write(CSV_HEADER + "\n");
            }
            w.write(row + "\n");
        }
    }
}
