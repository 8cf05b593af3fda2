/*
 * @test
 * @summary Groups move to H2 on several GC workers at once: groups that share objects (small,
 *          and larger than a region) get one copy of each, whichever worker copies it first;
 *          labels whose regions several workers fill stay walkable and correct through later
 *          minor and full GCs; after a label is dropped, new groups move in parallel again.
 * @library /lib /test/lib
 * @run main/othervm/timeout=1800 TestTeraHeapParallelMove
 */

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jdk.test.lib.process.OutputAnalyzer;
import org.teraheap.H2Stats;
import org.teraheap.TeraHeap;

public class TestTeraHeapParallelMove {
    static void check(boolean ok, String what) {
        TeraHeapProcess.check(ok, what);
    }

    static final class Rec {
        final int group;
        final int index;
        final long[] data;
        Rec next;
        Object shared;     // one of the objects every group may reach
        long[] peer;       // the data of the next group's first record
        Object young;      // replaced after the move

        Rec(int group, int index) {
            this.group = group;
            this.index = index;
            this.data = new long[8 + (group * 7 + index) % 40];
            for (int i = 0; i < data.length; i++) {
                data[i] = expected(group, index, i);
            }
        }

        static long expected(int group, int index, int i) {
            return group * 1_000_003L + index * 131L + i;
        }
    }

    /** Child: the scenario. */
    public static class Scenario {
        static final int groups = 96, perGroup = 300, labels = 3, commons = 8;
        // Larger than the 2 MB regions the parent asks for: a multi-region object.
        static final int bigLongs = 300_000;

        static Rec[][] all = new Rec[groups + groups / labels][];
        static Object[] shared = new Object[commons + 1];
        static int[][] hashes = new int[groups + groups / labels][];

        public static void main(String[] args) throws Exception {
            check(TeraHeap.isEnabled(), "TeraHeap is on");
            build();
            for (int g = 0; g < groups; g++) {
                TeraHeap.tagRoot(all[g], 500 + g % labels);
            }
            for (int l = 0; l < labels; l++) {
                TeraHeap.move(500 + l);
            }
            TeraHeapProcess.fullGC();
            H2Stats s = TeraHeap.stats();
            System.out.println("after move: " + s);
            for (int g = 0; g < groups; g++) {
                check(TeraHeap.isInH2(all[g]) && TeraHeap.isInH2(all[g][perGroup - 1].data), "group " + g + " in H2");
            }
            for (Object o : shared) {
                check(TeraHeap.isInH2(o), "shared objects moved with the first group that reached them");
            }
            verify("after the move");

            // Young objects into H2 fields, minor GCs, then full GCs with H2 populated.
            for (int round = 0; round < 3; round++) {
                for (int g = 0; g < groups; g++) {
                    for (int i = round; i < perGroup; i += 5) {
                        all[g][i].young = "young-" + g + "-" + i;
                    }
                }
                TeraHeapProcess.churn(64);
                verify("after minor GCs, round " + round);
                TeraHeapProcess.fullGC();
                verify("after a full GC, round " + round);
            }

            // Drop the groups of one label, then move as many new groups under a new label into
            // the regions the others left open and those freed.
            for (int g = 0; g < groups; g++) {
                if (g % labels == 0) {
                    all[g] = null;
                }
            }
            TeraHeapProcess.fullGC();
            verify("after dropping a label");
            for (int g = groups; g < all.length; g++) {
                all[g] = group(g);
                TeraHeap.tagRoot(all[g], 600);
            }
            TeraHeap.move(600);
            TeraHeapProcess.fullGC();
            for (int g = groups; g < all.length; g++) {
                check(TeraHeap.isInH2(all[g]), "new group " + g + " in H2");
            }
            System.out.println("after a second move: " + TeraHeap.stats());
            verify("after a second move");
            TeraHeapProcess.churn(32);
            TeraHeapProcess.fullGC();
            verify("after a last full GC");
            System.out.println("PARALLEL-MOVE-OK");
        }

