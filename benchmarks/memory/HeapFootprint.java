import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;

/** H1 bytes used by a fixed object graph after a full GC: shows TeraHeap adds nothing per object. */
public class HeapFootprint {
    static final class Rec {
        long a;
        int b;
        Object c;
    }

    public static void main(String[] args) {
        Map<Integer, Rec[]> graph = new HashMap<>();
        for (int i = 0; i < 2000; i++) {
            Rec[] recs = new Rec[500];
            for (int j = 0; j < recs.length; j++) {
                recs[j] = new Rec();
                recs[j].c = (j % 2 == 0) ? recs : null;
            }
            graph.put(i, recs);
        }
        System.gc();
        System.gc();
        long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        System.out.println("h1UsedBytes=" + used + " objects=" + (graph.size() * 501L));
    }
}
