/*
 * @test
 * @summary Several mutator threads create partitions, tag and move them, mutate them with
 *          young objects, cross-link and drop them, while full and minor GCs run; every read
 *          is checked against what was written. Plain and under heap verification; and under
 *          G1, with concurrent cycles in place of the full GCs, so that the threads store into
 *          their groups while G1 marks and only marking frees H2's regions (plain, where the
 *          regions cycles leave in use must stay well below H2's size, and verified).
 * @library /lib /test/lib
 * @run main/othervm/timeout=2400 TestTeraHeapSoak
 */

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import jdk.test.lib.process.OutputAnalyzer;
import org.teraheap.TeraHeap;

public class TestTeraHeapSoak {
    static final class Rec {
        final long partition;
        final int index;
        long version;
        Object young;      // a String "partition:index:version", replaced often
        Rec peer;          // a record of another partition (cross-link), or null
        final long[] payload;

        Rec(long partition, int index) {
            this.partition = partition;
            this.index = index;
            this.payload = new long[8 + index % 24];
            for (int i = 0; i < payload.length; i++) {
                payload[i] = partition * 131 + index * 7 + i;
            }
        }

        void check(long expectedVersion) {
            if (version != expectedVersion) {
                throw new RuntimeException("record " + partition + ":" + index + " version " + version
                        + ", wrote " + expectedVersion);
            }
            for (int i = 0; i < payload.length; i++) {
                if (payload[i] != partition * 131 + index * 7 + i) {
                    throw new RuntimeException("record " + partition + ":" + index + " payload corrupted");
                }
            }
            if (young != null && !young.equals(partition + ":" + index + ":" + version)) {
                throw new RuntimeException("record " + partition + ":" + index + " young field " + young);
            }
            if (peer != null && peer.payload[0] != peer.partition * 131 + peer.index * 7) {
                throw new RuntimeException("record " + partition + ":" + index + " peer corrupted");
            }
        }
    }

    static final class Partition {
        final long id;
        final Rec[] recs;
        final long[] versions;   // what this thread last wrote, kept in H1 by the test

        Partition(long id, int size) {
            this.id = id;
            this.recs = new Rec[size];
            for (int i = 0; i < size; i++) {
                recs[i] = new Rec(id, i);
            }
            this.versions = new long[size];
        }
    }

    public static class Soak {
        static final ConcurrentHashMap<Long, Partition> shared = new ConcurrentHashMap<>();
        static final AtomicLong ids = new AtomicLong();
        static volatile boolean stop;

