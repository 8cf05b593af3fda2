import org.teraheap.TeraHeap;

/**
 * What the first store into a given-back page of H2's cards costs (benchmarks/gc/card-faults.sh).
 * 512 groups of 2 MB (an Object[] holding one 2 MB long[]) move to H2, so each group's Object[]
 * sits on a page of cards of its own (a 4 KB page of cards spans 2 MB of H2). Each round stores
 * null into every group's Object[] (the barrier dirties its card, faulting its page back in) and
 * times those 512 stores, then the same stores again (pages mapped in); two full GCs then find
 * the cards clean again and give the pages back. Prints the median times per store over the rounds.
 *   java ... CardFaults <rounds>
 */
public class CardFaults {
    static final int GROUPS = 512;

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        Object[][] groups = new Object[GROUPS][];
        for (int g = 0; g < GROUPS; g++) {
            long[] data = new long[(2 << 20) / 8 - 4];
            data[0] = g;
            groups[g] = new Object[] {data};
            TeraHeap.tagRoot(groups[g], 1 + g / 8);
            TeraHeap.move(1 + g / 8);
            if (g % 64 == 63) {
                System.gc();
            }
        }
        System.gc();
        System.gc();   // the moved groups' cards found clean: their pages given back
        if (!TeraHeap.isInH2(groups[GROUPS - 1])) {
            throw new IllegalStateException("the groups did not move to H2");
        }
        Object[] seen = new Object[GROUPS];
        for (int g = 0; g < GROUPS; g++) {
            seen[g] = groups[g][0];
        }
        double[] perStore = new double[rounds];
        double[] perStoreResident = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            long start = System.nanoTime();
            for (int g = 0; g < GROUPS; g++) {
                groups[g][0] = (r & 1) == 0 ? null : seen[g];
            }
            perStore[r] = (System.nanoTime() - start) / 1e3 / GROUPS;
            // The same stores again, their pages now mapped in: the barrier's own cost.
            start = System.nanoTime();
            for (int g = 0; g < GROUPS; g++) {
                groups[g][0] = (r & 1) == 0 ? null : seen[g];
            }
            perStoreResident[r] = (System.nanoTime() - start) / 1e3 / GROUPS;
            System.gc();
            System.gc();
        }
        for (int g = 0; g < GROUPS; g++) {
            Object kept = groups[g][0];
            if (kept != null && ((long[]) kept)[0] != g) {
                throw new IllegalStateException("group " + g + " damaged");
            }
        }
        java.util.Arrays.sort(perStore);
        java.util.Arrays.sort(perStoreResident);
        System.out.printf("usPerFirstStore=%.3f usPerStoreResident=%.3f%n", perStore[rounds / 2],
                perStoreResident[rounds / 2]);
    }
}
