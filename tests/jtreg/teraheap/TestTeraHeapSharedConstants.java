/*
 * @test
 * @summary Objects the whole program reaches through an enum constant or a Scala object (what
 *          their fields refer to) stay in H1 when a group that refers to them moves: moved, they
 *          would live as long as the program and keep the group's label in H2 after the program
 *          dropped the group. The group itself moves, reads back intact, and gives all of H2
 *          back once dropped. In every GC mode and variant.
 * @library /lib /test/lib
 * @run main/othervm/timeout=900 TestTeraHeapSharedConstants
 */

import org.teraheap.H2Stats;
import org.teraheap.TeraHeap;

public class TestTeraHeapSharedConstants {
    static void check(boolean ok, String what) {
        TeraHeapProcess.check(ok, what);
    }

    enum Unit {
        KILO(1000);

        /** Reached from the constant, not from a static field of its own. */
        final long[] factor;

        Unit(long factor) {
            this.factor = new long[] {factor};
        }
    }

    /** What scalac makes of {@code object Registry { val table = Array(7L, 8L, 9L) }}. */
    static final class Registry$ {
        static final Registry$ MODULE$ = new Registry$();
        final long[] table = {7, 8, 9};
    }

    static final class Record {
        final long[] unit;
        final long[] table;
        final long[] payload = new long[16];

        Record(int i) {
            unit = Unit.KILO.factor;
            table = Registry$.MODULE$.table;
            payload[0] = i;
        }
    }

    public static class Child {
        public static void main(String[] args) {
            Record[] group = new Record[10_000];
            for (int i = 0; i < group.length; i++) {
                group[i] = new Record(i);
            }
            TeraHeap.tagRoot(group, 5);
            TeraHeap.move(5);
            TeraHeapProcess.fullGC();
            check(TeraHeap.isInH2(group) && TeraHeap.isInH2(group[9_999].payload), "the group moved");
            check(!TeraHeap.isInH2(Unit.KILO.factor), "an enum constant's array stayed in H1");
            check(!TeraHeap.isInH2(Registry$.MODULE$.table), "a Scala object's array stayed in H1");
            TeraHeapProcess.churn(4);
            TeraHeapProcess.fullGC();
            for (int i = 0; i < group.length; i++) {
                Record r = group[i];
                check(r.payload[0] == i && r.unit == Unit.KILO.factor && r.unit[0] == 1000
                      && r.table == Registry$.MODULE$.table && r.table[2] == 9, "record " + i + " intact");
            }
            group = null;
            TeraHeapProcess.fullGC();
            TeraHeapProcess.fullGC();
            H2Stats s = TeraHeap.stats();
            check(s.usedBytes() == 0 && s.regionsInUse() == 0,
                  "the dropped group gave H2 back: " + s.usedBytes() + " bytes in " + s.regionsInUse() + " regions");
            System.out.println("SHARED-OK");
        }
    }

    public static void main(String[] args) throws Exception {
        TeraHeapProcess.runInEveryMode(Child.class.getName(), "SHARED-OK",
                "-Xmx64m", "-Xmn8m", "-XX:TeraHeapSize=64m", "-XX:TeraHeapRegionSize=1m");
    }
}
