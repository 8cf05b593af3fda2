import java.util.ArrayList;
import java.util.List;

import org.teraheap.TeraHeap;

/**
 * GC pauses with a given amount of data in H2 and a small, fixed H1 live set, for comparing pauses
 * as H2 grows (benchmarks/gc/scale.sh). The data is groups of 1 MB (an Object[] of 128 records of
 * 8 KB long[]), 31 groups per label (32 would fill a 32 MB region to its last 32 KB, and the
 * parallel move's buffer tails then spill each label into a second region), moved 256 MB at a
 * time so that H1 never holds much of it;
 * once moved, nothing writes it again (a cache, mostly clean cards). Then, with the kernel's
 * writeback done, it runs the given number of full GCs (System.gc()) and of minor GCs (young
 * garbage) that the GC log times; with "cycles" (G1), as many rounds of old garbage too (objects
 * that live through a young pause, then die), which start concurrent cycles and the mixed pauses
 * after them.
 *   java ... H2Scale <GB in H2> <GCs to time> [cycles]
 */
public class H2Scale {
    static final int GROUP_RECORDS = 128;
    static final int RECORD_LONGS = 1020;   // 8 KB with its header
    static final int GROUPS_PER_LABEL = 31;
    static volatile byte[] garbage;
    static volatile Object[] survivor;

    /** Young garbage: `bytes` of arrays that nothing keeps. */
    static long youngGarbage(long bytes) {
        long sink = 0;
        for (long allocated = 0; allocated < bytes; allocated += 64 << 10) {
            garbage = new byte[64 << 10];   // escapes: the JIT cannot drop the allocation
            sink += garbage.length;
        }
        return sink;
    }

    static Object[] group(long id) {
        Object[] records = new Object[GROUP_RECORDS];
        for (int i = 0; i < records.length; i++) {
            long[] record = new long[RECORD_LONGS];
            record[0] = id;
            record[RECORD_LONGS - 1] = i;
            records[i] = record;
        }
        return records;
    }

    public static void main(String[] args) throws Exception {
        int gb = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        List<Object[]> groups = new ArrayList<>();
        long moveStart = System.nanoTime();
        for (long g = 0; g < gb * 1024L; g++) {
            Object[] group = group(g);
            TeraHeap.tagRoot(group, 1 + g / GROUPS_PER_LABEL);
            TeraHeap.move(1 + g / GROUPS_PER_LABEL);
            groups.add(group);
            if (g % 256 == 255) {
                System.gc();
            }
        }
        System.gc();
        double moveS = (System.nanoTime() - moveStart) / 1e9;
        if (gb > 0 && !TeraHeap.isInH2(groups.get(groups.size() - 1))) {
            throw new IllegalStateException("the data did not move to H2: is TeraHeapSize large enough?");
        }
        long writebackMs = FullGcPause.waitForWriteback();

        for (int r = 0; r < rounds; r++) {
            System.gc();
        }
        // Minor GCs: 1 GB of young garbage per round (two or three GCs), nothing survives.
        long sink = 0;
        for (int r = 0; r < rounds; r++) {
            sink += youngGarbage(1L << 30);
        }
        // Old garbage: 256 MB of small arrays promoted by the young pauses of the next GB, then
        // dropped but for one in 16, kept a few rounds longer. Its old regions fill the heap past
        // the initiating occupancy, and a cycle finds them mostly dead: mixed pauses follow.
        boolean cycles = args.length > 2 && args[2].equals("cycles");
        Object[] longLived = new Object[1 << 15];
        int kept = 0;
        for (int r = 0; cycles && r < rounds; r++) {
            Object[] chunk = new Object[1 << 18];
            for (int i = 0; i < chunk.length; i++) {
                chunk[i] = new long[126];   // 1 KB
                if (i % 16 == 0) {
                    longLived[kept++ % longLived.length] = chunk[i];
                }
            }
            survivor = chunk;
            chunk = null;
            sink += youngGarbage(1L << 30);
            survivor = null;
            sink += youngGarbage(512L << 20);
        }

        for (int g = 0; g < groups.size(); g += 97) {
            long[] record = (long[]) groups.get(g)[g % GROUP_RECORDS];
            if (record[0] != g || record[RECORD_LONGS - 1] != g % GROUP_RECORDS) {
                throw new IllegalStateException("group " + g + " damaged");
            }
        }
        System.out.printf("h2GB=%d usedMB=%d regions=%d moveS=%.1f writebackWaitMs=%d sink=%d%n", gb,
                TeraHeap.stats().usedBytes() >> 20, TeraHeap.stats().regionsInUse(), moveS, writebackMs, sink);
    }
}
