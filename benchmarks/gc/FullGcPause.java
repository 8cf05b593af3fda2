import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.teraheap.H2Stats;
import org.teraheap.TeraHeap;

/**
 * Full-GC pause with a cache of small linked objects kept in H1, moved to H2, or absent.
 *   java ... FullGcPause <empty|h1|h2> <cache MB> [full GCs to time]
 * Prints one line of key=value pairs.
 */
public class FullGcPause {
    static final class Item {
        final long key;
        long value;
        Item next;

        Item(long key) {
            this.key = key;
            this.value = key * 31;
        }
    }

    static final int PARTITIONS = 64;
    static final long ITEM_BYTES = 32;   // header 12 + 8 + 8 + 4 (compressed oops), aligned

    /** Page-cache data waiting to be written back (Dirty + Writeback in /proc/meminfo), in KB. */
    static long dirtyKb() {
        long kb = 0;
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Paths.get("/proc/meminfo"))) {
                if (line.startsWith("Dirty:") || line.startsWith("Writeback:")) {
                    kb += Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (java.io.IOException e) {
            // not Linux: nothing to wait for
        }
        return kb;
    }

    static long waitForWriteback() {
        long start = System.nanoTime();
        try {
            while (dirtyKb() > 64 * 1024 && System.nanoTime() - start < 120_000_000_000L) {
                Thread.sleep(200);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return (System.nanoTime() - start) / 1_000_000;
    }

    public static void main(String[] args) {
        String mode = args[0];
        long cacheMb = Long.parseLong(args[1]);
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;

        List<Item> cache = new ArrayList<>();
        long buildNanos = System.nanoTime();
        if (!mode.equals("empty")) {
            long perPartition = (cacheMb << 20) / ITEM_BYTES / PARTITIONS;
            for (int p = 0; p < PARTITIONS; p++) {
                Item head = null;
                for (long i = 0; i < perPartition; i++) {
                    Item it = new Item(p * perPartition + i);
                    it.next = head;
                    head = it;
                }
                cache.add(head);
                if (mode.equals("h2")) {
                    TeraHeap.tagRoot(head, p);
                    TeraHeap.move(p);
                }
            }
        }
        buildNanos = System.nanoTime() - buildNanos;

        GarbageCollectorMXBean full = null;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc.getName().contains("MarkSweep")) {
                full = gc;
            }
        }
        // The first full GC settles the heap (and moves the cache, in h2 mode).
        long t0 = full.getCollectionTime();
        System.gc();
        long firstMs = full.getCollectionTime() - t0;
        H2Stats moved = TeraHeap.stats();

        // A move leaves the mapped file's pages dirty; the kernel writes them back over the next
        // seconds, taking CPU. Time the pauses once that is done, as in a long-running job.
        long settledMs = waitForWriteback();

        long[] pauses = new long[rounds];
        for (int r = 0; r < rounds; r++) {
            long before = full.getCollectionTime();
            System.gc();
            pauses[r] = full.getCollectionTime() - before;
        }
        long[] sorted = pauses.clone();
        Arrays.sort(sorted);

        long check = 0;
        for (Item head : cache) {
            for (Item it = head; it != null; it = it.next) {
                check += it.value - it.key * 31;
            }
        }
        if (check != 0) {
            throw new RuntimeException("cache corrupted");
        }
        System.out.printf("mode=%s cacheMB=%d buildS=%.1f firstFullGcMs=%d movedMB=%d objectsMoved=%d writebackWaitMs=%d "
                        + "fullGcMs=%s medianFullGcMs=%d inH2=%b%n",
                mode, cacheMb, buildNanos / 1e9, firstMs, moved.bytesMoved() >> 20, moved.objectsMoved(), settledMs,
                Arrays.toString(pauses), sorted[rounds / 2], !cache.isEmpty() && TeraHeap.isInH2(cache.get(0)));
    }
}
