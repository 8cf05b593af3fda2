import java.util.ArrayList;
import java.util.List;

import org.teraheap.H2Stats;
import org.teraheap.TeraHeap;

/**
 * A cache of partitions, each a linked list of records, tagged as TeraHeap groups and advised
 * to move; then a full GC, and what the JVM says about where the partitions live.
 */
public class Demo {
    static final class Rec {
        final long id;
        final byte[] payload = new byte[100];
        Rec next;

        Rec(long id) {
            this.id = id;
        }
    }

    public static void main(String[] args) {
        int partitions = 8;
        int recordsPerPartition = 50_000;
        System.out.println("TeraHeap enabled: " + TeraHeap.isEnabled());

        List<Rec> cache = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            Rec head = null;
            for (int i = 0; i < recordsPerPartition; i++) {
                Rec r = new Rec((long) p * recordsPerPartition + i);
                r.next = head;
                head = r;
            }
            cache.add(head);
            TeraHeap.tagRoot(head, p);   // the partition's label: its number
            TeraHeap.move(p);            // ready to leave H1 at the next full GC
        }
        System.out.println("Cached " + partitions + " partitions of " + recordsPerPartition
                + " records (" + (partitions * recordsPerPartition * 150L >> 20) + " MB); tagged and advised to move");
        System.gc();

        int inH2 = 0;
        long sum = 0;
        for (Rec head : cache) {
            inH2 += TeraHeap.isInH2(head) ? 1 : 0;
            for (Rec r = head; r != null; r = r.next) {
                sum += r.id;
            }
        }
        long n = (long) partitions * recordsPerPartition;
        System.out.println("After a full GC: " + inH2 + " of " + partitions + " partitions in H2; records intact: "
                + (sum == n * (n - 1) / 2));
        H2Stats s = TeraHeap.stats();
        System.out.println("H2: " + (s.capacityBytes() >> 20) + " MB capacity, " + (s.usedBytes() >> 20)
                + " MB used, " + s.regionsInUse() + " regions in use, " + (s.bytesMoved() >> 20) + " MB moved, "
                + s.taggedRoots() + " tagged roots, " + s.movableLabels() + " labels advised to move");
    }
}
