/*
 * @test
 * @summary Object arrays larger than an H2 region (80 MB, 16 MB regions), with elements left in
 *          H1 (Class and Reference objects never move): they move, stay intact, and a minor GC
 *          that must read every card of such an array costs no more than twice what the same
 *          array costs the stock card scan while it is in H1's old generation.
 * @library /lib /test/lib
 * @run main/othervm/timeout=1800 TestTeraHeapLargeArrays
 */

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.util.Arrays;

import org.teraheap.TeraHeap;

public class TestTeraHeapLargeArrays {
    static void check(boolean ok, String what) {
        if (!ok) {
            throw new RuntimeException("failed: " + what);
        }
    }

    /** Child: the scenario, run under whatever flags the parent chose. */
    public static class Scenario {
        static final int length = 20_000_000;   // 80 MB of compressed references, 160 MB of plain ones
        static Object sink;

        static GarbageCollectorMXBean scavenger() {
            for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
                if (b.getName().equals("PS Scavenge")) {
                    return b;
                }
            }
            throw new IllegalStateException("no PS Scavenge collector");
        }

        /** Every element written (every card dirty), then one minor GC; its time in ms. */
        static long minorGCWithDirtyArray(Object[] big, int round) {
            GarbageCollectorMXBean young = scavenger();
            Object fresh = new int[] {round};
            for (int i = 0; i < big.length; i++) {
                if (!(big[i] instanceof Class) && !(big[i] instanceof WeakReference)) {
                    big[i] = fresh;
                }
            }
            long count = young.getCollectionCount();
            long time = young.getCollectionTime();
            while (young.getCollectionCount() == count) {
                sink = new byte[64 << 10];
            }
            return young.getCollectionTime() - time;
        }

        static long medianMinorGC(Object[] big) {
            long[] times = new long[5];
            for (int r = 0; r < times.length; r++) {
                times[r] = minorGCWithDirtyArray(big, r);
                for (int i = 0; i < big.length; i += 4099) {
                    Object e = big[i];
                    check(e instanceof Class || e instanceof WeakReference
                          || (e instanceof int[] && ((int[]) e)[0] == r), "element " + i + " after minor GC");
                }
            }
            Arrays.sort(times);
            return times[times.length / 2];
        }

        public static void main(String[] args) throws Exception {
            check(TeraHeap.isEnabled(), "TeraHeap is on");
            WeakReference<Object> weak = new WeakReference<>(TestTeraHeapLargeArrays.class);
            Object[] big = new Object[length];
            for (int i = 0; i < length; i += 1000) {
                big[i] = (i % 2000 == 0) ? String.class : weak;   // stay in H1: backward references
            }
            System.gc();
            System.gc();
            check(!TeraHeap.isInH2(big), "the array starts in H1");
            long inH1 = medianMinorGC(big);

            TeraHeap.tagRoot(big, 1);
            TeraHeap.move(1);
            TeraHeapProcess.fullGC();
            check(TeraHeap.isInH2(big), "the array moved");
            check(TeraHeap.isInH2(big[1]) && !TeraHeap.isInH2(big[0]) && !TeraHeap.isInH2(big[1000]),
                  "its elements moved, Class and Reference objects excepted");
            for (int f = 0; f < 3; f++) {
                TeraHeapProcess.fullGC();   // full GCs read the non-clean cards of the whole array
            }
            long inH2 = medianMinorGC(big);
            System.out.println("minor GC with every card of the array dirty: " + inH1 + " ms in H1, "
                               + inH2 + " ms in H2");
            // Heap verification inside the pauses would swamp the comparison.
            boolean verifying = ManagementFactory.getRuntimeMXBean().getInputArguments().contains("-XX:+VerifyBeforeGC");
            check(verifying || inH2 <= 2 * Math.max(inH1, 10), "minor GC over the H2 array within 2x of the H1 one: "
                  + inH2 + " ms against " + inH1 + " ms");
            for (int i = 0; i < length; i += 1000) {
                check(big[i] == ((i % 2000 == 0) ? String.class : weak), "backward reference " + i);
            }
            check(weak.get() == TestTeraHeapLargeArrays.class, "weak reference kept");
            System.out.println("LARGE-ARRAYS-OK");
        }
    }

    public static void main(String[] args) throws Exception {
        TeraHeapProcess.runInEveryMode(Scenario.class.getName(), "LARGE-ARRAYS-OK",
                "-Xmx768m", "-Xmn64m", "-XX:TeraHeapSize=512m", "-XX:TeraHeapRegionSize=16m");
    }
}
