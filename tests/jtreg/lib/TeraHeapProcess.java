import java.io.File;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.lib.process.ProcessTools;

/**
 * Starts child JVMs for TeraHeap's tests: the TeraHeap JDK under test (jtreg's test.jdk) or
 * the stock Debian JDK of the same version, with the test classes and the API jar on the
 * class path, and checks that no child left a crash report behind.
 */
public final class TeraHeapProcess {
    private TeraHeapProcess() {
    }

    /**
     * The ways every GC correctness scenario runs: plain, under heap verification before and
     * after every GC, interpreted only, and compiled by C2 only. (-XX:+VerifyDuringGC is not
     * among them: the Parallel collector of JDK 17 ignores it.)
     */
    public static final String[][] GC_MODES = {
        {},
        {"-XX:+UnlockDiagnosticVMOptions", "-XX:+VerifyBeforeGC", "-XX:+VerifyAfterGC"},
        {"-Xint"},
        {"-Xcomp", "-XX:-TieredCompilation"},
    };

    /**
     * Collector settings every GC correctness scenario also runs under, each with heap
     * verification: full GCs that keep a dense prefix (not maximal compactions), full GCs caused
     * by allocation failure instead of System.gc() (see {@link #fullGC}), uncompressed oops,
     * 16-byte object alignment, eight GC threads on whatever cores there are, and full GCs
     * without a scavenge first.
     */
    public static final String[][] GC_VARIANTS = {
        {"-XX:-UseMaximumCompactionOnSystemGC", "-XX:HeapFirstMaximumCompactionCount=100000",
         "-XX:HeapMaximumCompactionInterval=100000"},
        {"-Dteraheap.test.fullgc=allocation", "-XX:-UseMaximumCompactionOnSystemGC"},
        {"-XX:-UseCompressedOops"},
        {"-XX:ObjectAlignmentInBytes=16"},
        {"-XX:ParallelGCThreads=8"},
        {"-XX:-ScavengeBeforeFullGC"},
    };

    public static final String[] VERIFY = {"-XX:+UnlockDiagnosticVMOptions", "-XX:+VerifyBeforeGC", "-XX:+VerifyAfterGC"};

    /**
     * With TERAHEAP_TEST_COLLECTOR=g1 in jtreg's environment (tests/run.sh passes it on), the
     * scenarios of {@link #runInEveryMode} run under G1 instead (experimental while the port is
     * built: {@link #G1_FLAGS}), verified also during G1's concurrent cycles.
     */
    public static final boolean G1 = "g1".equals(System.getenv("TERAHEAP_TEST_COLLECTOR"));
    /** TeraHeap on G1, while the port is built (docs/g1.md). */
    public static final String[] G1_FLAGS = {"-XX:+UnlockExperimentalVMOptions", "-XX:+UseG1GC",
        "-XX:+TeraHeapG1InProgress"};
    /**
     * WhiteBox in a child, for a test that installed it with jtreg's ClassFileInstaller into its
     * working directory: children run in a directory of their own, so the boot class path names
     * the test's by its absolute path.
     */
    public static String[] whiteBox() {
        return new String[] {"-Xbootclasspath/a:" + new File(".").getAbsolutePath(),
            "-XX:+UnlockDiagnosticVMOptions", "-XX:+WhiteBoxAPI"};
    }

    /** Heap verification under G1, during its concurrent cycles too. */
    public static final String[] G1_VERIFY = {"-XX:+UnlockDiagnosticVMOptions", "-XX:+VerifyBeforeGC",
        "-XX:+VerifyAfterGC", "-XX:+VerifyDuringGC"};

    /**
     * G1's settings, in place of {@link #GC_VARIANTS}, each with heap verification: every region
     * compacted by full GCs, uncompressed oops, 16-byte object alignment, eight GC threads, and a
     * concurrent cycle started at nearly every young pause (so mixed pauses too), periodic
     * concurrent cycles every 100 ms the program lets G1 idle, and groups moved at full GCs only
     * (-XX:-TeraHeapG1MoveInPauses; the other settings move them at the young pause after
     * move(), as far as they lie in its collection set), and full GCs caused by allocation
     * failure: with no concurrent cycle to reclaim old garbage (occupancy threshold 100%), the
     * old regions fill until a pause cannot evacuate and G1 falls back to a full GC (without
     * G1's preventive pauses, which near a full heap run by the hundred, each growing it a region).
     */
    public static final String[][] G1_VARIANTS = {
        {"-XX:MarkSweepDeadRatio=0"},
        {"-XX:-UseCompressedOops"},
        {"-XX:ObjectAlignmentInBytes=16"},
        {"-XX:ParallelGCThreads=8"},
        {"-XX:InitiatingHeapOccupancyPercent=0", "-XX:-G1UseAdaptiveIHOP"},
        {"-XX:G1PeriodicGCInterval=100"},
        {"-XX:-TeraHeapG1MoveInPauses"},
        {"-Dteraheap.test.fullgc=allocation", "-XX:InitiatingHeapOccupancyPercent=100",
         "-XX:-G1UseAdaptiveIHOP", "-XX:+UnlockDiagnosticVMOptions", "-XX:-G1UsePreventiveGC"},
    };

