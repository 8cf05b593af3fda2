/*
 * @test
 * @summary -XX:+TeraHeapDynamicH1 divides one DRAM budget between H1 and H2's page cache at run
 *          time: bad settings are refused at start with one line that names the fix; left to its
 *          default it is on under Parallel wherever a budget is known and -Xms is below -Xmx,
 *          never past the heap the JVM would have had, and off (said at info level) elsewhere;
 *          under a
 *          memory cgroup, a program that alternates a phase scanning data in H2 with a phase
 *          that keeps much data live in H1 makes H1 shrink (I/O wait dominates) and grow again
 *          (GC time dominates), with its data intact, no cgroup OOM kill and no crash, also under
 *          heap verification before and after every GC; on the Parallel collector and on G1.
 * @library /lib /test/lib
 * @run main/othervm/timeout=900 TestTeraHeapDynamicH1
 */

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jdk.test.lib.process.OutputAnalyzer;
import org.teraheap.TeraHeap;

public class TestTeraHeapDynamicH1 {
    static final long LIMIT = 512L << 20;
    static final String[] PARALLEL = {};

    public static void main(String[] args) throws Exception {
        startupChecks();
        TeraHeapProcess.CgroupRun run = phases(false, PARALLEL);
        if (run == null) {
            System.out.println("SKIPPED the cgroup runs: they need root and cgroup v1's memory controller");
            System.out.println("PASSED");
            return;
        }
        phases(false, TeraHeapProcess.G1_FLAGS);
        phases(true, PARALLEL);
        if (TeraHeapProcess.G1) {
            // tests/g1/run-jtreg.sh: G1's verification makes this run the longest of all.
            phases(true, TeraHeapProcess.G1_FLAGS);
        }

        defaults();

        // A budget above the cgroup's limit would let H1 grow into the OOM killer: the limit wins.
        TeraHeapProcess.CgroupRun small = TeraHeapProcess.runInMemoryCgroup(LIMIT, "-XX:+EnableTeraHeap",
                "-XX:TeraHeapDramLimit=2g", "-Xlog:gc+teraheap+resize", "-version");
        small.out.shouldHaveExitValue(0);
        small.out.shouldContain("DRAM budget 512M (the memory cgroup's limit, below -XX:TeraHeapDramLimit)");
        System.out.println("PASSED");
    }

    static void startupChecks() throws Exception {
        TeraHeapProcess.assertStartupError(TeraHeapProcess.run("-XX:+EnableTeraHeap",
                "-XX:TeraHeapDramLimit=32m", "-version"), "DRAM budget", "too small", "at least 64M");
        TeraHeapProcess.assertStartupError(TeraHeapProcess.run("-XX:+EnableTeraHeap",
                "-XX:TeraHeapDramLimit=1g", "-Xms512m", "-Xmx512m", "-version"),
                "between -Xms and -Xmx", "remove -Xms");
        TeraHeapProcess.assertStartupError(TeraHeapProcess.run("-XX:+EnableTeraHeap",
                "-XX:TeraHeapDramLimit=1g", "-XX:-UseAdaptiveSizePolicy", "-version"),
                "remove -XX:-UseAdaptiveSizePolicy");

        // The budget alone turns the policy on and, with -Xmx left out, sets -Xmx below it.
        OutputAnalyzer out = TeraHeapProcess.run("-XX:+EnableTeraHeap", "-XX:TeraHeapDramLimit=1g",
                "-Xlog:gc+teraheap+resize", "-XX:+PrintFlagsFinal", "-version");
        out.shouldHaveExitValue(0);
        out.shouldMatch("H1 sized at run time: DRAM budget 1024M \\(-XX:TeraHeapDramLimit\\)");
        out.shouldMatch("bool TeraHeapDynamicH1 += true +\\{product\\} \\{ergonomic\\}");
        long maxHeap = flagValue(out, "MaxHeapSize");
        TeraHeapProcess.check(maxHeap <= (1L << 30) * 9 / 10 + (4L << 20) && maxHeap >= (1L << 30) * 8 / 10,
                "-Xmx from a 1G budget: " + maxHeap);

        // Under G1 too, which sizes its heap in regions.
        out = TeraHeapProcess.run(TeraHeapProcess.concat(TeraHeapProcess.G1_FLAGS, "-XX:+EnableTeraHeap",
                "-XX:TeraHeapDramLimit=1g", "-Xlog:gc+teraheap+resize", "-version"));
        out.shouldHaveExitValue(0);
        out.shouldMatch("H1 sized at run time: DRAM budget 1024M \\(-XX:TeraHeapDramLimit\\)");

        // Left to its default without a budget: off, and said so at info level (the tests may
        // themselves run in a memory cgroup with a limit: then on).
        out = TeraHeapProcess.run("-XX:+EnableTeraHeap", "-Xlog:gc+teraheap+resize", "-version");
        out.shouldHaveExitValue(0);
        if (out.getStdout().contains("H1 sized at run time")) {
            out.shouldContain("(the memory cgroup's limit)");
        } else {
            out.shouldContain("Dynamic H1 off: no memory cgroup limit (or -XX:-UseContainerSupport) and no "
                    + "-XX:TeraHeapDramLimit");
        }
        // Asked off, with a budget given: off.
        out = TeraHeapProcess.run("-XX:+EnableTeraHeap", "-XX:-TeraHeapDynamicH1", "-XX:TeraHeapDramLimit=1g",
                "-Xlog:gc+teraheap+resize", "-XX:+PrintFlagsFinal", "-version");
        out.shouldHaveExitValue(0);
        out.shouldNotContain("H1 sized at run time");
        out.shouldMatch("bool TeraHeapDynamicH1 += false +\\{product\\} \\{command line\\}");

        // Without a budget: the cgroup's limit if this machine has one, else a clear refusal.
        out = TeraHeapProcess.run("-XX:+EnableTeraHeap", "-XX:+TeraHeapDynamicH1",
                "-Xlog:gc+teraheap+resize", "-version");
        if (out.getExitValue() == 0) {
            out.shouldContain("(the memory cgroup's limit)");
        } else {
            TeraHeapProcess.assertStartupError(out, "needs a DRAM budget",
                    "-XX:TeraHeapDramLimit=<size>");
        }
    }