        public static void main(String[] args) throws Exception {
            final long seconds = Long.parseLong(args[0]);
            final int threads = 4;
            List<Thread> workers = new ArrayList<>();
            List<Throwable> failures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                final int seed = t;
                Thread w = new Thread(() -> {
                    try {
                        work(seed);
                    } catch (Throwable e) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                        stop = true;
                    }
                });
                workers.add(w);
                w.start();
            }
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            int explicitGcs = 0;
            while (!stop && System.nanoTime() < end) {
                Thread.sleep(500);
                System.gc();
                explicitGcs++;
            }
            stop = true;
            for (Thread w : workers) {
                w.join();
            }
            if (!failures.isEmpty()) {
                failures.get(0).printStackTrace();
                throw new RuntimeException("a mutator failed", failures.get(0));
            }
            System.out.println("System.gc() calls: " + explicitGcs + ", partitions made: " + ids.get() + ", " + TeraHeap.stats());
            if (TeraHeap.stats().objectsMoved() == 0 || TeraHeap.stats().regionsFreed() == 0) {
                throw new RuntimeException("the soak neither moved nor freed anything");
            }
            System.out.println("SOAK-OK");
        }

        static void work(int seed) {
            Random random = new Random(seed);
            List<Partition> mine = new ArrayList<>();
            long step = 0;
            while (!stop) {
                step++;
                if (mine.size() < 4 || random.nextInt(8) == 0) {
                    Partition p = new Partition(ids.incrementAndGet(), 500 + random.nextInt(1500));
                    TeraHeap.tagRoot(p.recs, p.id);
                    TeraHeap.move(p.id);
                    mine.add(p);
                    shared.put(p.id, p);
                }
                if (mine.size() > 6) {
                    Partition dropped = mine.remove(random.nextInt(mine.size()));
                    shared.remove(dropped.id);
                }
                // Mutate one of my partitions: new versions, fresh young strings, cross-links.
                Partition p = mine.get(random.nextInt(mine.size()));
                for (int k = 0; k < 50; k++) {
                    int i = random.nextInt(p.recs.length);
                    Rec r = p.recs[i];
                    long v = ++p.versions[i];
                    r.version = v;
                    r.young = random.nextInt(4) == 0 ? null : (p.id + ":" + i + ":" + v);
                    Partition other = shared.get(1 + (long) random.nextInt((int) Math.max(1, ids.get())));
                    r.peer = other == null ? null : other.recs[random.nextInt(other.recs.length)];
                }
                // Read back all of one of my partitions.
                Partition q = mine.get(random.nextInt(mine.size()));
                for (int i = 0; i < q.recs.length; i++) {
                    q.recs[i].check(q.versions[i]);
                }
                // Garbage, for minor GCs.
                byte[][] junk = new byte[64][];
                for (int i = 0; i < junk.length; i++) {
                    junk[i] = new byte[256 + random.nextInt(2048)];
                }
            }
        }
    }

    public static void main(String[] args) throws Exception {
        long seconds = Long.getLong("teraheap.soak.seconds", 120);
        String path = "-XX:TeraHeapPath=" + new java.io.File(".").getAbsolutePath();
        List<String[]> modes = new ArrayList<>(List.of(new String[0], TeraHeapProcess.VERIFY));
        // Under G1, System.gc() starts a concurrent cycle, and young pauses start one whenever
        // none runs.
        String[] g1 = TeraHeapProcess.concat(TeraHeapProcess.G1_FLAGS, "-XX:+ExplicitGCInvokesConcurrent",
                "-XX:InitiatingHeapOccupancyPercent=0", "-XX:-G1UseAdaptiveIHOP", "-Xlog:gc,gc+teraheap");
        modes.add(g1);
        modes.add(TeraHeapProcess.concat(g1, TeraHeapProcess.G1_VERIFY));
        for (String[] mode : modes) {
            List<String> cmd = new ArrayList<>(List.of("-XX:+EnableTeraHeap", "-Xmx256m", "-Xmn32m",
                    "-XX:TeraHeapSize=1g", "-XX:TeraHeapRegionSize=1m", path));
            cmd.addAll(List.of(mode));
            cmd.add(Soak.class.getName());
            boolean onG1 = List.of(mode).contains("-XX:+UseG1GC");
            cmd.add(Long.toString(onG1 ? seconds / 2 : seconds));
            OutputAnalyzer out = TeraHeapProcess.run(cmd.toArray(new String[0]));
            out.shouldHaveExitValue(0);
            out.shouldContain("SOAK-OK");
            if (onG1) {
                // Verification slows the cycles down too much for the bound on what they leave.
                checkMarkingFreed(out.getStdout(), !List.of(mode).contains("-XX:+VerifyAfterGC"));
            }
        }
    }

    /**
     * Under G1: marking cycles ran to their end and freed H2's regions, and no full GC did. What
     * the live partitions' records refer to (peers in dropped partitions included) lives, and
     * cycles end at their own pace, so what a cycle leaves in use varies widely; but in the
     * run's second half some cycle must leave less than a quarter of H2 in use. When cards of
     * unreached regions kept H1 objects alive, dead groups that refer to each other through H1
     * stayed, and every cycle left about 1010 of the 1024 regions in use.
     */
    static void checkMarkingFreed(String log, boolean boundInUse) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "Marking freed (\\d+) regions; H2 used \\d+M of \\d+M in (\\d+) regions").matcher(log);
        List<Integer> inUse = new ArrayList<>();
        long freed = 0;
        while (m.find()) {
            freed += Long.parseLong(m.group(1));
            inUse.add(Integer.parseInt(m.group(2)));
        }
        int cycles = inUse.size();
        System.out.println("G1: " + cycles + " marking cycles freed " + freed + " regions");
        TeraHeapProcess.check(cycles > 0 && freed > 0, "no marking cycle freed an H2 region");
        TeraHeapProcess.check(!log.contains("Pause Full"), "a full GC ran: only marking may free regions here");
        if (!boundInUse) {
            return;
        }
        List<Integer> late = new ArrayList<>(inUse.subList(cycles / 2, cycles));
        java.util.Collections.sort(late);
        System.out.println("G1: regions in use after the second half's " + late.size() + " cycles: fewest " + late.get(0)
                + ", median " + late.get(late.size() / 2) + ", most " + late.get(late.size() - 1));
        TeraHeapProcess.check(late.get(0) < 256, "dead groups keep H2 full: no cycle of the second half left fewer than "
                + late.get(0) + " of 1024 regions in use");
    }
}
