/*
 * @test
 * @summary Under G1, groups reach H2 without a full GC (-XX:+TeraHeapG1MoveInPauses, the
 *          default): a group advised to move leaves at the next young pause, as far as it lies
 *          in the collection set. With no full GC in the log: a young group moves whole, its root
 *          included, and reads back the same through later young pauses, young objects stored
 *          into it afterwards included; a group that a moved group already refers to moves at a
 *          later pause, and the reference follows it; a group whose older part was promoted before it was
 *          tagged moves its young part, and the promoted part stays in H1, reached from H2; a
 *          humongous root array stays in H1 while the young elements it refers to move; the
 *          humongous type arrays of a group move with it, and a local, a weak reference and the
 *          group's fields follow them, but one that a static field refers to stays, and one that an
 *          old object refers to as well is found by both after the pause; a
 *          Reference in the group stays in H1 and still refers to its referent, now in H2; many
 *          groups of one label, tagged one after the other while cycles run, each move at the
 *          pause after their move(); a dropped group's region is freed by a later concurrent
 *          cycle, and no region a live group holds is; what a pause left in H1 (a promoted part, and
 *          what was stored into the group since) moves at the next full GC. With
 *          -XX:-TeraHeapG1MoveInPauses nothing
 *          moves in a pause and the full GC moves the group. Plain, interpreted, with cycles
 *          started at nearly every young pause, and under -XX:+VerifyBeforeGC -XX:+VerifyAfterGC
 *          -XX:+VerifyDuringGC (also with 8 GC threads, with uncompressed oops, and with every card
 *          refined at once).
 * @library /lib /test/lib
 * @run main/othervm/timeout=1800 TestTeraHeapG1PauseMove
 */

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jdk.test.lib.process.OutputAnalyzer;

public class TestTeraHeapG1PauseMove {
    static final class Node {
        final long value;
        final String name;
        final int[] data;
        Object extra;   // a young object stored once the node is in H2, or an older part
        final WeakReference<int[]> ref;   // a Reference never moves: it stays in H1

        Node(long value) {
            this.value = value;
            this.name = "n" + value;
            this.data = new int[] {(int) value, (int) (value >>> 3)};
            this.ref = new WeakReference<>(data);
        }

        long sum() {
            TeraHeapProcess.check(ref.get() == data, "a Reference in H1 still refers to its referent");
            return value * 31 + name.hashCode() + data[0] + data[1];
        }
    }

    /** Holds a humongous array (800 KB, with 1 MB regions), as Spark's graph partitions do. */
    static final class Holder {
        final long[] big;
        final WeakReference<long[]> ref;

        Holder(long[] big) {
            this.big = big;
            ref = new WeakReference<>(big);
        }

        static long[] big(int seed) {
            long[] big = new long[100_000];
            for (int i = 0; i < big.length; i++) {
                big[i] = seed * 1_000_003L + i;
            }
            return big;
        }

        long sum() {
            TeraHeapProcess.check(ref.get() == big, "a Reference to a humongous array still refers to it");
            long s = 0;
            for (long v : big) {
                s += v;
            }
            return s;
        }
    }