    /**
     * Under a memory cgroup's limit, with -XX:TeraHeapDynamicH1 left to its default: on under
     * Parallel, with -Xmx as H1's ceiling or, without it, the heap the JVM gives itself anyway
     * (a quarter of the limit), and with -XX:TeraHeapDramLimit=0 (the cgroup's limit); off, with
     * the reason at info level and nothing on stderr, where it cannot act or is not the default,
     * and when asked off.
     */
    static void defaults() throws Exception {
        final String[] h2 = {"-XX:+EnableTeraHeap", "-XX:TeraHeapPath=.", "-XX:TeraHeapSize=1g",
                "-Xlog:gc+teraheap+resize", "-XX:+PrintFlagsFinal", "-version"};
        TeraHeapProcess.CgroupRun run = TeraHeapProcess.runInMemoryCgroup(LIMIT,
                TeraHeapProcess.concat(new String[] {"-Xmx256m"}, h2));
        run.out.shouldHaveExitValue(0);
        run.out.shouldContain("H1 sized at run time: DRAM budget 512M (the memory cgroup's limit)");
        run.out.shouldMatch("bool TeraHeapDynamicH1 += true +\\{product\\} \\{ergonomic\\}");
        TeraHeapProcess.check(flagValue(run.out, "MaxHeapSize") == 256L << 20, "-Xmx256m not kept as H1's ceiling");
        TeraHeapProcess.check(startingAt(run.out) == 256, "H1 does not start at the -Xmx the user gave");

        // No -Xmx: with an explicit budget of 0 (the cgroup's limit), and with nothing but the
        // collector TeraHeap would pick anyway.
        for (String flag : new String[] {"-XX:TeraHeapDramLimit=0", "-XX:+UseParallelGC"}) {
            run = TeraHeapProcess.runInMemoryCgroup(LIMIT, TeraHeapProcess.concat(new String[] {flag}, h2));
            run.out.shouldHaveExitValue(0);
            run.out.shouldContain("H1 sized at run time: DRAM budget 512M (the memory cgroup's limit)");
            long maxHeap = flagValue(run.out, "MaxHeapSize");
            TeraHeapProcess.check(maxHeap <= (LIMIT / 4) + (2L << 20),
                    flag + ": H1 may grow past the JVM's usual quarter of the limit: " + maxHeap);
            TeraHeapProcess.check(startingAt(run.out) == maxHeap >> 20,
                    flag + ": H1 does not start at the JVM's default heap, " + (maxHeap >> 20) + "M");
        }

        String[][] off = {
            {"-Xms256m -Xmx256m", "-Xms is not below -Xmx"},
            {String.join(" ", TeraHeapProcess.G1_FLAGS), "not the Parallel collector (-XX:+TeraHeapDynamicH1 turns it on under G1)"},
            {"-XX:-UseAdaptiveSizePolicy", "-XX:-UseAdaptiveSizePolicy"},
            {"-XX:-TeraHeapDynamicH1", null},
        };
        for (String[] c : off) {
            run = TeraHeapProcess.runInMemoryCgroup(LIMIT, TeraHeapProcess.concat(c[0].split(" "), h2));
            run.out.shouldHaveExitValue(0);
            run.out.shouldNotContain("H1 sized at run time");
            run.out.stderrShouldNotContain("H1");
            if (c[1] != null) {
                run.out.shouldContain("Dynamic H1 off: " + c[1]);
            }
        }
    }

