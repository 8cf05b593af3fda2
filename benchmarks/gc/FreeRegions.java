import java.util.ArrayList;
import java.util.List;

import org.teraheap.TeraHeap;

/**
 * The full GC that frees H2's regions: moves the given megabytes into H2 (int arrays in groups of
 * just under 4 MB, eight groups per label), drops them all, and prints the pause of the System.gc()
 * that frees them next to the one after it, which frees nothing. Run with -Xlog:gc+teraheap to see
 * TeraHeap's own step ("freed N regions").
 */
public class FreeRegions {
    public static void main(String[] args) {
        int mb = Integer.parseInt(args[0]);
        List<int[][]> groups = new ArrayList<>();
        for (int g = 0; g < mb / 4; g++) {
            int[][] group = new int[64][];
            for (int i = 0; i < group.length; i++) {
                group[i] = new int[(64 << 10) / 4 - 8];
                group[i][0] = g;
            }
            TeraHeap.tagRoot(group, 1 + g / 8);
            TeraHeap.move(1 + g / 8);
            groups.add(group);
            if (groups.size() % 64 == 0) {
                System.gc();   // move as we go: H1 needs to hold only 256 MB at a time
            }
        }
        System.gc();
        long inUse = TeraHeap.stats().regionsInUse();
        groups = null;
        long start = System.nanoTime();
        System.gc();
        double freeing = (System.nanoTime() - start) / 1e6;
        start = System.nanoTime();
        System.gc();
        double after = (System.nanoTime() - start) / 1e6;
        if (TeraHeap.stats().regionsInUse() != 0) {
            throw new IllegalStateException("regions still in use: " + TeraHeap.stats());
        }
        System.out.printf("mb=%d regions=%d freeingMs=%.1f nextMs=%.1f%n", mb, inUse, freeing, after);
        // The freed storage goes back to the file system after the pause: let that finish, so
        // that its log lines (the time it took) are all written before the JVM exits.
        try {
            Thread.sleep(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