        static void build() {
            for (int k = 0; k < commons; k++) {
                long[] c = new long[64 + k];
                for (int i = 0; i < c.length; i++) {
                    c[i] = k * 7919L + i;
                }
                shared[k] = c;
            }
            long[] big = new long[bigLongs];
            for (int i = 0; i < big.length; i++) {
                big[i] = i * 3L;
            }
            shared[commons] = big;
            for (int g = 0; g < groups; g++) {
                all[g] = group(g);
            }
        }

        static Rec[] group(int g) {
            Rec[] recs = new Rec[perGroup];
            for (int i = 0; i < perGroup; i++) {
                recs[i] = new Rec(g, i);
                if (i > 0) {
                    recs[i - 1].next = recs[i];
                }
                // Every group reaches every shared object, the big one from many places.
                recs[i].shared = shared[(g + i) % (commons + 1)];
            }
            hashes[g] = new int[perGroup];
            for (int i = 0; i < perGroup; i++) {
                hashes[g][i] = System.identityHashCode(recs[i]);
            }
            // Groups share a small array with their neighbours too: the neighbour's own data.
            if (g > 0) {
                recs[perGroup - 1].peer = all[g - 1][0].data;
            }
            return recs;
        }

        static void verify(String when) {
            for (int k = 0; k < commons; k++) {
                long[] c = (long[]) shared[k];
                for (int i = 0; i < c.length; i++) {
                    check(c[i] == k * 7919L + i, when + ": shared array " + k + " intact");
                }
            }
            long[] big = (long[]) shared[commons];
            for (int i = 0; i < big.length; i += 997) {
                check(big[i] == i * 3L, when + ": the big shared array intact");
            }
            for (int g = 0; g < all.length; g++) {
                Rec[] recs = all[g];
                if (recs == null) {
                    continue;
                }
                for (int i = 0; i < perGroup; i++) {
                    Rec r = recs[i];
                    check(r.group == g && r.index == i, when + ": record " + g + ":" + i);
                    check(i == 0 || recs[i - 1].next == r, when + ": chain " + g + ":" + i);
                    for (int j = 0; j < r.data.length; j++) {
                        check(r.data[j] == Rec.expected(g, i, j), when + ": data of " + g + ":" + i);
                    }
                    // One copy of each shared object: the one the H1 array holds too.
                    check(r.shared == shared[(g + i) % (commons + 1)], when + ": shared object of " + g + ":" + i
                            + " is the one every other group sees");
                    check(System.identityHashCode(r) == hashes[g][i], when + ": identity hash of " + g + ":" + i);
                    check(r.young == null || r.young.equals("young-" + g + "-" + i), when + ": young field");
                }
                long[] peer = recs[perGroup - 1].peer;
                if (peer != null) {
                    check(all[g - 1] == null || peer == all[g - 1][0].data, when + ": one copy of group " + (g - 1)
                            + "'s first data, which group " + g + " shares");
                    for (int j = 0; j < peer.length; j++) {
                        check(peer[j] == Rec.expected(g - 1, 0, j), when + ": the data group " + g + " shares");
                    }
                }
            }
        }
    }

    public static void main(String[] args) throws Exception {
        List<OutputAnalyzer> outs = TeraHeapProcess.runInEveryMode(Scenario.class.getName(), "PARALLEL-MOVE-OK",
                "-Xmx384m", "-Xmn48m", "-XX:TeraHeapSize=512m", "-XX:TeraHeapRegionSize=2m",
                "-XX:ParallelGCThreads=4");
        // The move ran on more than one worker at least once (scheduling decides how many each time).
        Pattern p = Pattern.compile("Moved (\\d+) objects .* on (\\d+) threads");
        int most = 0;
        for (OutputAnalyzer out : outs) {
            Matcher m = p.matcher(out.getStdout());
            while (m.find()) {
                if (Long.parseLong(m.group(1)) > 0) {
                    most = Math.max(most, Integer.parseInt(m.group(2)));
                }
            }
        }
        System.out.println("most GC workers moving groups in one full GC: " + most);
        check(most >= 2, "groups moved on several GC workers at once");
    }
}
