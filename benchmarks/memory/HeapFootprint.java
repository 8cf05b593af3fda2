import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.util.HashMap;
import java.util.Map;

/** H1 bytes a fixed object graph takes after a full GC: shows TeraHeap adds nothing per object. */
public class HeapFootprint {
    static final class Rec {
        long a;
        int b;
        Object c;
    }

    static long usedAfterFullGc() {
        System.gc();
        System.gc();
        // The old generation alone: a full GC leaves every live object there, while the young
        // generation counts whole TLABs handed out after it, whose size varies from run to run.
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getName().endsWith("Old Gen")) {
                return pool.getUsage().getUsed();
            }
        }
        throw new IllegalStateException("no old generation pool: run with -XX:+UseParallelGC");
    }

    public static void main(String[] args) {
        long before = usedAfterFullGc();
        Map<Integer, Rec[]> graph = new HashMap<>();
        for (int i = 0; i < 2000; i++) {
            Rec[] recs = new Rec[500];
            for (int j = 0; j < recs.length; j++) {
                recs[j] = new Rec();
                recs[j].c = (j % 2 == 0) ? recs : null;
            }
            graph.put(i, recs);
        }
        long used = usedAfterFullGc() - before;
        System.out.println("h1UsedBytes=" + used + " objects=" + (graph.size() * 501L));
    }
}