    /**
     * A G1 pause that fails to evacuate ("To-space exhausted") must come with the heap at the
     * ceiling the last decision allowed: there the budget, like -Xmx, decides, and G1 may run out
     * when its concurrent cycle is slow (two tests share two cores). Below the ceiling, a shrink
     * took the room G1 needed to evacuate.
     */
    static void checkEvacuationFailures(String log) {
        Pattern ceilingLine = Pattern.compile("H1 within \\[\\d+M, (\\d+)M\\]|ceiling (\\d+)M of");
        Pattern exhausted = Pattern.compile("GC\\((\\d+)\\) To-space exhausted");
        Pattern pause = Pattern.compile("GC\\((\\d+)\\) Pause Young .* \\d+M->\\d+M\\((\\d+)M\\)");
        long ceiling = -1;
        String failed = null;
        int failures = 0;
        for (String line : log.split("\n")) {
            Matcher m = ceilingLine.matcher(line);
            if (m.find()) {
                ceiling = Long.parseLong(m.group(1) != null ? m.group(1) : m.group(2));
            }
            m = exhausted.matcher(line);
            if (m.find()) {
                failed = m.group(1);
                failures++;
            }
            m = pause.matcher(line);
            if (failed != null && m.find() && m.group(1).equals(failed)) {
                long capacity = Long.parseLong(m.group(2));
                TeraHeapProcess.check(ceiling > 0 && capacity >= ceiling, "a pause failed to evacuate with the"
                        + " heap at " + capacity + "M, below the ceiling " + ceiling + "M: " + line);
                failed = null;
            }
        }
        TeraHeapProcess.check(failed == null, "no pause line for GC(" + failed + "), which failed to evacuate");
        System.out.println("pauses that failed to evacuate, all at the ceiling: " + failures);
    }

    /** H1's first target, in MB, from the sizer's start line. */
    static long startingAt(OutputAnalyzer out) {
        Matcher m = Pattern.compile("H1 sized at run time: .*, starting at (\\d+)M;").matcher(out.getStdout());
        TeraHeapProcess.check(m.find(), "no start line");
        return Long.parseLong(m.group(1));
    }

    static long flagValue(OutputAnalyzer out, String name) {
        Matcher m = Pattern.compile("size_t " + name + " += (\\d+)").matcher(out.getStdout());
        TeraHeapProcess.check(m.find(), name + " not printed");
        return Long.parseLong(m.group(1));
    }

