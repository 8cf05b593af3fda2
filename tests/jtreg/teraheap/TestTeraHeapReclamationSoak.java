/*
 * @test
 * @summary H2's space comes back over many rounds of groups that a program moves, uses and drops:
 *          labels reused round after round and fresh ones, groups iterated after their move (a
 *          HashMap caches its values() view in itself), written with young and old objects, linked
 *          to another label's group, dropped whole or kept in part (one value of a dropped group
 *          stays reachable for a few rounds). After every round H2 holds at most
 *          MAX_FACTOR times the bytes of the groups alive, plus a region per label; once
 *          everything is dropped, H2 is empty. Minor GCs, full GCs by System.gc() and by
 *          allocation failure, dense prefixes, heap verification; under the stress move (which
 *          puts the program's own objects in H2 too) the groups' contents are checked.
 * @library /lib /test/lib
 * @run main/othervm/timeout=1800 TestTeraHeapReclamationSoak
 */

import java.util.ArrayDeque;
import java.util.HashMap;

import org.teraheap.TeraHeap;

public class TestTeraHeapReclamationSoak {
    /**
     * A traced label is evacuated once its live data is under half of what its regions hold
     * (-XX:TeraHeapEvacuationLiveThresholdPercent=50), and a label found dense is traced again
     * after 1, 2, 4, ... full GCs: between two traces a reused label can gather dropped groups
     * past that half. Two full GCs run per round here.
     */
    static final int MAX_FACTOR = 2;
    static final long REGION = 1 << 20;

    /** Child: the rounds. */
    public static class Soak {
        static final long[] OLD = new long[16];   // an old H1 object the groups refer to

        static final class Group {
            final int round;
            final HashMap<Integer, long[]> map = new HashMap<>();
            long label;

            Group(int round) {
                this.round = round;
                for (int i = 0; i < 2000; i++) {
                    long[] v = new long[16];
                    v[0] = round;
                    v[1] = i;
                    map.put(i, v);
                }
            }

            void checkIntact() {
                for (int i = 0; i < 2000; i++) {
                    long[] v = map.get(i);
                    TeraHeapProcess.check(v[0] == round && v[1] == i, "round " + round + ": value " + i);
                }
            }
        }

        public static void main(String[] args) {
            // The stress move also puts the program's own H1 objects in H2, under labels of their
            // own: H2's use is then more than the groups, and only their contents are checked.
            final boolean stress = Boolean.getBoolean("soak.stress");
            final int rounds = 40, window = 3;
            ArrayDeque<Group> alive = new ArrayDeque<>();
            ArrayDeque<long[]> partlyKept = new ArrayDeque<>();
            ArrayDeque<Long> keptLabels = new ArrayDeque<>();
            long groupBytes = 0;   // every group has the same shape: the first one's moved bytes
            long worst = 0;
            for (int round = 0; round < rounds; round++) {
                // Even rounds reuse label 1; odd rounds take a label of their own.
                final long label = round % 2 == 0 ? 1 : 1000 + round;
                Group g = new Group(round);
                if (!alive.isEmpty()) {
                    g.map.put(-1, alive.peekLast().map.get(5));   // into another group (maybe another label)
                }
                long before = TeraHeap.stats().usedBytes();
                TeraHeap.tagRoot(g.map, label);
                TeraHeap.move(label);
                TeraHeapProcess.fullGC();
                TeraHeapProcess.check(TeraHeap.isInH2(g.map), "round " + round + ": the group moved");
                if (round == 0) {
                    groupBytes = TeraHeap.stats().usedBytes() - before;
                }
                g.label = label;
                // Used after the move: iterated, written with a young and an old object.
                long sum = 0;
                for (long[] v : g.map.values()) {
                    sum += v[1];
                }
                TeraHeapProcess.check(sum == 1999L * 2000 / 2 + (alive.isEmpty() ? 0 : 5), "round " + round + ": sum");
                g.map.put(-2, new long[8]);
                g.map.put(-3, OLD);
                alive.addLast(g);
                if (alive.size() > window) {
                    Group dropped = alive.removeFirst();
                    dropped.checkIntact();
                    partlyKept.addLast(dropped.map.get(7));   // one value outlives its group
                    keptLabels.addLast(dropped.label);
                    if (partlyKept.size() > 4) {
                        partlyKept.removeFirst();
                        keptLabels.removeFirst();
                    }
                }
                TeraHeapProcess.churn(8);
                TeraHeapProcess.fullGC();
                java.util.Set<Long> labels = new java.util.HashSet<>(keptLabels);
                for (Group a : alive) {
                    labels.add(a.label);
                }
                long live = alive.size() * groupBytes;
                long used = TeraHeap.stats().usedBytes();
                long bound = MAX_FACTOR * live + labels.size() * REGION;
                worst = Math.max(worst, used * 100 / live);
                System.out.println("round " + round + ": H2 used " + (used >> 10) + "K, groups alive "
                        + (live >> 10) + "K, bound " + (bound >> 10) + "K");
                TeraHeapProcess.check(stress || used <= bound, "round " + round + ": H2 holds " + used
                        + " bytes, more than " + MAX_FACTOR + "x the " + live + " bytes of groups alive plus a region for each of "
                        + labels.size() + " labels holding data");
            }
            for (Group a : alive) {
                a.checkIntact();
            }
            for (long[] v : partlyKept) {
                TeraHeapProcess.check(v[1] == 7, "a kept value of a dropped group is intact");
            }
            alive.clear();
            partlyKept.clear();
            TeraHeapProcess.fullGC();
            TeraHeapProcess.fullGC();
            long end = TeraHeap.stats().usedBytes();
            TeraHeapProcess.check(stress || end == 0, "everything dropped: H2 holds " + end + " bytes");
            System.out.println("SOAK-OK worst " + worst + "% of the groups alive");
        }
    }

    public static void main(String[] args) throws Exception {
        String[] flags = {"-Xmx128m", "-Xmn16m", "-XX:TeraHeapSize=512m", "-XX:TeraHeapRegionSize=1m"};
        TeraHeapProcess.runInEveryMode(Soak.class.getName(), "SOAK-OK", flags);
        // Each full GC's stress move takes up to 8 regions: H2 is larger, and sparse.
        String[] stress = {"-Xmx128m", "-Xmn16m", "-XX:TeraHeapSize=2g", "-XX:-TeraHeapPreallocate",
                "-XX:TeraHeapRegionSize=1m", "-Dsoak.stress=true",
                "-XX:+UnlockDiagnosticVMOptions", "-XX:+TeraHeapStressMove", "-XX:+VerifyBeforeGC", "-XX:+VerifyAfterGC"};
        TeraHeapProcess.run(withTeraHeap(stress, Soak.class.getName())).shouldHaveExitValue(0).shouldContain("SOAK-OK");
    }

    static String[] withTeraHeap(String[] flags, String main) {
        String[] all = new String[flags.length + 4];
        all[0] = "-XX:+EnableTeraHeap";
        all[1] = "-XX:TeraHeapPath=" + new java.io.File(".").getAbsolutePath();
        all[2] = "-Xlog:gc+teraheap";
        System.arraycopy(flags, 0, all, 3, flags.length);
        all[all.length - 1] = main;
        return all;
    }
}
