/*
 * @test
 * @summary Groups move at full GCs that do not compact maximally (System.gc() with
 *          -XX:-UseMaximumCompactionOnSystemGC, and full GCs caused by allocation failure), where
 *          the collector keeps a dense prefix and writes a filler object over dead space at its
 *          end: old copies of moved objects lie there, and every reference to them, from H2,
 *          stacks and H1, must end up at the H2 copies. (Allocation-failure full GCs are one of
 *          TeraHeapProcess.GC_VARIANTS.)
 * @library /lib /test/lib
 * @run main/othervm/timeout=1800 TestTeraHeapCompaction
 */

import java.util.ArrayList;
import java.util.List;

import org.teraheap.TeraHeap;

public class TestTeraHeapCompaction {
    static void check(boolean ok, String what) {
        TeraHeapProcess.check(ok, what);
    }

    /** Two heap words (12-byte header and an int, compressed class pointers): packs densely. */
    static final class Cell {
        final int id;
        Cell(int id) { this.id = id; }
    }

    /** Child: the scenario, run under whatever flags the parent chose. */
    public static class Scenario {
        static final int cells = 200_000;
        static List<Object> ballast = new ArrayList<>();

        public static void main(String[] args) throws Exception {
            check(TeraHeap.isEnabled(), "TeraHeap is on");
            // A holder in H2 that refers to every cell of the groups moved later: its fields are
            // adjusted from H2's cards, after the summary phase has written its filler.
            Object[] holder = new Object[2 * cells];
            TeraHeap.tagRoot(holder, 1);
            TeraHeap.move(1);
            System.gc();
            check(TeraHeap.isInH2(holder), "holder moved");

            for (int round = 0; round < 12; round++) {
                // Two cells to move, then one that stays, over and over: after the move the old
                // generation holds dead pairs between live cells, so dead space crosses many
                // region boundaries, wherever the dense prefix ends.
                Object[] group = new Object[2 * cells];
                Cell[] stay = new Cell[cells];
                for (int i = 0; i < cells; i++) {
                    group[2 * i] = new Cell(round * 10_000_000 + 2 * i);
                    group[2 * i + 1] = new Cell(round * 10_000_000 + 2 * i + 1);
                    stay[i] = new Cell(-i);
                }
                System.arraycopy(group, 0, holder, 0, group.length);
                Cell onStack = (Cell) group[cells];
                System.gc();   // promotes the cells into the old generation in allocation order
                // Garbage behind them, so that compacting the cells' neighbourhood pays off.
                for (int k = 0; k < 8; k++) {
                    ballast.add(new byte[4 << 20]);
                }
                System.gc();
                ballast.clear();

                TeraHeap.tagRoot(group, 10 + round);
                TeraHeap.move(10 + round);
                TeraHeapProcess.fullGC();   // allocation failure in one of the variants
                check(TeraHeap.isInH2(group) && TeraHeap.isInH2(group[0]), "round " + round + ": group moved");
                check(TeraHeap.isInH2(onStack) && onStack.id == round * 10_000_000 + cells,
                      "round " + round + ": a stack reference follows the move");
                for (int i = 0; i < group.length; i++) {
                    Object h = holder[i];
                    check(h == group[i], "round " + round + ": holder[" + i + "] is " + describe(h)
                          + ", not the moved cell");
                    check(((Cell) h).id == round * 10_000_000 + i, "round " + round + ": cell id");
                }
                for (int i = 0; i < cells; i++) {
                    check(stay[i].id == -i && !TeraHeap.isInH2(stay[i]), "cells that stay in H1");
                }
                // The previous round's group is dropped: its regions free at a later full GC.
            }
            System.out.println("COMPACTION-OK");
        }

        static String describe(Object o) {
            return o == null ? "null" : o.getClass().getName() + (TeraHeap.isInH2(o) ? " in H2" : " in H1");
        }
    }

    public static void main(String[] args) throws Exception {
        // Never a maximal compaction: a dense prefix, and a filler at its end, at every full GC.
        String[] common = {"-Xmx512m", "-Xmn64m", "-XX:TeraHeapSize=512m", "-XX:TeraHeapRegionSize=4m",
                "-XX:-UseMaximumCompactionOnSystemGC", "-XX:HeapFirstMaximumCompactionCount=100000",
                "-XX:HeapMaximumCompactionInterval=100000", "-XX:MarkSweepDeadRatio=50"};
        TeraHeapProcess.runInEveryMode(Scenario.class.getName(), "COMPACTION-OK", common);
    }
}