    /**
     * Runs Phases under a 512 MB memory cgroup with nothing but -XX:+TeraHeapDynamicH1 to size
     * H1, on the collector that {@code collector} selects (none: Parallel). Returns null when no
     * cgroup can be made.
     */
    static TeraHeapProcess.CgroupRun phases(boolean verify, String[] collector) throws Exception {
        System.out.println("Phases " + (verify ? "under verification " : "") + "on "
                + (collector.length == 0 ? "Parallel" : String.join(" ", collector)));
        List<String> flags = new ArrayList<>(List.of(collector));
        flags.addAll(List.of("-XX:+EnableTeraHeap", "-XX:+TeraHeapDynamicH1",
                "-XX:TeraHeapSize=1g", "-XX:TeraHeapPath=.", "-Xlog:gc,gc+teraheap+resize=debug:stdout:uptime"));
        if (verify) {
            flags.addAll(List.of(collector.length == 0 ? TeraHeapProcess.VERIFY : TeraHeapProcess.G1_VERIFY));
        }
        flags.add(Phases.class.getName());
        flags.add(verify ? "3" : "12");   // seconds per phase
        TeraHeapProcess.CgroupRun run = TeraHeapProcess.runInMemoryCgroup(LIMIT, flags.toArray(new String[0]));
        if (run == null) {
            return null;
        }
        OutputAnalyzer out = run.out;
        out.shouldHaveExitValue(0);
        out.shouldContain("PHASES DONE");
        TeraHeapProcess.check(run.oomKills == 0, "the cgroup OOM-killed " + run.oomKills + " processes");
        out.shouldContain("H1 sized at run time: DRAM budget 512M (the memory cgroup's limit)");
        // -Xmx chosen from the budget is no one's heap: H1 starts at a quarter of the budget.
        TeraHeapProcess.check(startingAt(out) == (LIMIT / 4) >> 20, "H1 does not start at a quarter of the budget");
        if (verify) {
            return run;   // heap verification slows GC so much that GC time dominates throughout
        }

        // Decisions by phase: the log's uptime tags against the phases' start times.
        List<double[]> phaseStarts = new ArrayList<>();   // {start second, 0 scan / 1 live}
        Matcher pm = Pattern.compile("PHASE (scan|live) (\\d+) start at ([0-9.]+)s").matcher(out.getStdout());
        while (pm.find()) {
            phaseStarts.add(new double[] {Double.parseDouble(pm.group(3)), pm.group(1).equals("scan") ? 0 : 1});
        }
        TeraHeapProcess.check(phaseStarts.size() == 4, "four phases expected, saw " + phaseStarts.size());
        int[] shrinks = new int[4], grows = new int[4];
        Matcher dm = Pattern.compile("\\[([0-9.]+)s\\].*H1 (grow|shrink|raise|fit|hold) (\\d+)M -> (\\d+)M")
                .matcher(out.getStdout());
        while (dm.find()) {
            double at = Double.parseDouble(dm.group(1));
            int phase = -1;
            for (int i = 0; i < phaseStarts.size(); i++) {
                if (at >= phaseStarts.get(i)[0]) phase = i;
            }
            if (phase < 0) continue;
            if (dm.group(2).equals("shrink")) shrinks[phase]++;
            if (dm.group(2).equals("grow")) grows[phase]++;
        }
        System.out.println("shrinks by phase " + java.util.Arrays.toString(shrinks)
                + ", grows by phase " + java.util.Arrays.toString(grows));
        TeraHeapProcess.check(shrinks[0] > 0, "no shrink while scanning H2 (phase 1)");
        TeraHeapProcess.check(grows[1] > 0, "no grow while much data was live in H1 (phase 2)");
        TeraHeapProcess.check(shrinks[2] > 0, "no shrink while scanning H2 again (phase 3)");
        if (collector.length > 0) {
            // G1 gives regions back after young pauses too, not only at Remark and full GCs.
            // Never below what is in use plus G1's minimum young generation and reserve (15% by
            // default), so that no pause runs out of regions to evacuate into.
            Matcher sm = Pattern.compile("H1 shrunk after the pause: (\\d+)M -> (\\d+)M \\(limit \\d+M, in use (\\d+)M\\)")
                    .matcher(out.getStdout());
            int youngShrinks = 0;
            while (sm.find()) {
                long after = Long.parseLong(sm.group(2)), used = Long.parseLong(sm.group(3));
                TeraHeapProcess.check(after * 85 >= used * 100,
                        "a shrink left G1 no room for its young generation and reserve: " + sm.group());
                youngShrinks++;
            }
            TeraHeapProcess.check(youngShrinks > 0, "G1's heap never shrank after a young pause");
            checkEvacuationFailures(out.getStdout());
        }

        // The pages followed: the JVM's anonymous memory (H1 and the rest) is smaller after each
        // scan phase than after the live phase before or after it, and H1's committed size too.
        long[] anon = new long[4], committed = new long[4];
        Matcher cm = Pattern.compile("PHASE (scan|live) (\\d+) end: H1 committed (\\d+)M \\(RssAnon: (\\d+) kB")
                .matcher(out.getStdout());
        int n = 0;
        while (cm.find() && n < 4) {
            committed[n] = Long.parseLong(cm.group(3));
            anon[n++] = Long.parseLong(cm.group(4)) >> 10;
        }
        TeraHeapProcess.check(n == 4, "four phase ends expected");
        System.out.println("at phase ends (MB): H1 committed " + java.util.Arrays.toString(committed)
                + ", anonymous memory " + java.util.Arrays.toString(anon));
        TeraHeapProcess.check(committed[0] < committed[1] && anon[0] + 64 < anon[1],
                "H1 did not grow from scan 1 to live 1");
        TeraHeapProcess.check(committed[2] < committed[1] && anon[2] + 64 < anon[1],
                "H1 did not shrink from live 1 to scan 2");
        TeraHeapProcess.check(committed[2] < committed[3] && anon[2] + 64 < anon[3],
                "H1 did not grow from scan 2 to live 2");
        return run;
    }

