/*
 * @test
 * @summary -XX:+TeraHeapStressMove moves untagged old objects at every full GC: a program that
 *          tags nothing runs with H2 in use (objects moved at its full GCs, regions of dead ones
 *          freed), and every value it reads back is what it wrote: maps, linked items, arrays,
 *          strings, identity hashes.
 *          Refused without -XX:+UnlockDiagnosticVMOptions on a release build.
 * @library /lib /test/lib
 * @run main/othervm/timeout=1800 TestTeraHeapStressMode
 */

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import jdk.test.lib.process.OutputAnalyzer;
import org.teraheap.H2Stats;
import org.teraheap.TeraHeap;

public class TestTeraHeapStressMode {
    static void check(boolean ok, String what) {
        TeraHeapProcess.check(ok, what);
    }

    static final class Item {
        final long id;
        final String name;
        final int[] values;
        Item next;
        Item(long id) {
            this.id = id;
            this.name = "item-" + id;
            this.values = new int[(int) (id % 17)];
            for (int i = 0; i < values.length; i++) {
                values[i] = (int) (id * 7 + i);
            }
        }
        boolean intact(long expected) {
            if (id != expected || !name.equals("item-" + id) || values.length != (int) (id % 17)) {
                return false;
            }
            for (int i = 0; i < values.length; i++) {
                if (values[i] != (int) (id * 7 + i)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Child: tags nothing; keeps generations of maps and lists, changes and checks them. */
    public static class Program {
        public static void main(String[] args) {
            Random random = new Random(42);
            List<Map<Long, Item>> generations = new ArrayList<>();
            List<int[]> hashes = new ArrayList<>();
            long movedEarly = 0;
            long movedBefore = 0;
            int roundsWithMoves = 0;   // rounds whose full GCs moved something
            for (int round = 0; round < 12; round++) {
                Map<Long, Item> map = new HashMap<>();
                Item previous = null;
                int[] identity = new int[2000];
                for (long i = 0; i < 20_000; i++) {
                    long id = round * 1_000_000L + i;
                    Item item = new Item(id);
                    item.next = previous;
                    previous = item;
                    map.put(id, item);
                    if (i < identity.length) {
                        identity[(int) i] = System.identityHashCode(item);
                    }
                }
                generations.add(map);
                hashes.add(identity);
                if (generations.size() > 4) {   // older generations die: their regions can free
                    generations.remove(0);
                    hashes.remove(0);
                }
                System.gc();
                if (round == 2) {   // later without a scavenge first: young data is not old yet
                    movedEarly = TeraHeap.stats().objectsMoved();
                }
                // Mutate what may now be in H2: young objects into old maps.
                for (Map<Long, Item> m : generations) {
                    for (int k = 0; k < 500; k++) {
                        long key = m.keySet().iterator().next() / 1_000_000 * 1_000_000 + random.nextInt(20_000);
                        Item it = m.get(key);
                        it.next = new Item(key);   // a fresh young copy, same contents
                    }
                }
                System.gc();
                long movedNow = TeraHeap.stats().objectsMoved();
                roundsWithMoves += movedNow > movedBefore ? 1 : 0;
                movedBefore = movedNow;
                for (int g = 0; g < generations.size(); g++) {
                    Map<Long, Item> m = generations.get(g);
                    check(m.size() == 20_000, "map size");
                    int[] expected = hashes.get(g);
                    for (Map.Entry<Long, Item> e : m.entrySet()) {
                        Item it = e.getValue();
                        check(it.intact(e.getKey()), "item " + e.getKey());
                        long low = e.getKey() % 1_000_000;
                        if (low < expected.length) {
                            check(System.identityHashCode(it) == expected[(int) low], "identity hash");
                        }
                        if (it.next != null) {
                            check(it.next.intact(it.next.id), "linked item");
                        }
                    }
                }
            }
            H2Stats s = TeraHeap.stats();
            System.out.println("stress: " + s + "; rounds with moves: " + roundsWithMoves + " of 12");
            check(s.taggedRoots() == 0, "nothing was tagged");
            // How much moves depends on which object opens each stripe; that the full GCs keep
            // moving does not.
            check(roundsWithMoves >= 8, "full GCs moved objects in " + roundsWithMoves + " of 12 rounds");
            check(s.objectsMoved() > movedEarly && movedEarly > 0,
                  "moves at later full GCs too: " + movedEarly + ", then " + s.objectsMoved());
            // Each root has a label of its own: the regions of dropped generations' roots free.
            check(s.regionsFreed() > 0, "regions freed: " + s);
            System.out.println("STRESS-OK");
        }
    }

    public static void main(String[] args) throws Exception {
        TeraHeapProcess.runInEveryMode(Program.class.getName(), "STRESS-OK", "-Xmx256m", "-Xmn32m",
                "-XX:TeraHeapSize=512m", "-XX:TeraHeapRegionSize=1m",
                "-XX:+UnlockDiagnosticVMOptions", "-XX:+TeraHeapStressMove");
        // A release build keeps the diagnostic flag locked (a debug build unlocks them all).
        OutputAnalyzer out = TeraHeapProcess.run("-XX:+EnableTeraHeap", "-XX:+TeraHeapStressMove", "-version");
        if (!out.getStderr().contains("fastdebug")) {
            out.shouldNotHaveExitValue(0);
            out.shouldContain("TeraHeapStressMove");
            out.shouldContain("UnlockDiagnosticVMOptions");
        }
    }
}
