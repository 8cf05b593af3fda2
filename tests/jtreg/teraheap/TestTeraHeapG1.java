/*
 * @test
 * @summary The G1 port so far (experimental: -XX:+UnlockExperimentalVMOptions
 *          -XX:+TeraHeapG1InProgress; without it TeraHeap with G1 is refused in one line naming
 *          it). H2 is mapped directly
 *          below G1's heap and its cards directly below G1's card array, where G1's barrier
 *          computes them; an H2 region smaller than G1's is refused in one line. G1's full GC
 *          moves a tagged group whose objects are young, old and humongous when it is tagged;
 *          young objects are then stored into it; the group, the young objects and the H1
 *          objects only it refers to read back the same through young pauses (which read H2's
 *          cards) and full GCs (which compact H1 under it), plain, interpreted and under heap
 *          verification (with 8 GC threads, uncompressed oops, every region compacted), with no
 *          concurrent cycle (TestTeraHeapG1Marking has them); once dropped, the group's regions
 *          are freed.
 * @library /lib /test/lib
 * @run main/othervm/timeout=1200 TestTeraHeapG1
 */

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jdk.test.lib.process.OutputAnalyzer;

public class TestTeraHeapG1 {
    /** Child: allocates through several young and full collections with TeraHeap's API in use. */
    public static class Churn {
        public static void main(String[] args) throws Exception {
            Object[] keep = new Object[1 << 14];
            for (int i = 0; i < keep.length; i++) {
                keep[i] = new long[16];
                if (i % 1024 == 0) {
                    org.teraheap.TeraHeap.tagRoot(keep[i], 7);
                }
            }
            org.teraheap.TeraHeap.move(7);
            TeraHeapProcess.churn(256);
            System.gc();
            long sum = 0;
            for (Object o : keep) {
                sum += ((long[]) o).length;
            }
            System.out.println("CHURN-OK " + sum + " moved=" + org.teraheap.TeraHeap.stats().bytesMoved());
        }
    }

    /**
     * Child: a group of small objects, H1 objects only it refers to, and a humongous array,
     * allocated on both sides of a full GC (so part old, part young), moved by G1's full GC and
     * read back through young pauses and full GCs; young objects stored into H2 (by plain stores,
     * and by arraycopy, which takes the runtime's barrier) are kept and updated by young pauses.
     */
    public static class Moves {
        static final class Node {
            final long value;
            final String name;
            final int[] data;
            // Reference objects never move: this one stays in H1, and only H2 refers to it.
            final java.lang.ref.WeakReference<int[]> ref;
            final Node next;

            Node(long value, Node next) {
                this.value = value;
                this.name = "node-" + value;
                this.data = new int[] {(int) value, (int) (value * 3)};
                this.ref = new java.lang.ref.WeakReference<>(data);
                this.next = next;
            }
        }

        static long checksum(Object[] group) {
            long sum = 0;
            for (int i = 0; i < group.length - 1; i++) {
                for (Node n = (Node) group[i]; n != null; n = n.next) {
                    TeraHeapProcess.check(n.ref.get() == n.data, "a weak reference in H1 to a group member still refers to it");
                    sum += n.value * 31 + n.name.hashCode() + n.data[0] + n.data[1];
                }
            }
            long[] big = (long[]) group[group.length - 1];
            for (int i = 0; i < big.length; i += 4096) {
                sum += big[i];
            }
            return sum;
        }

