/*
 * @test
 * @summary Dropped groups are freed even when the program used them after their move:
 *          a moved HashMap whose values() the program iterated (HashMap caches the view, which
 *          refers back to the map, in a field of the map), or into which it stored a young
 *          object, dropped but for one value, keeps that value alone in H2; and a label reused
 *          for successive groups, each moved while the previous one is alive and written with young
 *          objects, does not keep every group it ever held. A group holding objects larger than a
 *          region is traced like any other: dropped but for one small value, it keeps that value
 *          alone; its kept large array stays where it is, and the small objects only that array
 *          refers to are copied out and the array pointed at the copies. A map the program keeps
 *          but removed most entries from, or replaced most values in, gives their space back. In
 *          every GC mode and variant (dense prefix, allocation-failure full GCs, heap
 *          verification), with the kept objects intact.
 * @library /lib /test/lib
 * @run main/othervm/timeout=1800 TestTeraHeapTouchedGroups
 */

import java.util.HashMap;

import org.teraheap.H2Stats;
import org.teraheap.TeraHeap;

public class TestTeraHeapTouchedGroups {
    static void check(boolean ok, String what) {
        TeraHeapProcess.check(ok, what);
    }

    /** Child: a moved HashMap of 20,000 long[8], touched after the move, dropped but for one value. */
    public static class Touched {
        static volatile Object sink;

        static void run(String how) {
            final long label = 42;
            HashMap<Integer, long[]> map = new HashMap<>();
            for (int i = 0; i < 20_000; i++) {
                long[] v = new long[8];
                v[0] = i;
                v[7] = -i;
                map.put(i, v);
            }
            TeraHeap.tagRoot(map, label);
            TeraHeap.move(label);
            TeraHeapProcess.fullGC();
            check(TeraHeap.isInH2(map), how + ": map moved");
            long before = TeraHeap.stats().usedBytes();
            long[] kept = map.get(12_345);
            if (how.equals("values")) {
                long sum = 0;
                for (long[] v : map.values()) {   // caches map.values, which refers back to map
                    sum += v[0];
                }
                sink = sum;
            } else {
                map.remove(0);                     // table[0], on the card of the map's own fields,
                map.put(0, new long[8]);           // gets a young node
            }
            map = null;
            for (int gc = 0; gc < 6; gc++) {
                TeraHeapProcess.fullGC();
                TeraHeapProcess.churn(4);
            }
            H2Stats s = TeraHeap.stats();
            check(s.usedBytes() < 64 * 1024, how + ": H2 holds " + s.usedBytes() + " bytes of the " + before
                  + " moved, with one long[8] of them reachable");
            check(kept[0] == 12_345 && kept[7] == -12_345, how + ": the kept value is intact");
            System.out.println(how + ": H2 used " + s.usedBytes());
        }

        public static void main(String[] args) {
            run("values");
            run("young");
            System.out.println("TOUCHED-OK");
        }
    }

    /** Child: one label for every round's group; at most two groups are alive at a time. */
    public static class Reused {
        static final class Node {
            Node next;
            Object extra;   // written after the move
            int value;
            Node(int value) {
                this.value = value;
            }
        }

        static final class Group {
            final int round;
            final Node head;     // laid out first
            final Node[] index;  // then the index, which refers back into the whole chain
            Group(int round) {
                this.round = round;
                head = new Node(round);
                index = new Node[1000];
                index[0] = head;
                Node n = head;
                for (int i = 1; i < 100_000; i++) {
                    n.next = new Node(i);
                    n = n.next;
                    if (i % 100 == 0) {
                        index[i / 100] = n;
                    }
                }
            }
            boolean intact() {
                Node n = head;
                check(n.value == round, "round " + round + ": head");
                n = n.next;
                for (int i = 1; i < 100_000; i++, n = n.next) {
                    if (n.value != i || (i % 100 == 0 && index[i / 100] != n)) {
                        return false;
                    }
                }
                return n == null;
            }
        }