    /**
     * Child: puts 384 MB in H2, then alternates two phases of the given seconds each:
     * scan (reads every page of H2's data, checking a value per page, with 2 KB of short-lived garbage per page
     * as an iterator makes) and live (keeps 1.5 million small arrays live in H1, replacing them one by
     * one, so that full GCs come often unless H1 grows). Exits 2 on a wrong value.
     */
    public static class Phases {
        static final int ARRAYS = 384, LONGS = 128 << 10;   // 1 MB each
        static long[][] data = new long[ARRAYS][];
        static long[][][] groups = new long[6][][];
        static long sink;

        public static void main(String[] args) throws Exception {
            double seconds = Double.parseDouble(args[0]);
            for (int g = 0; g < groups.length; g++) {
                long[][] group = new long[ARRAYS / groups.length][];
                groups[g] = group;
                for (int i = 0; i < group.length; i++) {
                    int index = g * group.length + i;
                    long[] a = new long[LONGS];
                    for (int k = 0; k < LONGS; k++) {
                        a[k] = index * 1_000_003L + k;
                    }
                    group[i] = a;
                    data[index] = a;
                }
                TeraHeap.tagRoot(group, g + 1);
                TeraHeap.move(g + 1);
                System.gc();
            }
            for (long[] a : data) {
                TeraHeapProcess.check(TeraHeap.isInH2(a), "data not in H2");
            }
            long start = System.nanoTime();
            for (int p = 1; p <= 2; p++) {
                phase("scan", p, seconds, Phases::scan);
                phase("live", p, seconds, Phases::live);
            }
            System.out.println("PHASES DONE " + sink);
        }

        interface Body { void run(long until); }

        static void phase(String name, int n, double seconds, Body body) {
            double at = ManagementFactory.getRuntimeMXBean().getUptime() / 1000.0;
            System.out.printf("PHASE %s %d start at %.3fs%n", name, n, at);
            body.run(System.nanoTime() + (long) (seconds * 1e9));
            System.out.printf("PHASE %s %d end: H1 committed %dM (%s)%n", name, n, h1Committed() >> 20, rss());
        }

        static String rss() {
            try {
                StringBuilder sb = new StringBuilder();
                for (String line : java.nio.file.Files.readAllLines(java.nio.file.Paths.get("/proc/self/status"))) {
                    if (line.startsWith("Rss")) sb.append(line.replaceAll("\\s+", " ")).append("; ");
                }
                return sb.toString();
            } catch (java.io.IOException e) {
                return "?";
            }
        }

        static long h1Committed() {
            return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
        }

        static void scan(long until) {
            while (System.nanoTime() < until) {
                for (int index = 0; index < ARRAYS; index++) {
                    long[] a = data[index];
                    for (int k = 0; k < LONGS; k += 512) {
                        if (a[k] != index * 1_000_003L + k) {
                            System.out.println("WRONG value at array " + index + " element " + k + ": " + a[k]);
                            System.exit(2);
                        }
                        long[] garbage = new long[256];
                        garbage[k & 255] = a[k];
                        sink += garbage[(k + 1) & 255];
                    }
                }
            }
        }

        static void live(long until) {
            // 1.5 million small arrays (about 130 MB), each replaced at random: what survives a
            // minor GC is promoted, the old generation fills at the allocation rate, and every
            // full GC marks them all. GC time dominates unless H1 has room.
            final int count = 1_500_000;
            long[][] ring = new long[count][];
            long made = 0;
            java.util.Random random = new java.util.Random(42);
            while (System.nanoTime() < until) {
                for (int j = 0; j < 1000; j++) {
                    int i = random.nextInt(count);
                    long[] old = ring[i];
                    if (old != null && old[0] != old[old.length - 1]) {
                        System.out.println("WRONG live array " + i);
                        System.exit(2);
                    }
                    long[] a = new long[8];
                    a[0] = a[a.length - 1] = ++made;
                    ring[i] = a;
                }
            }
            sink += made;
        }
    }
}