        public static void main(String[] args) throws Exception {
            final int chains = 2000;
            Object[] group = new Object[chains + 1];
            for (int i = 0; i < chains / 2; i++) {
                group[i] = new Node(i, new Node(-i, null));
            }
            System.gc();   // the first half is old now
            for (int i = chains / 2; i < chains; i++) {
                group[i] = new Node(i, new Node(-i, null));
            }
            long[] big = new long[3 << 20];   // 24 MB: humongous with 4 MB regions
            for (int i = 0; i < big.length; i++) {
                big[i] = i ^ 0x5555;
            }
            group[chains] = big;
            big = null;   // the interpreter would keep the local alive, and the array's regions with it
            final long expected = checksum(group);
            org.teraheap.TeraHeap.tagRoot(group, 11);
            org.teraheap.TeraHeap.move(11);
            System.gc();
            TeraHeapProcess.check(org.teraheap.TeraHeap.isInH2(group), "the group's root moved to H2");
            TeraHeapProcess.check(org.teraheap.TeraHeap.isInH2(group[0]) && org.teraheap.TeraHeap.isInH2(group[chains - 1]),
                    "old and young members moved");
            TeraHeapProcess.check(org.teraheap.TeraHeap.isInH2(group[chains]), "the humongous array moved");
            TeraHeapProcess.check(checksum(group) == expected, "the group reads back the same after the move");
            long expectedNow = expected;
            for (int round = 0; round < 3; round++) {
                // Young objects only H2 refers to: every tenth chain is replaced by a new one.
                for (int i = round; i < chains; i += 10) {
                    long before = 0;
                    for (Node n = (Node) group[i]; n != null; n = n.next) {
                        before += n.value * 31 + n.name.hashCode() + n.data[0] + n.data[1];
                    }
                    Node fresh = new Node(i + 1_000_000L * (round + 1), new Node(-i - 7, null));
                    if (i % 20 == 0) {
                        System.arraycopy(new Object[] {fresh}, 0, group, i, 1);
                    } else {
                        group[i] = fresh;
                    }
                    for (Node n = fresh; n != null; n = n.next) {
                        expectedNow += n.value * 31 + n.name.hashCode() + n.data[0] + n.data[1];
                    }
                    expectedNow -= before;
                }
                TeraHeapProcess.churn(192);   // young pauses
                TeraHeapProcess.check(checksum(group) == expectedNow, "the same after young pauses, round " + round);
                // Garbage between H1's survivors, so that the full GC compacts them under H2's references.
                Object[] garbage = new Object[20000];
                for (int i = 0; i < garbage.length; i++) {
                    garbage[i] = new long[8];
                }
                garbage = null;
                System.gc();
                TeraHeapProcess.check(checksum(group) == expectedNow, "the same after a full GC, round " + round);
            }
            long moved = org.teraheap.TeraHeap.stats().bytesMoved();
            long regions = org.teraheap.TeraHeap.stats().regionsInUse();
            group = null;
            System.gc();
            System.gc();
            System.out.println("MOVES-OK moved=" + moved + " regions=" + regions
                    + " after-drop=" + org.teraheap.TeraHeap.stats().regionsInUse()
                    + " freed=" + org.teraheap.TeraHeap.stats().regionsFreed());
        }
    }

    static final Pattern MOVES = Pattern.compile("MOVES-OK moved=(\\d+) regions=(\\d+) after-drop=(\\d+) freed=(\\d+)");

    static final Pattern H1 = Pattern.compile("TeraHeap H1: \\[0x(\\p{XDigit}+), 0x(\\p{XDigit}+)\\)");
    static final Pattern H2 = Pattern.compile("TeraHeap H2: \\[0x(\\p{XDigit}+), 0x(\\p{XDigit}+)\\)");
    static final Pattern CARDS = Pattern.compile(
            "TeraHeap card table: H2's \\[0x(\\p{XDigit}+), 0x(\\p{XDigit}+)\\), G1's \\[0x(\\p{XDigit}+), 0x(\\p{XDigit}+)\\)");

