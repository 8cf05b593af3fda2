/*
 * @test
 * @summary G1's concurrent cycles and mixed pauses with H2 in use (experimental:
 *          -XX:+TeraHeapG1InProgress). A moved group refers to H1 objects that nothing else
 *          refers to: some through cards a full GC summarized, some through cards young pauses
 *          left oldgen, and a humongous array. With a cycle started at nearly every young pause
 *          and old regions full of garbage, those objects survive Remark, the mixed pauses that
 *          follow and humongous eager reclaim, and read back the same, plain and under
 *          -XX:+VerifyBeforeGC -XX:+VerifyAfterGC -XX:+VerifyDuringGC (also with 8 GC threads,
 *          uncompressed oops, and 4 MB regions); objects in the same H2 fields are
 *          replaced while marking runs, and old objects that mixed pauses may have chosen are
 *          stored into H2. Cycles, mixed pauses and candidates given up for H2 are all seen in
 *          the log. And, driven step by step with WhiteBox: old objects that a finished cycle
 *          chose for mixed pauses, stored into H2 before the first mixed pause, make that pause
 *          give their regions up and read back the same (plain and verified).
 * @library /lib /test/lib
 * @build jdk.test.whitebox.WhiteBox
 * @run driver jdk.test.lib.helpers.ClassFileInstaller jdk.test.whitebox.WhiteBox
 * @run main/othervm/timeout=1800 TestTeraHeapG1Marking
 */

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.whitebox.WhiteBox;

public class TestTeraHeapG1Marking {
    /** An H1 object only H2 refers to, with an array only it refers to. */
    static final class Payload {
        final long value;
        final int[] data;

        Payload(long value) {
            this.value = value;
            this.data = new int[] {(int) value, (int) (value >>> 3), 7};
        }

        long sum() {
            return value * 17 + data[0] + data[1] + data[2];
        }
    }

    static final class Node {
        final long value;
        Object extra;   // a Payload, stored after the group moved
        long[] old;     // an old H1 object that G1 may have chosen to collect in a mixed pause

        Node(long value) {
            this.value = value;
        }
    }

    /** Child. */
    public static class Cycles {
        static final int NODES = 4000;
        static final int BIG = 200_000;   // longs: humongous with 1 MB regions

        static long checksum(Object[] group) {
            long sum = 0;
            for (int i = 0; i < NODES; i++) {
                Node n = (Node) group[i];
                sum += n.value;
                if (n.extra != null) {
                    sum += ((Payload) n.extra).sum();
                }
            }
            long[] big = (long[]) group[NODES];
            if (big != null) {
                for (int i = 0; i < big.length; i += 1000) {
                    sum += big[i];
                }
            }
            return sum;
        }

        static long expected(Object[] group) {
            long sum = 0;
            for (int i = 0; i < NODES; i++) {
                sum += i;
                Node n = (Node) group[i];
                if (n.extra != null) {
                    sum += new Payload(((Payload) n.extra).value).sum();
                }
            }
            long[] big = (long[]) group[NODES];
            if (big != null) {
                for (int i = 0; i < big.length; i += 1000) {
                    sum += i * 3L + 1;
                }
            }
            return sum;
        }

        static final Object[] LONG_LIVED = new Object[50_000];
        static int longLived;

        /**
         * Young pauses, with old regions that fill with garbage (promoted, then dropped) around
         * a few objects that live longer: mixed collections have candidates.
         */
        static void churnOld(int rounds) {
            java.util.ArrayDeque<Object[]> ring = new java.util.ArrayDeque<>();
            for (int r = 0; r < rounds; r++) {
                Object[] chunk = new Object[2048];
                for (int i = 0; i < chunk.length; i++) {
                    chunk[i] = new long[12];
                    if (i % 64 == 0) {
                        LONG_LIVED[longLived++ % LONG_LIVED.length] = chunk[i];
                    }
                }
                ring.addLast(chunk);
                if (ring.size() > 40) {
                    ring.removeFirst();
                }
            }
        }

