import org.teraheap.TeraHeap;

/**
 * Puts 256 MB in H2 (four groups of 64 one-MB arrays, each moved by its own full GC, so that a
 * small H1 suffices), then reads it back over and over, checking every value it samples. With H2's
 * pages evicted between rounds (the test runs it under a memory cap), every round reads the device.
 * Prints "READY" once the data is in H2 and "round N ok" per round; exits 2 on a wrong value.
 */
public class H2Reader {
    public static void main(String[] args) throws Exception {
        final int arrays = 256, longs = 128 << 10;
        long[][] data = new long[arrays][];
        // The groups' roots stay reachable: TeraHeap holds tagged roots weakly, and a root only the
        // tag refers to is not moved (its arrays, reachable through data, would then stay in H1).
        long[][][] groups = new long[4][][];
        for (int g = 0; g < 4; g++) {
            long[][] group = new long[arrays / 4][];
            groups[g] = group;
            for (int i = 0; i < group.length; i++) {
                long[] a = new long[longs];
                int index = g * group.length + i;
                for (int k = 0; k < longs; k++) {
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
            if (!TeraHeap.isInH2(a)) {
                System.out.println("NOT-IN-H2");
                System.exit(3);
            }
        }
        System.out.println("READY");
        System.out.flush();
        for (long round = 1; ; round++) {
            for (int index = 0; index < arrays; index++) {
                long[] a = data[index];
                for (int k = 0; k < longs; k += 512) {
                    if (a[k] != index * 1_000_003L + k) {
                        System.out.println("WRONG value at array " + index + " element " + k + ": " + a[k]);
                        System.exit(2);
                    }
                }
            }
            System.out.println("round " + round + " ok");
            System.out.flush();
            Thread.sleep(100);
        }
    }
}
