/*
 * @test
 * @summary Under G1, what a pause leaves in H1 of a group whose root it moved (parts that were
 *          old when the move() came, and a part stored into the group since) leaves for H2 at
 *          the mixed pauses after the next marking cycle, with no full GC: those pauses read the
 *          label's oldgen cards, so that the regions they refer into may be collected, and move
 *          what the label's fields lead to in their collection set. The group reads back the
 *          same. Plain, and under -XX:+VerifyBeforeGC -XX:+VerifyAfterGC -XX:+VerifyDuringGC
 *          (also with 8 GC threads, all working in every pause, so that several walk the
 *          label's regions at once).
 *          Some mixed pause must have optional regions H2 refers into: its walk of the label's
 *          cards must leave those cards for the pause's card scan to read, which then keeps
 *          the regions out of the pause.
 * @library /lib /test/lib
 * @run main/othervm/timeout=1200 TestTeraHeapG1LeftBehind
 */

import java.util.List;
import java.util.regex.Pattern;

import jdk.test.lib.process.OutputAnalyzer;

public class TestTeraHeapG1LeftBehind {
    static final int PARTS = 480;             // 30 MB of 64 KB arrays: 12% of H1
    static final int PART_BYTES = 64 * 1024;  // below half a 1 MB region: not humongous

    static byte[] part(int i) {
        byte[] b = new byte[PART_BYTES];
        for (int k = 0; k < b.length; k++) {
            b[k] = (byte) (i * 37 + k);
        }
        return b;
    }

    static long sum(Object[] group) {
        long s = 0;
        for (int i = 0; i < group.length; i++) {
            byte[] b = (byte[]) group[i];
            for (int k = 0; k < b.length; k += 61) {
                s += (i + 1) * (long) b[k];
            }
        }
        return s;
    }

    static int partsInH2(Object[] group) {
        int n = 0;
        for (Object b : group) {
            n += org.teraheap.TeraHeap.isInH2(b) ? 1 : 0;
        }
        return n;
    }

    // A field, not a local: the interpreter keeps a local's value alive until its slot is reused.
    static Object[] group;
    static byte[][] filler;

    public static class Child {
        public static void main(String[] args) throws Exception {
            byte[][] parts = new byte[PARTS][];
            for (int i = 0; i < PARTS; i++) {
                parts[i] = part(i);
            }
            TeraHeapProcess.g1YoungPauses(1);   // -XX:MaxTenuringThreshold=0: the parts are old
            // The root is young when its move() comes: the next pause moves it and leaves the parts.
            group = new Object[PARTS];
            System.arraycopy(parts, 0, group, 0, PARTS);
            parts = null;
            org.teraheap.TeraHeap.tagRoot(group, 1);
            org.teraheap.TeraHeap.move(1);
            TeraHeapProcess.g1YoungPauses(1);
            TeraHeapProcess.check(org.teraheap.TeraHeap.isInH2(group), "the pause moved the young root");
            TeraHeapProcess.check(partsInH2(group) == 0, "the old parts stayed in H1: " + partsInH2(group) + " moved");
            // A part stored into the group since, young, then old by the cycle.
            group[PARTS - 1] = part(PARTS - 1);
            final long expected = sum(group);
            // Promoted data that fills G1's old allocation region, which mixed pauses never
            // collect, past the parts' regions.
            filler = new byte[48][];
            for (int i = 0; i < filler.length; i++) {
                filler[i] = new byte[PART_BYTES];
            }
            TeraHeapProcess.g1YoungPauses(2);
            TeraHeapProcess.check(partsInH2(group) == 0, "young pauses leave the parts: " + partsInH2(group) + " moved");

            // Concurrent cycles (-XX:+ExplicitGCInvokesConcurrent), then the pauses after them.
            for (int round = 0; round < 30 && partsInH2(group) < PARTS; round++) {
                System.gc();
                TeraHeapProcess.g1YoungPauses(12);
            }
            TeraHeapProcess.check(partsInH2(group) == PARTS, "mixed pauses moved the parts: "
                    + partsInH2(group) + " of " + PARTS);
            TeraHeapProcess.check(sum(group) == expected, "the group reads back the same");
            TeraHeapProcess.check(TeraHeapProcess.collections("G1 Old Generation") == 0, "no full GC ran");
            TeraHeapProcess.g1YoungPauses(3);
            System.gc();
            TeraHeapProcess.g1YoungPauses(12);
            TeraHeapProcess.check(sum(group) == expected, "it still reads back the same");
            System.out.println("LEFT-BEHIND-OK");
        }
    }

    public static void main(String[] args) throws Exception {
        String[] verify = TeraHeapProcess.G1_VERIFY;
        long raised = 0;
        for (String[] mode : List.of(new String[] {}, verify, TeraHeapProcess.concat(verify, "-XX:ParallelGCThreads=8", "-XX:-UseDynamicNumberOfGCThreads"))) {
            OutputAnalyzer out = TeraHeapProcess.runOnG1(Child.class, mode, "-Xms256m", "-Xmx256m",
                    "-XX:TeraHeapSize=1g", "-XX:TeraHeapRegionSize=8m", "-XX:G1HeapRegionSize=1m",
                    "-XX:MaxTenuringThreshold=0", "-XX:+ExplicitGCInvokesConcurrent", "-Xlog:gc,gc+teraheap=debug");
            out.shouldContain("LEFT-BEHIND-OK");
            out.shouldContain("(1 in part)");
            out.shouldMatch("[1-9][0-9]* old regions hold what pauses left of groups");
            out.shouldMatch("Moved [1-9][0-9]* objects \\([0-9]+K\\) that pauses left in H1");
            TeraHeapProcess.check(TeraHeapProcess.count(out, "Pause Young (Mixed)") > 0, "mixed pauses ran");
            TeraHeapProcess.check(TeraHeapProcess.count(out, "Pause Full") == 0, "no full GC in the log");
            raised += Pattern.compile("Raised [1-9]").matcher(out.getStdout()).results().count();
        }
        // Which regions are optional depends on G1's time predictions: some run, not each.
        TeraHeapProcess.check(raised > 0, "a walk left cards for its pause to read");
    }
}