        public static void main(String[] args) {
            final int rounds = 30;
            Group previous = null;
            long groupBytes = 0;
            for (int round = 0; round < rounds; round++) {
                Group g = new Group(round);
                TeraHeap.tagRoot(g, 1);
                TeraHeap.move(1);
                long used = TeraHeap.stats().usedBytes();
                TeraHeapProcess.fullGC();   // moves g while `previous` is alive
                check(TeraHeap.isInH2(g) && TeraHeap.isInH2(g.index), "round " + round + ": group moved");
                if (round == 0) {
                    groupBytes = TeraHeap.stats().usedBytes() - used;
                }
                check(previous == null || previous.intact(), "round " + round + ": the previous group is intact");
                for (int i = 0; i < g.index.length; i += 10) {
                    g.index[i].extra = new long[4];   // young objects into the moved group
                }
                previous = g;               // drops the one before
                TeraHeapProcess.churn(4);
            }
            TeraHeapProcess.fullGC();
            check(previous.intact(), "the last group is intact");
            H2Stats s = TeraHeap.stats();
            check(s.usedBytes() < 8 * groupBytes, "H2 holds " + s.usedBytes() + " bytes after " + rounds
                  + " rounds of " + groupBytes + "-byte groups, at most two of them alive at a time");
            System.out.println("REUSED-OK used=" + s.usedBytes() + " group=" + groupBytes);
        }
    }

    /**
     * Child: a moved HashMap of 40,000 long[32] that the program keeps, and from which it removes
     * 95% of the entries or replaces 95% of the values with young ones: the dropped part comes
     * back though the map's root stays reachable.
     */
    public static class Shrunk {
        static void run(String how, long label) {
            HashMap<Integer, long[]> map = new HashMap<>();
            for (int i = 0; i < 40_000; i++) {
                long[] v = new long[32];
                v[0] = i;
                v[31] = -i;
                map.put(i, v);
            }
            TeraHeap.tagRoot(map, label);
            TeraHeap.move(label);
            long used = TeraHeap.stats().usedBytes();
            TeraHeapProcess.fullGC();
            check(TeraHeap.isInH2(map), how + ": map moved");
            long moved = TeraHeap.stats().usedBytes() - used;
            for (int i = 0; i < 40_000; i++) {
                if (i % 20 != 0) {
                    if (how.equals("removed")) {
                        map.remove(i);
                    } else {
                        map.put(i, new long[] {i, 1});   // young, and stays in H1
                    }
                }
            }
            // The interpreter marks no card for an array store of null (most removals): an entry
            // put afterwards is a store it marks, as in a cache that removes and adds.
            map.put(-1, new long[32]);
            for (int gc = 0; gc < 8; gc++) {
                TeraHeapProcess.churn(4);
                TeraHeapProcess.fullGC();
            }
            long after = TeraHeap.stats().usedBytes() - used;
            check(after < moved / 2, how + ": H2 holds " + after + " bytes of the map's " + moved
                  + " moved, with 5% of its entries (or values) left");
            for (int i = 0; i < 40_000; i++) {
                long[] v = map.get(i);
                if (i % 20 == 0) {
                    check(v[0] == i && v[31] == -i, how + ": kept value " + i);
                } else if (how.equals("removed")) {
                    check(v == null, how + ": removed key " + i);
                } else {
                    check(v[0] == i && v[1] == 1, how + ": replaced value " + i);
                }
            }
            System.out.println(how + ": H2 holds " + after + " of " + moved);
        }

        public static void main(String[] args) {
            run("removed", 81);
            run("replaced", 82);
            System.out.println("SHRUNK-OK");
        }
    }