    /**
     * Runs {@code mainClass} with TeraHeap on, H2 in the working directory, {@code flags}, in
     * each of {@link #GC_MODES} and {@link #GC_VARIANTS}, and expects it to print {@code expect}
     * and exit 0 each time. Returns the outputs.
     */
    public static List<OutputAnalyzer> runInEveryMode(String mainClass, String expect, String... flags)
            throws Exception {
        List<OutputAnalyzer> outputs = new ArrayList<>();
        List<String[]> runs = new ArrayList<>();
        for (String[] mode : GC_MODES) {
            runs.add(G1 && Arrays.equals(mode, VERIFY) ? G1_VERIFY : mode);
        }
        for (String[] variant : G1 ? G1_VARIANTS : GC_VARIANTS) {
            List<String> v = new ArrayList<>(Arrays.asList(G1 ? G1_VERIFY : VERIFY));
            v.addAll(Arrays.asList(variant));
            runs.add(v.toArray(new String[0]));
        }
        for (String[] mode : runs) {
            List<String> cmd = new ArrayList<>(List.of("-XX:+EnableTeraHeap",
                    "-XX:TeraHeapPath=" + new File(".").getAbsolutePath(), "-Xlog:gc+teraheap"));
            if (G1) {
                cmd.addAll(Arrays.asList(G1_FLAGS));
            }
            cmd.addAll(Arrays.asList(flags));
            cmd.addAll(Arrays.asList(mode));
            cmd.add(mainClass);
            OutputAnalyzer out = run(cmd.toArray(new String[0]));
            out.shouldHaveExitValue(0);
            out.shouldContain(expect);
            outputs.add(out);
        }
        return outputs;
    }

    /**
     * In a child: a full GC. System.gc(), or with -Dteraheap.test.fullgc=allocation a full GC
     * that allocation failure causes: old objects are made and dropped until the collector's
     * full-GC count goes up (under G1, only with concurrent cycles kept from starting:
     * {@link #G1_VARIANTS}).
     */
    public static void fullGC() {
        if (!"allocation".equals(System.getProperty("teraheap.test.fullgc"))) {
            System.gc();
            return;
        }
        long before = fullGCCount();
        // Kept long enough to be promoted, dropped a while later: the old generation fills with
        // garbage until a collection cannot promote, or allocate, without a full GC.
        long keep = Runtime.getRuntime().maxMemory() / 8;
        java.util.ArrayDeque<byte[]> ring = new java.util.ArrayDeque<>();
        long kept = 0;
        while (fullGCCount() == before) {
            byte[] b = new byte[64 << 10];
            ring.addLast(b);
            kept += b.length;
            while (kept > keep) {
                kept -= ring.removeFirst().length;
            }
        }
    }

    private static long fullGCCount() {
        return collections("PS MarkSweep", "G1 Old Generation");
    }

    /** In a child: how many collections the first GC bean with one of {@code names} has counted. */
    public static volatile Object sink;

    /** Under G1: allocates short-lived arrays until `pauses` more young (or mixed) pauses have run. */
    public static void g1YoungPauses(int pauses) {
        final long target = collections("G1 Young Generation") + pauses;
        for (int i = 0; i < 100_000 && collections("G1 Young Generation") < target; i++) {
            for (int k = 0; k < 256; k++) {
                sink = new byte[1000];
            }
        }
        check(collections("G1 Young Generation") >= target, "young pauses ran");
    }

    public static long collections(String... names) {
        List<String> wanted = Arrays.asList(names);
        for (java.lang.management.GarbageCollectorMXBean b
                : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            if (wanted.contains(b.getName())) {
                return b.getCollectionCount();
            }
        }
        throw new IllegalStateException("no collector named " + wanted + ": is TeraHeap on, with that collector?");
    }