    public static void main(String[] args) throws Exception {
        // Until the port is done, TeraHeap with G1 is refused in one line that names the
        // experimental flag, and that flag needs unlocking.
        OutputAnalyzer refused = TeraHeapProcess.run("-XX:+EnableTeraHeap", "-XX:+UseG1GC", "-version");
        TeraHeapProcess.assertStartupError(refused, "works with the Parallel collector only", "-XX:+UseG1GC",
                "-XX:+UnlockExperimentalVMOptions -XX:+TeraHeapG1InProgress");
        OutputAnalyzer locked = TeraHeapProcess.run("-XX:+EnableTeraHeap", "-XX:+UseG1GC", "-XX:+TeraHeapG1InProgress",
                "-version");
        locked.shouldNotHaveExitValue(0);
        locked.shouldContain("must be enabled via -XX:+UnlockExperimentalVMOptions");
        TeraHeapProcess.check(!locked.getOutput().contains("hs_err"), "no crash report");

        OutputAnalyzer out = TeraHeapProcess.run("-XX:+EnableTeraHeap", "-XX:+UnlockExperimentalVMOptions", "-XX:+UseG1GC", "-XX:+TeraHeapG1InProgress",
                "-Xmx256m", "-XX:TeraHeapSize=512m", "-XX:TeraHeapRegionSize=16m", "-XX:G1HeapRegionSize=4m",
                "-XX:+UnlockDiagnosticVMOptions", "-XX:+VerifyBeforeGC", "-XX:+VerifyAfterGC", "-Xlog:gc+init=debug",
                Churn.class.getName());
        out.shouldHaveExitValue(0);
        out.shouldContain("CHURN-OK " + (16L << 14) + " moved=");
        long h1Start = TeraHeapProcess.hex(TeraHeapProcess.find(H1, out).group(1));
        Matcher h2 = TeraHeapProcess.find(H2, out);
        long h2Start = TeraHeapProcess.hex(h2.group(1)), h2End = TeraHeapProcess.hex(h2.group(2));
        TeraHeapProcess.check(h2End <= h1Start && h1Start - h2Start == 512L << 20,
                "H2 lies directly below G1's heap, in the same reservation");
        Matcher cards = TeraHeapProcess.find(CARDS, out);
        long h2Cards = TeraHeapProcess.hex(cards.group(1)), h2CardsEnd = TeraHeapProcess.hex(cards.group(2)), g1Cards = TeraHeapProcess.hex(cards.group(3));
        TeraHeapProcess.check(h2CardsEnd == g1Cards && h2CardsEnd - h2Cards == (512L << 20) / 512,
                "H2's cards end where G1's begin: a card per 512 bytes of H2's reservation");

        String[][] modes = {
            {},
            {"-XX:+VerifyBeforeGC", "-XX:+VerifyAfterGC"},
            {"-XX:+VerifyBeforeGC", "-XX:+VerifyAfterGC", "-XX:ParallelGCThreads=8"},
            {"-XX:+VerifyBeforeGC", "-XX:+VerifyAfterGC", "-XX:-UseCompressedOops"},
            {"-XX:+VerifyBeforeGC", "-XX:+VerifyAfterGC", "-XX:MarkSweepDeadRatio=0"},
            {"-Xint"},
        };
        for (String[] mode : modes) {
            java.util.List<String> flags = new java.util.ArrayList<>(java.util.List.of("-XX:+EnableTeraHeap",
                    "-XX:+UnlockExperimentalVMOptions", "-XX:+UseG1GC", "-XX:+TeraHeapG1InProgress", "-Xms256m", "-Xmx256m", "-XX:TeraHeapSize=512m",
                    "-XX:TeraHeapRegionSize=16m", "-XX:G1HeapRegionSize=4m", "-XX:-G1UseAdaptiveIHOP",
                    "-XX:InitiatingHeapOccupancyPercent=100", "-XX:+UnlockDiagnosticVMOptions", "-Xlog:gc"));
            flags.addAll(java.util.List.of(mode));
            flags.add(Moves.class.getName());
            OutputAnalyzer moves = TeraHeapProcess.run(flags.toArray(new String[0]));
            moves.shouldHaveExitValue(0);
            // The initiating occupancy is a share of the committed heap: with -Xms = -Xmx no cycle starts.
            moves.shouldNotContain("Pause Young (Concurrent Start)");
            Matcher m = TeraHeapProcess.find(MOVES, moves);
            long moved = Long.parseLong(m.group(1)), regions = Long.parseLong(m.group(2));
            long afterDrop = Long.parseLong(m.group(3)), freed = Long.parseLong(m.group(4));
            TeraHeapProcess.check(moved > (24L << 20), "the group, its humongous array included, moved: " + moved);
            TeraHeapProcess.check(regions >= 2, "the group takes H2 regions: " + regions);
            TeraHeapProcess.check(afterDrop == 0 && freed >= regions,
                    "the dropped group's regions are freed: " + afterDrop + " in use, " + freed + " freed");
        }

        OutputAnalyzer small = TeraHeapProcess.run("-XX:+EnableTeraHeap", "-XX:+UnlockExperimentalVMOptions", "-XX:+UseG1GC", "-XX:+TeraHeapG1InProgress",
                "-Xmx256m", "-XX:TeraHeapSize=512m", "-XX:TeraHeapRegionSize=2m", "-XX:G1HeapRegionSize=4m",
                "-version");
        TeraHeapProcess.assertStartupError(small, "-XX:TeraHeapRegionSize=2M is smaller than G1's region size (4M)");
    }
}
