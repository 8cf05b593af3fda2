/*
 * @test
 * @summary Under G1, tagged roots that were old when their move() came (as Giraph's edge and
 *          message buffers are) stay in H1 through young pauses, and leave for H2 at the mixed
 *          pauses after the next marking cycle, with no full GC: Remark counts their bytes as
 *          bytes a mixed pause frees, so that their full regions get remembered sets and are
 *          collected. They read back the same, their entries leave the table of tagged roots,
 *          and a root dropped before the cycle is not moved. Plain, and under
 *          -XX:+VerifyBeforeGC -XX:+VerifyAfterGC -XX:+VerifyDuringGC (also with 8 GC threads).
 * @library /lib /test/lib
 * @run main/othervm/timeout=1200 TestTeraHeapG1OldRoots
 */

import java.lang.ref.WeakReference;
import java.util.List;

import jdk.test.lib.process.OutputAnalyzer;

public class TestTeraHeapG1OldRoots {
    static final int BUFFERS = 640;            // 40 MB of 64 KB buffers: 16% of H1
    static final int BUFFER_BYTES = 64 * 1024; // below half a 1 MB region: not humongous

    static byte[] buffer(int i) {
        byte[] b = new byte[BUFFER_BYTES];
        for (int k = 0; k < b.length; k++) {
            b[k] = (byte) (i * 31 + k);
        }
        return b;
    }

    static long sum(byte[][] buffers) {
        long s = 0;
        for (int i = 0; i < buffers.length; i++) {
            for (int k = 0; k < buffers[i].length; k += 61) {
                s += (i + 1) * (long) buffers[i][k];
            }
        }
        return s;
    }

    static int inH2(byte[][] buffers) {
        int n = 0;
        for (byte[] b : buffers) {
            n += org.teraheap.TeraHeap.isInH2(b) ? 1 : 0;
        }
        return n;
    }

    // Fields, not locals: the interpreter keeps a local's value alive until its slot is reused.
    static byte[][] buffers;
    static WeakReference<byte[]> dropped;

    public static class Child {
        public static void main(String[] args) throws Exception {
            buffers = new byte[BUFFERS][];
            for (int i = 0; i < BUFFERS; i++) {
                buffers[i] = buffer(i);
            }
            final long expected = sum(buffers);
            for (byte[] b : buffers) {
                org.teraheap.TeraHeap.tagRoot(b, 1);
            }
            // Dropped once old: its Reference is old by the cycle too, so that marking
            // discovers it rather than tracing its referent from a young region.
            byte[] drop = buffer(-1);
            org.teraheap.TeraHeap.tagRoot(drop, 1);
            dropped = new WeakReference<>(drop);
            TeraHeapProcess.g1YoungPauses(1);   // -XX:MaxTenuringThreshold=0: all promoted
            drop = null;
            org.teraheap.TeraHeap.move(1);
            TeraHeapProcess.g1YoungPauses(2);
            TeraHeapProcess.check(inH2(buffers) == 0 && !org.teraheap.TeraHeap.isInH2(dropped.get()),
                    "old roots stay in H1 through young pauses: " + inH2(buffers) + " moved");

            // Concurrent cycles (-XX:+ExplicitGCInvokesConcurrent), then the pauses after them.
            for (int round = 0; round < 30 && inH2(buffers) < BUFFERS; round++) {
                System.gc();
                TeraHeapProcess.g1YoungPauses(12);
            }
            TeraHeapProcess.check(inH2(buffers) == BUFFERS, "mixed pauses moved the old roots: "
                    + inH2(buffers) + " of " + BUFFERS);
            TeraHeapProcess.check(sum(buffers) == expected, "the moved buffers read back the same");
            TeraHeapProcess.check(dropped.get() == null, "the dropped root died rather than moving");
            TeraHeapProcess.check(org.teraheap.TeraHeap.stats().taggedRoots() == 0,
                    "no tagged root is left in H1: " + org.teraheap.TeraHeap.stats().taggedRoots());
            TeraHeapProcess.check(TeraHeapProcess.collections("G1 Old Generation") == 0, "no full GC ran");
            TeraHeapProcess.g1YoungPauses(3);
            TeraHeapProcess.check(sum(buffers) == expected, "they still read back the same");
            System.out.println("OLD-ROOTS-OK");
        }
    }

    public static void main(String[] args) throws Exception {
        String[] verify = TeraHeapProcess.G1_VERIFY;
        for (String[] mode : List.of(new String[] {}, verify, TeraHeapProcess.concat(verify, "-XX:ParallelGCThreads=8"))) {
            OutputAnalyzer out = TeraHeapProcess.runOnG1(Child.class, mode, "-Xms256m", "-Xmx256m",
                    "-XX:TeraHeapSize=1g", "-XX:TeraHeapRegionSize=8m", "-XX:G1HeapRegionSize=1m",
                    "-XX:MaxTenuringThreshold=0", "-XX:+ExplicitGCInvokesConcurrent", "-Xlog:gc,gc+teraheap=debug");
            out.shouldContain("OLD-ROOTS-OK");
            out.shouldContain("Advised roots left in H1: 640 ");
            TeraHeapProcess.check(TeraHeapProcess.count(out, "Pause Young (Mixed)") > 0, "mixed pauses ran");
            TeraHeapProcess.check(TeraHeapProcess.count(out, "Pause Full") == 0, "no full GC in the log");
        }
    }
}