    /**
     * Child: a group of 1 MB regions with a 3 MB long[], an Object[] of 512K elements (2 or 4 MB)
     * that alone refers to 1,024 small arrays of the group, and a map of 20,000 long[8].
     */
    public static class Large {
        static void run(String how, long label) {
            HashMap<Integer, long[]> map = new HashMap<>();
            for (int i = 0; i < 20_000; i++) {
                map.put(i, new long[] {i, 0, 0, 0, 0, 0, 0, -i});
            }
            long[] data = new long[3 << 17];
            for (int i = 0; i < data.length; i++) {
                data[i] = i * 3L;
            }
            Object[] refs = new Object[1 << 19];
            for (int i = 0; i < refs.length; i += 512) {
                refs[i] = new long[] {i, -i};
            }
            Object[] group = {map, data, refs};
            TeraHeap.tagRoot(group, label);
            TeraHeap.move(label);
            TeraHeapProcess.fullGC();
            check(TeraHeap.isInH2(group) && TeraHeap.isInH2(data) && TeraHeap.isInH2(refs) && TeraHeap.isInH2(map),
                  how + ": group moved");
            long before = TeraHeap.stats().usedBytes();
            long[] value = map.get(12_345);
            long bound;
            switch (how) {
                case "dropped":      // one small value kept
                    data = null;
                    refs = null;
                    bound = 64 * 1024;
                    break;
                case "data kept":    // the long[] kept
                    refs = null;
                    bound = 8L * data.length + 64 * 1024;
                    break;
                default:             // the Object[] kept, and what it alone refers to
                    data = null;
                    bound = 8L * refs.length + 1024 * 32 + 64 * 1024;
                    break;
            }
            map = null;
            group = null;
            for (int gc = 0; gc < 6; gc++) {
                TeraHeapProcess.fullGC();
                TeraHeapProcess.churn(4);
            }
            long used = TeraHeap.stats().usedBytes();
            check(used <= bound, how + ": H2 holds " + used + " bytes of the " + before + " moved, at most "
                  + bound + " live");
            check(value[0] == 12_345 && value[7] == -12_345, how + ": the kept value is intact");
            if (data != null) {
                check(TeraHeap.isInH2(data), how + ": the long[] stays in H2");
                for (int i = 0; i < data.length; i++) {
                    check(data[i] == i * 3L, how + ": data[" + i + "]");
                }
            }
            if (refs != null) {
                check(TeraHeap.isInH2(refs), how + ": the Object[] stays in H2");
                refs[1] = new long[] {1, -1};   // a young object into the kept array
                TeraHeapProcess.churn(8);
                TeraHeapProcess.fullGC();
                for (int i = 0; i < refs.length; i += 512) {
                    long[] v = (long[]) refs[i];
                    check(v[0] == i && v[1] == -i, how + ": refs[" + i + "] after the copy");
                }
                check(((long[]) refs[1])[1] == -1, how + ": refs[1], written after the copy");
            }
            System.out.println(how + ": H2 used " + used + " of " + before);
            value = null;
            data = null;
            refs = null;
            for (int gc = 0; gc < 4; gc++) {
                TeraHeapProcess.fullGC();
            }
            check(TeraHeap.stats().usedBytes() == 0, how + ": H2 holds " + TeraHeap.stats().usedBytes()
                  + " bytes once everything is dropped");
        }

        public static void main(String[] args) {
            run("dropped", 71);
            run("data kept", 72);
            run("refs kept", 73);
            System.out.println("LARGE-OK");
        }
    }

    public static void main(String[] args) throws Exception {
        TeraHeapProcess.runInEveryMode(Touched.class.getName(), "TOUCHED-OK",
                "-Xmx128m", "-Xmn16m", "-XX:TeraHeapSize=64m", "-XX:TeraHeapRegionSize=4m");   // the group in one region
        TeraHeapProcess.runInEveryMode(Reused.class.getName(), "REUSED-OK",
                "-Xmx128m", "-Xmn16m", "-XX:TeraHeapSize=256m", "-XX:TeraHeapRegionSize=1m");
        TeraHeapProcess.runInEveryMode(Shrunk.class.getName(), "SHRUNK-OK",
                "-Xmx128m", "-Xmn16m", "-XX:TeraHeapSize=256m", "-XX:TeraHeapRegionSize=1m");
        TeraHeapProcess.runInEveryMode(Large.class.getName(), "LARGE-OK",
                "-Xmx128m", "-Xmn16m", "-XX:TeraHeapSize=256m", "-XX:TeraHeapRegionSize=1m");
    }
}