    /**
     * Runs {@code main} in a child with TeraHeap on G1 ({@link #G1_FLAGS}), {@code flags}, then
     * {@code mode}; fails the test unless the child exits with 0.
     */
    public static OutputAnalyzer runOnG1(Class<?> main, String[] mode, String... flags) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("-XX:+EnableTeraHeap"));
        cmd.addAll(Arrays.asList(G1_FLAGS));
        cmd.addAll(Arrays.asList(flags));
        cmd.addAll(Arrays.asList(mode));
        cmd.add(main.getName());
        OutputAnalyzer out = run(cmd.toArray(new String[0]));
        out.shouldHaveExitValue(0);
        return out;
    }

    public static String[] concat(String[] a, String... b) {
        String[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    /** A number the JVM's log gives in hexadecimal, without its 0x. */
    public static long hex(String s) {
        return new BigInteger(s, 16).longValue();
    }

    /** The first match of {@code p} in a child's standard output; fails the test if there is none. */
    public static Matcher find(Pattern p, OutputAnalyzer out) {
        Matcher m = p.matcher(out.getStdout());
        if (!m.find()) {
            throw new RuntimeException("no line matching " + p + " in the log");
        }
        return m;
    }

    /** How many times {@code what} stands in the child's standard output. */
    public static int count(OutputAnalyzer out, String what) {
        Matcher m = Pattern.compile(Pattern.quote(what)).matcher(out.getStdout());
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    /**
     * In a child: a class loader that defines one class itself, from the class file its parent
     * finds, so that the class can be unloaded once nothing holds the loader.
     */
    public static final class IsolatingLoader extends ClassLoader {
        private final String isolated;

        public IsolatingLoader(Class<?> isolated) {
            super(isolated.getClassLoader());
            this.isolated = isolated.getName();
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.equals(isolated)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    try (java.io.InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                        byte[] bytes = in.readAllBytes();
                        c = defineClass(name, bytes, 0, bytes.length);
                    } catch (IOException e) {
                        throw new ClassNotFoundException(name, e);
                    }
                }
                return c;
            }
        }
    }

    /** In a child: fails the scenario with {@code what} unless {@code ok}. */
    public static void check(boolean ok, String what) {
        if (!ok) {
            throw new RuntimeException("failed: " + what);
        }
    }

    /** In a child: allocates {@code mb} megabytes of short-lived arrays, so minor GCs run. */
    public static void churn(int mb) {
        List<byte[]> junk = new ArrayList<>();
        for (int i = 0; i < mb; i++) {
            junk.add(new byte[1 << 20]);
            if (junk.size() > 4) {
                junk.clear();
            }
        }
    }

    /** Runs the TeraHeap JDK's java with {@code args}, in a fresh working directory. */
    public static OutputAnalyzer run(String... args) throws Exception {
        ProcessBuilder pb = ProcessTools.createLimitedTestJavaProcessBuilder(args);
        return execute(pb);
    }

    /** Runs the stock Debian JDK's java with {@code args}. */
    public static OutputAnalyzer runStock(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(stockJdk().resolve("bin/java").toString());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.addAll(Arrays.asList(args));
        return execute(new ProcessBuilder(cmd));
    }

    /**
     * As root, runs the TeraHeap JDK's java in a private mount namespace after {@code mount}
     * (a shell command) has run there, so a test can give the JVM a small or read-only file
     * system that disappears with it. Returns null when not root.
     */
    public static OutputAnalyzer runWithMount(String mount, String... args) throws Exception {
        if (!"root".equals(System.getProperty("user.name"))) {
            return null;
        }
        List<String> cmd = new ArrayList<>(Arrays.asList(
                "unshare", "--mount", "--propagation", "private", "sh", "-c", mount + " && exec \"$0\" \"$@\""));
        cmd.addAll(ProcessTools.createLimitedTestJavaProcessBuilder(args).command());
        return execute(new ProcessBuilder(cmd));
    }

    /**
     * Runs the TeraHeap JDK's java with the userfaultfd system call refused, through
     * noUserfaultfd.c in the test's source directory (compiled here with gcc).
     */
    public static OutputAnalyzer runWithoutUserfaultfd(String... args) throws Exception {
        Path wrapper = Paths.get("noUserfaultfd").toAbsolutePath();
        if (!Files.exists(wrapper)) {
            String src = Paths.get(System.getProperty("test.src"), "noUserfaultfd.c").toString();
            Process cc = new ProcessBuilder("gcc", "-O", "-o", wrapper.toString(), src).inheritIO().start();
            if (cc.waitFor() != 0) {
                throw new RuntimeException("gcc could not build " + src);
            }
        }
        List<String> cmd = new ArrayList<>(List.of(wrapper.toString()));
        cmd.addAll(ProcessTools.createLimitedTestJavaProcessBuilder(args).command());
        return execute(new ProcessBuilder(cmd));
    }

    /** What {@link #runInMemoryCgroup} saw: the child's output and what the cgroup counted. */
    public static class CgroupRun {
        public final OutputAnalyzer out;
        public final long oomKills;
        public final long maxUsage;

        CgroupRun(OutputAnalyzer out, long oomKills, long maxUsage) {
            this.out = out;
            this.oomKills = oomKills;
            this.maxUsage = maxUsage;
        }
    }

    /**
     * As root, runs the TeraHeap JDK's java in a memory cgroup (v1) of its own, limited to
     * {@code limitBytes} with page cache included, as the papers capped their runs. Returns null
     * when not root or without cgroup v1's memory controller.
     */
    public static CgroupRun runInMemoryCgroup(long limitBytes, String... args) throws Exception {
        Path root = Paths.get("/sys/fs/cgroup/memory");
        if (!"root".equals(System.getProperty("user.name")) || !Files.isDirectory(root)
                || !Files.exists(root.resolve("memory.limit_in_bytes"))) {
            return null;
        }
        Path cg = root.resolve("teraheap-jtreg-" + ProcessHandle.current().pid() + "-" + dirs);
        Files.createDirectory(cg);
        try {
            Files.write(cg.resolve("memory.limit_in_bytes"), Long.toString(limitBytes).getBytes());
            List<String> cmd = new ArrayList<>(Arrays.asList("sh", "-c",
                    "echo $$ > " + cg.resolve("cgroup.procs") + " && exec \"$0\" \"$@\""));
            cmd.addAll(ProcessTools.createLimitedTestJavaProcessBuilder(args).command());
            OutputAnalyzer out = execute(new ProcessBuilder(cmd));
            long oomKills = 0;
            for (String line : Files.readAllLines(cg.resolve("memory.oom_control"))) {
                if (line.startsWith("oom_kill ")) {
                    oomKills = Long.parseLong(line.substring("oom_kill ".length()).trim());
                }
            }
            long maxUsage = Long.parseLong(new String(Files.readAllBytes(cg.resolve("memory.max_usage_in_bytes"))).trim());
            return new CgroupRun(out, oomKills, maxUsage);
        } finally {
            // The child has exited; its page cache may still be charged, which rmdir moves up.
            for (int i = 0; i < 50 && Files.exists(cg); i++) {
                try {
                    Files.delete(cg);
                } catch (IOException busy) {
                    Thread.sleep(100);
                }
            }
        }
    }

    public static Path stockJdk() {
        String home = System.getenv("TERAHEAP_STOCK_JDK");
        if (home == null) {
            throw new IllegalStateException("TERAHEAP_STOCK_JDK is not set: run the tests with tests/run.sh");
        }
        return Paths.get(home);
    }

    private static int dirs = 0;

    private static OutputAnalyzer execute(ProcessBuilder pb) throws Exception {
        Path dir = Files.createDirectories(Paths.get("child-" + (dirs++)));
        pb.directory(dir.toFile());
        System.out.println("Command: " + String.join(" ", pb.command()));
        OutputAnalyzer out = new OutputAnalyzer(pb.start());
        System.out.println("Exit: " + out.getExitValue());
        System.out.println("[stdout]\n" + out.getStdout() + "[stderr]\n" + out.getStderr());
        assertNoCrashReport(dir, out);
        return out;
    }

    private static void assertNoCrashReport(Path dir, OutputAnalyzer out) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(p -> p.getFileName().toString().startsWith("hs_err")).findAny().ifPresent(p -> {
                throw new RuntimeException("the JVM crashed and wrote " + p.toAbsolutePath());
            });
        }
        if (out.getOutput().contains("A fatal error has been detected")) {
            throw new RuntimeException("the JVM reported a fatal error");
        }
    }

    /** Asserts the JVM refused to start with one message containing every fragment. */
    public static void assertStartupError(OutputAnalyzer out, String... fragments) {
        if (out.getExitValue() == 0) {
            throw new RuntimeException("expected the JVM to refuse to start, but it exited 0");
        }
        out.shouldNotContain("A fatal error has been detected");
        out.shouldNotContain("Internal Error");
        out.shouldContain("Error occurred during initialization of VM");
        String all = out.getOutput();
        String line = Arrays.stream(all.split("\n"))
                .filter(l -> Arrays.stream(fragments).allMatch(l::contains))
                .findFirst()
                .orElseThrow(() -> new RuntimeException("no single line holds all of "
                        + Arrays.toString(fragments)));
        System.out.println("Startup error line: " + line);
    }

    /** Bytes of storage a file occupies on disk, as opposed to its length. */
    public static long allocatedBytes(File f) throws Exception {
        Process p = new ProcessBuilder("stat", "-c", "%b %B", f.getAbsolutePath()).start();
        String[] blocksAndSize = new String(p.getInputStream().readAllBytes()).trim().split(" ");
        if (p.waitFor() != 0) {
            throw new IOException("stat failed on " + f);
        }
        return Long.parseLong(blocksAndSize[0]) * Long.parseLong(blocksAndSize[1]);
    }
}
