/**
 * Reference stores, nothing else: each goes through the post-write (card-marking) barrier. Old
 * arrays and nodes are written with references to other old objects, in a pattern that spreads
 * over all their cards, with no allocation in the timed loop and no H2 use.
 *   java ... StoreHeavy [rounds]
 * Prints the nanoseconds per store of each round after warm-up, and their median.
 */
public class StoreHeavy {
    static final class Node {
        Node next;
        Object payload;
    }

    // Small enough to stay in the CPU's caches, so that the barrier, not memory, is what a store costs.
    static final int SLOTS = 1 << 16;   // 256 KB of array slots: 512 cards
    static final int NODES = 1 << 14;
    static final long STORES = 1L << 28;

    static long storeRound(Object[] slots, Node[] nodes) {
        long start = System.nanoTime();
        int mask = SLOTS - 1;
        int nodeMask = NODES - 1;
        for (long i = 0; i < STORES / 2; i++) {
            int k = (int) (i * 7919) & mask;
            Node n = nodes[k & nodeMask];
            slots[k] = n;                            // array store
            n.next = nodes[(k + 1) & nodeMask];      // field store
        }
        return System.nanoTime() - start;
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        Object[] slots = new Object[SLOTS];
        Node[] nodes = new Node[NODES];
        for (int i = 0; i < NODES; i++) {
            nodes[i] = new Node();
        }
        System.gc();   // everything old: the barrier marks old cards, as in a long-lived cache
        storeRound(slots, nodes);   // warm-up: compiled by C2
        storeRound(slots, nodes);
        double[] ns = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            ns[r] = (double) storeRound(slots, nodes) / STORES;
        }
        double[] sorted = ns.clone();
        java.util.Arrays.sort(sorted);
        StringBuilder all = new StringBuilder();
        for (double v : ns) {
            all.append(String.format("%.3f ", v));
        }
        System.out.printf("nsPerStore=%s median=%.4f%n", all.toString().trim(), sorted[rounds / 2]);
    }
}