        public static void main(String[] args) throws Exception {
            Object[] group = new Object[NODES + 1];
            for (int i = 0; i < NODES; i++) {
                group[i] = new Node(i);
            }
            org.teraheap.TeraHeap.tagRoot(group, 5);
            org.teraheap.TeraHeap.move(5);
            System.gc();
            TeraHeapProcess.check(org.teraheap.TeraHeap.isInH2(group) && org.teraheap.TeraHeap.isInH2(group[NODES - 1]),
                    "the group moved");
            // Payloads that a full GC's adjust step will find old: their cards are summarized.
            for (int i = 0; i < NODES; i += 40) {
                ((Node) group[i]).extra = new Payload(i);
            }
            churnOld(20);
            System.gc();
            // Payloads that young pauses promote: their cards turn oldgen. And a humongous array.
            for (int i = 20; i < NODES; i += 40) {
                ((Node) group[i]).extra = new Payload(i);
            }
            long[] big = new long[BIG];
            for (int i = 0; i < big.length; i++) {
                big[i] = i * 3L + 1;
            }
            group[NODES] = big;
            big = null;
            final long expected = expected(group);
            TeraHeapProcess.check(checksum(group) == expected, "the group reads back before the cycles");
            for (int round = 0; round < 150; round++) {
                churnOld(200);
                TeraHeapProcess.check(checksum(group) == expected(group), "the same after round " + round);
                // Replaced while marking may run: the old payload is garbage now.
                int i = 10 + (round % 10) * 40;
                ((Node) group[i]).extra = new Payload(i + 100_000L * round);
                // Old objects, likely in regions already chosen for mixed pauses: H2 refers
                // into them from now on, so a mixed pause must give those regions up. Several a
                // round, promoted during the round and far apart, so that some region is chosen in
                // every run (with 8 a round, a loaded machine's run of fewer cycles once saw none).
                for (int k = 0; k < 24; k++) {
                    long[] old = (long[]) LONG_LIVED[(longLived + LONG_LIVED.length - 1 - k * 797) % LONG_LIVED.length];
                    if (old != null) {
                        old[0] = round;
                        ((Node) group[30 + ((round * 24 + k) % 50) * 40]).old = old;
                    }
                }
            }
            TeraHeapProcess.check(checksum(group) == expected(group), "the same at the end");
            for (int i = 0; i < NODES; i++) {
                long[] old = ((Node) group[i]).old;
                TeraHeapProcess.check(old == null || (old.length == 12 && old[0] < 150), "an old object H2 refers to");
            }
            System.out.println("CYCLES-OK");
        }
    }

    /**
     * Child: one cycle and the mixed pauses after it, each started with WhiteBox, so that
     * what the parent checks does not depend on how many cycles a loaded machine runs.
     */
    public static class Candidates {
        static final int OLD = 120_000;   // long[12]: about 13 old regions of 1 MB
        static final int KEEP_EVERY = 64;

        public static void main(String[] args) throws Exception {
            WhiteBox wb = WhiteBox.getWhiteBox();
            Node[] group = new Node[OLD / KEEP_EVERY];
            for (int i = 0; i < group.length; i++) {
                group[i] = new Node(i);
            }
            org.teraheap.TeraHeap.tagRoot(group, 6);
            org.teraheap.TeraHeap.move(6);
            System.gc();
            TeraHeapProcess.check(org.teraheap.TeraHeap.isInH2(group) && org.teraheap.TeraHeap.isInH2(group[0]),
                    "the group moved");
            // Old regions, each mostly garbage around a few live objects.
            long[][] old = new long[OLD][];
            for (int i = 0; i < OLD; i++) {
                old[i] = new long[12];
                old[i][0] = i;
            }
            wb.youngGC();
            wb.youngGC();
            TeraHeapProcess.check(wb.isObjectInOldGen(old[0]) && wb.isObjectInOldGen(old[OLD - 1]), "the objects are old");
            long[][] kept = new long[group.length][];
            for (int i = 0; i < OLD; i++) {
                if (i % KEEP_EVERY == 0) {
                    kept[i / KEEP_EVERY] = old[i];
                }
            }
            old = null;
            // A whole cycle: its Cleanup chooses the candidates for mixed pauses.
            TeraHeapProcess.check(wb.g1StartConcMarkCycle(), "a cycle started");
            while (wb.g1InConcurrentMark()) {
                Thread.sleep(10);
            }
            long[] info = wb.g1GetMixedGCInfo(100);
            System.out.println("CANDIDATES " + info[0]);
            // H2 refers into every candidate from now on.
            for (int i = 0; i < group.length; i++) {
                group[i].old = kept[i];
            }
            kept = null;
            for (int i = 0; i < 4; i++) {
                wb.youngGC();   // Prepare Mixed, then mixed pauses
            }
            for (int i = 0; i < group.length; i++) {
                long[] o = group[i].old;
                TeraHeapProcess.check(o.length == 12 && o[0] == (long) i * KEEP_EVERY, "an old object H2 refers to reads back");
            }
            System.out.println("CANDIDATES-OK");
        }
    }