    static long count(String collector) {
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (b.getName().equals(collector)) {
                return b.getCollectionCount();
            }
        }
        throw new IllegalStateException("no collector " + collector);
    }

    static long youngPauses() {
        return count("G1 Young Generation");
    }

    static long fullGCs() {
        return count("G1 Old Generation");
    }

    static volatile Object sink;

    /** Allocates small short-lived arrays (eden, not humongous) until `pauses` more young pauses have run. */
    static void youngPauses(int pauses) {
        final long target = youngPauses() + pauses;
        for (int i = 0; i < 100_000 && youngPauses() < target; i++) {
            for (int k = 0; k < 256; k++) {
                sink = new byte[1000];
            }
        }
        TeraHeapProcess.check(youngPauses() >= target, "young pauses ran");
    }

    static Node[] nodes(long base, int n) {
        Node[] g = new Node[n];
        for (int i = 0; i < n; i++) {
            g[i] = new Node(base + i);
        }
        return g;
    }

    static long sum(Node[] g) {
        long s = 0;
        for (Node n : g) {
            s += n.sum();
            if (n.extra instanceof long[]) {
                s += ((long[]) n.extra)[0];
            } else if (n.extra instanceof Node) {
                s += ((Node) n.extra).sum();
            }
        }
        return s;
    }

    static boolean inH2(Object o) {
        return org.teraheap.TeraHeap.isInH2(o);
    }

    /**
     * Label 2: a group whose older part was promoted (-XX:MaxTenuringThreshold=0) before it was
     * tagged, moved at a young pause; its young part moves and the promoted part stays in H1,
     * reached from H2. Returns what the group sums to.
     */
    static long moveWithPromotedPart() {
        Node[] old = nodes(100_000, 5_000);
        youngPauses(2);
        TeraHeapProcess.check(!inH2(old[0]), "nothing untagged moved");
        youngPauses(1);
        mixed = nodes(200_000, 5_000);
        for (int i = 0; i < mixed.length; i++) {
            mixed[i].extra = old[i];
        }
        old = null;
        final long mixedSum = sum(mixed);
        org.teraheap.TeraHeap.tagRoot(mixed, 2);
        org.teraheap.TeraHeap.move(2);
        youngPauses(1);
        TeraHeapProcess.check(inH2(mixed) && inH2(mixed[4_999]), "the young part moved");
        TeraHeapProcess.check(!inH2(mixed[3].extra), "the promoted part stayed in H1");
        return mixedSum;
    }

    // Fields, not locals: the interpreter keeps a local's value alive until its slot is reused.
    static Node[] young, linked, mixed, many[];
    static Object[] bigRoot;
    static Holder[] holders, withOld;
    static Object[] keeper;
    static long[] pinned;
    static WeakReference<Node[]> dropped;

    /** Child: every scenario in one JVM, with no full GC. */
    public static class Pauses {
        public static void main(String[] args) throws Exception {
            // A young group moves whole at the next young pause. Each group is made just after a
            // pause, so that no pause promotes part of it before it is tagged.
            youngPauses(1);
            young = nodes(1_000, 2_000);
            final long youngSum = sum(young);
            org.teraheap.TeraHeap.tagRoot(young, 1);
            org.teraheap.TeraHeap.move(1);
            youngPauses(1);
            TeraHeapProcess.check(inH2(young) && inH2(young[0]) && inH2(young[1_999]) && inH2(young[7].name),
                    "the young group moved at the young pause");
            TeraHeapProcess.check(!inH2(young[7].ref), "the Reference stayed in H1");
            TeraHeapProcess.check(inH2(young[7].ref.get()), "its referent moved");
            TeraHeapProcess.check(sum(young) == youngSum, "the moved group reads back the same");
            // Young objects stored into it are kept by the pauses that read H2's cards.
            long stored = 0;
            for (int i = 0; i < young.length; i += 7) {
                young[i].extra = new long[] {i};
                stored += i;
            }
            youngPauses(3);
            TeraHeapProcess.check(sum(young) == youngSum + stored, "young objects stored into H2 are kept");

            // A group that a moved group refers to moves at a later pause: the pause's read of
            // H2's cards finds the field's target already moved, and the field is updated.
            youngPauses(1);
            linked = nodes(400_000, 2_000);
            final long linkedSum = sum(linked);
            young[1].extra = linked[5];
            org.teraheap.TeraHeap.tagRoot(linked, 6);
            org.teraheap.TeraHeap.move(6);
            youngPauses(1);
            TeraHeapProcess.check(inH2(linked) && inH2(linked[5]) && young[1].extra == linked[5],
                    "the group another group in H2 refers to moved, and the reference follows it");
            youngPauses(2);
            TeraHeapProcess.check(sum(linked) == linkedSum && sum(young) == youngSum + stored + linked[5].sum(),
                    "both read back the same");
            stored += linked[5].sum();

            // The older part (promoted: -XX:MaxTenuringThreshold=0) stays in H1, reached from H2.
            final long mixedSum = moveWithPromotedPart();
            youngPauses(3);
            TeraHeapProcess.check(sum(mixed) == mixedSum, "the group and its part in H1 read back the same");

            // A humongous root stays in H1; the young elements it refers to move.
            youngPauses(1);
            bigRoot = new Object[1 << 20];
            long bigSum = 0;
            for (int i = 0; i < bigRoot.length; i += 64) {
                bigRoot[i] = new Node(300_000 + i);
                bigSum += ((Node) bigRoot[i]).sum();
            }
            org.teraheap.TeraHeap.tagRoot(bigRoot, 3);
            org.teraheap.TeraHeap.move(3);
            youngPauses(1);
            TeraHeapProcess.check(!inH2(bigRoot), "the humongous root stayed in H1");
            TeraHeapProcess.check(inH2(bigRoot[0]) && inH2(bigRoot[bigRoot.length - 64]), "its elements moved");
            youngPauses(2);
            long bigNow = 0;
            for (int i = 0; i < bigRoot.length; i += 64) {
                bigNow += ((Node) bigRoot[i]).sum();
            }
            TeraHeapProcess.check(bigNow == bigSum, "the humongous root's elements read back the same");

            // A group's humongous type arrays move with it: G1 finds every reference to one it may
            // reclaim eagerly in the pause. One a static field refers to stays, as singletons do.
            // The arrays first, in locals (an old array of them would give them remembered sets):
            // a humongous allocation may start a pause, which would promote the holders.
            long[] b0 = Holder.big(1), b1 = Holder.big(2), b2 = Holder.big(3), b3 = Holder.big(4);
            youngPauses(1);
            holders = new Holder[] {new Holder(b0), new Holder(b1), new Holder(b2), new Holder(b3)};
            b0 = b1 = b2 = b3 = null;
            long holdersSum = 0;
            for (Holder h : holders) {
                holdersSum += h.sum();
            }
            pinned = holders[3].big;
            long[] onStack = holders[1].big;
            org.teraheap.TeraHeap.tagRoot(holders, 7);
            org.teraheap.TeraHeap.move(7);
            youngPauses(1);
            TeraHeapProcess.check(inH2(holders) && inH2(holders[0]) && inH2(holders[0].big) && inH2(holders[2].big),
                    "the humongous arrays moved with their group");
            TeraHeapProcess.check(onStack == holders[1].big && inH2(onStack) && onStack[7] == 2 * 1_000_003L + 7,
                    "a local referring to a humongous array follows it");
            TeraHeapProcess.check(!inH2(holders[0].ref) && holders[0].ref.get() == holders[0].big,
                    "a weak reference to a moved humongous array follows it");
            TeraHeapProcess.check(!inH2(pinned) && holders[3].big == pinned, "the array a static field refers to stayed");
            youngPauses(2);
            long holdersNow = 0;
            for (Holder h : holders) {
                holdersNow += h.sum();
            }
            TeraHeapProcess.check(holdersNow == holdersSum, "the humongous arrays read back the same");
            onStack = null;

            // A humongous array an old object refers to as well, which G1 may keep in the array's
            // remembered set (the "refined" mode refines every card at once): it moves only if G1
            // finds that reference in the pause, and both references agree afterwards.
            long[] b5 = Holder.big(6);
            keeper = new Object[] {b5};
            youngPauses(3);
            Thread.sleep(200);
            withOld = new Holder[] {new Holder(b5)};
            b5 = null;
            final long withOldSum = withOld[0].sum();
            org.teraheap.TeraHeap.tagRoot(withOld, 8);
            org.teraheap.TeraHeap.move(8);
            youngPauses(1);
            TeraHeapProcess.check(inH2(withOld) && keeper[0] == withOld[0].big, "the old object and the group refer to one array");
            youngPauses(2);
            TeraHeapProcess.check(withOld[0].sum() == withOldSum && ((long[]) keeper[0])[9] == 6 * 1_000_003L + 9,
                    "the array an old object refers to reads back the same");

            // Groups of one label, one after the other, as a cache fills; one is dropped.
            many = new Node[24][];
            long manySum = 0;
            for (int g = 0; g < many.length; g++) {
                youngPauses(1);
                many[g] = nodes(1_000_000L * (g + 1), 2_000);
                manySum += sum(many[g]);
                org.teraheap.TeraHeap.tagRoot(many[g], 4);
                org.teraheap.TeraHeap.move(4);
                youngPauses(1);
                TeraHeapProcess.check(inH2(many[g]) && inH2(many[g][1_999]), "group " + g + " moved at the next pause");
            }
            youngPauses(4);
            long manyNow = 0;
            for (Node[] g : many) {
                manyNow += sum(g);
            }
            TeraHeapProcess.check(manyNow == manySum, "the groups of one label read back the same");

            // A group that is dropped once in H2: a cycle frees its region.
            youngPauses(1);
            Node[] drop = nodes(5_000_000, 5_000);
            org.teraheap.TeraHeap.tagRoot(drop, 5);
            org.teraheap.TeraHeap.move(5);
            youngPauses(1);
            TeraHeapProcess.check(inH2(drop), "the group to drop moved");
            dropped = new WeakReference<>(drop);
            drop = null;
            final long before = org.teraheap.TeraHeap.stats().regionsFreed();
            for (int i = 0; i < 400 && (org.teraheap.TeraHeap.stats().regionsFreed() == before || dropped.get() != null); i++) {
                youngPauses(1);
                if (i % 16 == 15) {
                    System.gc();   // ExplicitGCInvokesConcurrent: a concurrent cycle
                }
            }
            TeraHeapProcess.check(dropped.get() == null && org.teraheap.TeraHeap.stats().regionsFreed() > before,
                    "a cycle freed the dropped group's region");
            TeraHeapProcess.check(sum(young) == youngSum + stored && sum(mixed) == mixedSum, "live groups read back the same");
            manyNow = 0;
            for (Node[] g : many) {
                manyNow += sum(g);
            }
            TeraHeapProcess.check(manyNow == manySum, "the groups of one label read back the same after reclamation");
            holdersNow = 0;
            for (Holder h : holders) {
                holdersNow += h.sum();
            }
            TeraHeapProcess.check(holdersNow == holdersSum, "the humongous arrays read back the same after reclamation");
            TeraHeapProcess.check(fullGCs() == 0, "no full GC ran: " + fullGCs());
            System.out.println("PAUSE-MOVE-OK moved=" + org.teraheap.TeraHeap.stats().bytesMoved()
                    + " young=" + youngPauses());
        }
    }

    /** Child: what a pause left in H1 (a promoted part) moves at the next full GC, its root in H2. */
    public static class LeftBehind {
        public static void main(String[] args) throws Exception {
            final long mixedSum = moveWithPromotedPart();
            // Stored into the group since its pause: moves with the rest.
            final long expected = mixedSum - ((Node) mixed[10].extra).sum() + new Node(7).sum();
            mixed[10].extra = new Node(7);
            System.gc();
            TeraHeapProcess.check(fullGCs() == 1, "a full GC ran");
            TeraHeapProcess.check(inH2(mixed[3].extra) && inH2(mixed[4_999].extra) && inH2(((Node) mixed[3].extra).name)
                    && inH2(mixed[10].extra), "the full GC moved what the pause left in H1");
            TeraHeapProcess.check(sum(mixed) == expected, "the group reads back the same");
            youngPauses(2);
            System.gc();
            TeraHeapProcess.check(sum(mixed) == expected && inH2(mixed[3].extra), "it stays in H2 and reads back the same");
            System.out.println("LEFT-BEHIND-OK");
        }
    }

    /** Child: -XX:-TeraHeapG1MoveInPauses: young pauses move nothing; the full GC moves. */
    public static class FullGcOnly {
        public static void main(String[] args) throws Exception {
            young = nodes(1_000, 2_000);
            final long youngSum = sum(young);
            org.teraheap.TeraHeap.tagRoot(young, 1);
            org.teraheap.TeraHeap.move(1);
            youngPauses(3);
            TeraHeapProcess.check(!inH2(young) && !inH2(young[5]), "no young pause moved the group");
            System.gc();
            TeraHeapProcess.check(inH2(young) && inH2(young[5]), "the full GC moved it");
            TeraHeapProcess.check(sum(young) == youngSum, "it reads back the same");
            System.out.println("FULL-ONLY-OK");
        }
    }

    public static void main(String[] args) throws Exception {
        String[] verify = {"-XX:+UnlockDiagnosticVMOptions", "-XX:+VerifyBeforeGC", "-XX:+VerifyAfterGC",
            "-XX:+VerifyDuringGC"};
        String[] cycles = {"-XX:InitiatingHeapOccupancyPercent=0", "-XX:-G1UseAdaptiveIHOP"};
        List<String[]> modes = new ArrayList<>();
        modes.add(new String[] {});
        modes.add(new String[] {"-Xint"});
        modes.add(cycles);
        modes.add(concat(verify, cycles));
        modes.add(concat(concat(verify, cycles), "-XX:ParallelGCThreads=8"));
        modes.add(concat(verify, "-XX:-UseCompressedOops"));
        // Refined: every card refined as soon as a buffer of them is complete, so that old
        // objects' references reach remembered sets.
        modes.add(concat(verify, "-XX:-G1UseAdaptiveConcRefinement", "-XX:G1ConcRefinementGreenZone=0",
                "-XX:G1ConcRefinementYellowZone=1", "-XX:G1ConcRefinementRedZone=2", "-XX:G1UpdateBufferSize=1"));
        for (String[] mode : modes) {
            OutputAnalyzer out = run(Pauses.class, concat(mode, "-XX:+ExplicitGCInvokesConcurrent"));
            out.shouldHaveExitValue(0);
            out.shouldContain("PAUSE-MOVE-OK");
            TeraHeapProcess.check(TeraHeapProcess.count(out, "Pause Full") == 0, "no full GC in the log");
            TeraHeapProcess.check(TeraHeapProcess.count(out, "to H2 in the pause") >= 31,
                    "a move per group, each in a young pause: " + TeraHeapProcess.count(out, "to H2 in the pause"));
        }
        for (String[] mode : List.of(new String[] {}, concat(verify, cycles))) {
            OutputAnalyzer out = run(LeftBehind.class, mode);
            out.shouldHaveExitValue(0);
            out.shouldContain("LEFT-BEHIND-OK");
            out.shouldContain("(1 in part)");
        }
        OutputAnalyzer out = run(FullGcOnly.class, "-XX:-TeraHeapG1MoveInPauses");
        out.shouldHaveExitValue(0);
        out.shouldContain("FULL-ONLY-OK");
        TeraHeapProcess.check(TeraHeapProcess.count(out, "to H2 in the pause") == 0, "no pause moved");
    }

    static OutputAnalyzer run(Class<?> main, String... mode) throws Exception {
        List<String> flags = new ArrayList<>(List.of("-XX:+EnableTeraHeap"));
        flags.addAll(List.of(TeraHeapProcess.G1_FLAGS));
        flags.addAll(List.of("-Xms256m", "-Xmx256m", "-XX:TeraHeapSize=1g", "-XX:TeraHeapRegionSize=8m",
                "-XX:G1HeapRegionSize=1m", "-XX:MaxTenuringThreshold=0", "-Xlog:gc,gc+teraheap"));
        flags.addAll(List.of(mode));
        flags.add(main.getName());
        return TeraHeapProcess.run(flags.toArray(new String[0]));
    }

    static String[] concat(String[] a, String... b) {
        String[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