    /** The Candidates child, with the given flags; the candidates its mixed pause gave up. */
    static int runCandidates(String... mode) throws Exception {
        java.util.List<String> flags = new java.util.ArrayList<>(java.util.List.of("-XX:+EnableTeraHeap",
                "-XX:+UnlockExperimentalVMOptions", "-XX:+UseG1GC", "-XX:+TeraHeapG1InProgress", "-Xms256m", "-Xmx256m",
                "-XX:TeraHeapSize=512m", "-XX:TeraHeapRegionSize=8m", "-XX:G1HeapRegionSize=1m",
                "-XX:G1MixedGCLiveThresholdPercent=100", "-XX:G1HeapWastePercent=0",
                "-XX:MaxTenuringThreshold=0", "-Xlog:gc,gc+teraheap=debug"));
        flags.addAll(java.util.List.of(TeraHeapProcess.whiteBox()));
        flags.addAll(java.util.List.of(mode));
        flags.add(Candidates.class.getName());
        OutputAnalyzer out = TeraHeapProcess.run(flags.toArray(new String[0]));
        out.shouldHaveExitValue(0);
        out.shouldContain("CANDIDATES-OK");
        Matcher c = Pattern.compile("CANDIDATES (\\d+)").matcher(out.getStdout());
        TeraHeapProcess.check(c.find() && Integer.parseInt(c.group(1)) >= 5, "the cycle chose old regions for mixed pauses");
        TeraHeapProcess.check(TeraHeapProcess.count(out, "Pause Young (Mixed)") >= 1, "a mixed pause ran");
        int gaveUp = 0;
        Matcher m = Pattern.compile("Gave up (\\d+) mixed collection candidates H2 refers into").matcher(out.getStdout());
        while (m.find()) {
            gaveUp += Integer.parseInt(m.group(1));
        }
        TeraHeapProcess.check(gaveUp >= 5, "the mixed pause gave up the candidates H2 came to refer into: " + gaveUp);
        return gaveUp;
    }

    public static void main(String[] args) throws Exception {
        runCandidates();
        runCandidates(TeraHeapProcess.G1_VERIFY);
        String[][] modes = {
            {},
            {"-XX:+VerifyBeforeGC", "-XX:+VerifyAfterGC", "-XX:+VerifyDuringGC"},
            {"-XX:+VerifyBeforeGC", "-XX:+VerifyAfterGC", "-XX:+VerifyDuringGC", "-XX:ParallelGCThreads=8"},
            {"-XX:+VerifyBeforeGC", "-XX:+VerifyAfterGC", "-XX:+VerifyDuringGC", "-XX:-UseCompressedOops"},
            {"-XX:-G1UseAdaptiveIHOP", "-XX:G1HeapRegionSize=4m", "-XX:TeraHeapRegionSize=16m"},
        };
        for (String[] mode : modes) {
            java.util.List<String> flags = new java.util.ArrayList<>(java.util.List.of("-XX:+EnableTeraHeap",
                    "-XX:+UnlockExperimentalVMOptions", "-XX:+UseG1GC", "-XX:+TeraHeapG1InProgress", "-Xms256m", "-Xmx256m", "-XX:TeraHeapSize=512m",
                    "-XX:TeraHeapRegionSize=8m", "-XX:G1HeapRegionSize=1m", "-XX:InitiatingHeapOccupancyPercent=0",
                    "-XX:MaxTenuringThreshold=1", "-XX:+UnlockExperimentalVMOptions",
                    "-XX:G1MixedGCLiveThresholdPercent=100", "-XX:G1HeapWastePercent=0",
                    "-XX:+UnlockDiagnosticVMOptions",
                    "-Xlog:gc,gc+teraheap=debug"));
            flags.addAll(java.util.List.of(mode));
            flags.add(Cycles.class.getName());
            OutputAnalyzer out = TeraHeapProcess.run(flags.toArray(new String[0]));
            out.shouldHaveExitValue(0);
            out.shouldContain("CYCLES-OK");
            int starts = TeraHeapProcess.count(out, "Pause Young (Concurrent Start)");
            int remarks = TeraHeapProcess.count(out, "Pause Remark");
            int mixed = TeraHeapProcess.count(out, "Pause Young (Mixed)");
            // Regions H2 refers into are never collected but by full GCs: G1 may need one.
            int full = TeraHeapProcess.count(out, "Pause Full (System.gc())");
            TeraHeapProcess.check(starts >= 3 && remarks >= 3, "concurrent cycles ran: " + starts + " starts, " + remarks + " remarks");
            TeraHeapProcess.check(mixed >= 2, "mixed pauses ran: " + mixed);
            TeraHeapProcess.check(full == 2, "the two full GCs asked for: " + full);
        }
    }
}
