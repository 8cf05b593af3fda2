/*
 * @test
 * @summary Tagged groups move to H2 at a full GC and stay correct ordinary objects through
 *          later minor and full GCs: contents, identity hashes, monitors, mutation with young,
 *          old and H2 objects, cross-group links, transient fields left in H1 (but collections'
 *          contents, which their writeObject writes, moved), a group laid out depth-first,
 *          dropped groups freed by region, weak references into freed regions cleared; a move
 *          leaves dirty only the cards of fields that still refer to H1, and those are found.
 * @library /lib /test/lib
 * @run main/othervm/timeout=1200 TestTeraHeapMove
 */

import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jdk.test.lib.process.OutputAnalyzer;
import org.teraheap.H2Stats;
import org.teraheap.TeraHeap;

public class TestTeraHeapMove {
    static void check(boolean ok, String what) {
        if (!ok) {
            throw new RuntimeException("failed: " + what);
        }
    }

    static final class Node {
        final long id;
        Node next;
        Object payload;
        transient Object scratch;   // stays in H1
        final int[] data;

        Node(long id, int size) {
            this.id = id;
            this.data = new int[size];
            for (int i = 0; i < size; i++) {
                data[i] = (int) (id * 31 + i);
            }
        }

        boolean intact() {
            for (int i = 0; i < data.length; i++) {
                if (data[i] != (int) (id * 31 + i)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Writes its transient field itself, as collections do: the field's target is data and moves. */
    static final class SelfSerialized implements Serializable {
        transient int[] state;
        transient Object scratch;   // not written, but moves too: the rule is per class

        private void writeObject(ObjectOutputStream out) throws IOException {
            out.defaultWriteObject();
            out.writeObject(state);
        }
    }

    static Node chain(long label, int n, int size) {
        Node head = null;
        for (int i = n - 1; i >= 0; i--) {
            Node node = new Node(label * 1_000_000 + i, size);
            node.next = head;
            head = node;
        }
        return head;
    }

    static void churn(int mb) {
        List<byte[]> junk = new ArrayList<>();
        for (int i = 0; i < mb; i++) {
            junk.add(new byte[1 << 20]);
            if (junk.size() > 8) {
                junk.clear();
            }
        }
    }

    /** Child: the scenario, run under whatever flags the parent chose. */
    public static class Scenario {
        static final int groups = 6, perGroup = 2000;

        public static void main(String[] args) throws Exception {
            check(TeraHeap.isEnabled(), "TeraHeap is on");
            Node[] heads = new Node[groups];
            Object[] big = moveGroups(heads);
            moveCollections();
            checkDepthFirstLayout();
            mutate(heads, big);
            dropHalf(heads);
            System.out.println("SCENARIO-OK");
        }

        static Object[] moveGroups(Node[] heads) {
            int[] hashes = new int[groups];
            for (int g = 0; g < groups; g++) {
                heads[g] = chain(g, perGroup, 16 + g);
                heads[g].scratch = new StringBuilder("scratch-" + g);
                hashes[g] = System.identityHashCode(heads[g]);
                TeraHeap.tagRoot(heads[g], g);
            }
            // One group too big for a region (1M regions): an array of 300K references.
            Object[] big = new Object[300_000];
            for (int i = 0; i < big.length; i++) {
                big[i] = (i % 3 == 0) ? Integer.valueOf(i) : null;
            }
            TeraHeap.tagRoot(big, 100);

            for (int g = 0; g < groups; g++) {
                TeraHeap.move(g);
            }
            TeraHeap.move(100);
            TeraHeapProcess.fullGC();

            H2Stats s = TeraHeap.stats();
            System.out.println("after move: " + s);
            check(s.objectsMoved() > groups * perGroup * 2, "objects moved: " + s.objectsMoved());
            check(s.usedBytes() > 0 && s.regionsInUse() > 0, "H2 in use");
            check(TeraHeap.isInH2(big), "the big array is in H2");
            for (int g = 0; g < groups; g++) {
                check(TeraHeap.isInH2(heads[g]), "group " + g + " root in H2");
                check(TeraHeap.isInH2(heads[g].next.next), "group " + g + " members in H2");
                check(TeraHeap.isInH2(heads[g].data), "group " + g + " arrays in H2");
                check(!TeraHeap.isInH2(heads[g].scratch), "transient field target stays in H1");
                check(heads[g].scratch.toString().equals("scratch-" + g), "transient target intact");
                check(System.identityHashCode(heads[g]) == hashes[g], "identity hash kept");
                synchronized (heads[g]) {
                    check(Thread.holdsLock(heads[g]), "monitor on an H2 object");
                }
            }
            return big;
        }

        /** Collections keep their contents in transient fields that their writeObject writes. */
        static void moveCollections() {
            Map<Integer, int[]> map = new HashMap<>();
            List<String> list = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                map.put(i, new int[] {i, -i});
                list.add("element-" + i);
            }
            SelfSerialized self = new SelfSerialized();
            self.state = new int[] {7, 8, 9};
            self.scratch = new StringBuilder("self-scratch");
            Object[] root = {map, list, self};
            TeraHeap.tagRoot(root, 200);
            TeraHeap.move(200);
            TeraHeapProcess.fullGC();
            TeraHeapProcess.fullGC();   // a full GC with the collections already in H2

            check(TeraHeap.isInH2(root) && TeraHeap.isInH2(map) && TeraHeap.isInH2(list), "collections in H2");
            check(TeraHeap.isInH2(map.get(500)), "a HashMap's values move with it");
            check(TeraHeap.isInH2(list.get(500)), "an ArrayList's elements move with it");
            check(TeraHeap.isInH2(self.state), "a writeObject class's transient field moves");
            // Which fields writeObject writes is not known: all of that class's transient fields move.
            check(TeraHeap.isInH2(self.scratch), "every transient field of a writeObject class moves");
            churn(64);
            TeraHeapProcess.fullGC();
            for (int i = 0; i < 1000; i++) {
                int[] v = map.get(i);
                check(v[0] == i && v[1] == -i && list.get(i).equals("element-" + i), "collection contents intact");
            }
            check(self.state[2] == 9 && self.scratch.toString().equals("self-scratch"), "fields intact");
        }

        static final class Record {
            final int[] values;
            Record(int i) {
                values = new int[] {i, i + 1, i + 2};
            }
        }

        /** Each record is followed in H2 by what it refers to, then by the next record. */
        static void checkDepthFirstLayout() throws Exception {
            Record[] partition = new Record[1000];
            for (int i = 0; i < partition.length; i++) {
                partition[i] = new Record(i);
            }
            TeraHeap.tagRoot(partition, 300);
            TeraHeap.move(300);
            TeraHeapProcess.fullGC();
            check(TeraHeap.isInH2(partition[999].values), "the partition moved");

            // Addresses in the order a scan visits them: record, its values, next record, ...
            Object[] visits = new Object[2 * partition.length];
            for (int i = 0; i < partition.length; i++) {
                visits[2 * i] = partition[i];
                visits[2 * i + 1] = partition[i].values;
            }
            Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            sun.misc.Unsafe unsafe = (sun.misc.Unsafe) f.get(null);
            long base = unsafe.arrayBaseOffset(Object[].class);
            int scale = unsafe.arrayIndexScale(Object[].class);
            long previous = Long.MIN_VALUE;
            for (int i = 0; i < visits.length; i++) {
                // A reference as stored (compressed or not): its order is the objects' address order.
                long at = scale == 4 ? Integer.toUnsignedLong(unsafe.getInt(visits, base + 4L * i))
                                     : unsafe.getLong(visits, base + 8L * i);
                check(at > previous, "visit " + i + " is laid out after visit " + (i - 1));
                previous = at;
            }
        }

        static void mutate(Node[] heads, Object[] big) {
            // Mutate: young objects, old objects and other groups' objects into H2 fields.
            List<Object> oldies = new ArrayList<>();
            for (int round = 0; round < 30; round++) {
                for (int g = 0; g < groups; g++) {
                    int k = 0;
                    for (Node n = heads[g]; n != null; n = n.next, k++) {
                        if (k % 7 == round % 7) {
                            n.payload = (k % 3 == 0) ? ("young-" + round + "-" + k)
                                      : (k % 3 == 1) ? heads[(g + 1) % groups]
                                      : oldies.isEmpty() ? null : oldies.get(k % oldies.size());
                        }
                    }
                }
                for (int i = 0; i < big.length; i += 997) {
                    big[i] = new long[] {i, round};
                }
                oldies.add(new StringBuilder("old-" + round));
                churn(40);                      // minor GCs
                if (round % 10 == 9) {
                    TeraHeapProcess.fullGC();                // full GCs with H2 populated
                }
                // Read everything back.
                for (int g = 0; g < groups; g++) {
                    int k = 0;
                    for (Node n = heads[g]; n != null; n = n.next, k++) {
                        check(n.id == g * 1_000_000L + k, "node id");
                        check(n.intact(), "node data");
                        Object p = n.payload;
                        if (p instanceof String) {
                            check(((String) p).startsWith("young-"), "young payload");
                        } else if (p instanceof Node) {
                            check(((Node) p).id % 1_000_000 == 0, "cross-group link");
                        } else if (p != null) {
                            check(p.toString().startsWith("old-"), "old payload");
                        }
                    }
                    check(k == perGroup, "chain length");
                }
                for (int i = 0; i < big.length; i += 997) {
                    long[] v = (long[]) big[i];
                    check(v[0] == i && v[1] == round, "big array element");
                }
            }

        }

        static void dropHalf(Node[] heads) {
            // Drop half the groups: their regions free at the next full GC, weak refs clear.
            long freedBefore = TeraHeap.stats().regionsFreed();
            List<WeakReference<Node>> weak = new ArrayList<>();
            for (int g = 0; g < groups; g += 2) {
                weak.add(new WeakReference<>(heads[g].next));
                heads[g] = null;
            }
            // The remaining groups may link to dropped ones through payloads: cut those links.
            for (int g = 1; g < groups; g += 2) {
                for (Node n = heads[g]; n != null; n = n.next) {
                    if (n.payload instanceof Node) {
                        n.payload = null;
                    }
                }
            }
            TeraHeapProcess.fullGC();
            TeraHeapProcess.fullGC();
            H2Stats after = TeraHeap.stats();
            System.out.println("after drop: " + after);
            check(after.regionsFreed() > freedBefore, "dropped groups' regions freed");
            for (WeakReference<Node> w : weak) {
                check(w.get() == null, "weak reference into a freed region cleared");
            }
            for (int g = 1; g < groups; g += 2) {
                int k = 0;
                for (Node n = heads[g]; n != null; n = n.next, k++) {
                    check(n.intact() && n.id == g * 1_000_000L + k, "surviving group intact");
                }
            }
        }
    }

    /** A row of a group; its transient field refers to H1. */
    public static class Row {
        final long[] payload;
        transient Object h1;   // stays in H1: a backward reference from H2
        Row(long i) { payload = new long[] {i, -i, i * 7}; }
    }

    /**
     * A 7 MB group, about 14,000 cards, of which 100 rows refer to H1 through a transient field.
     * The full GC that moves it reads in its adjust step the cards of those fields, and not every
     * card of what moved (the debug log's "Read H2's cards" line). Then the H1 objects move (the
     * garbage below them is freed), and every field must have followed them.
     */
    public static class FewCards {
        static final int ROWS = 100_000;
        static final int EVERY = 1000;

        static List<long[]> below = new ArrayList<>();

        public static void main(String[] args) {
            for (int i = 0; i < 100_000; i++) {
                below.add(new long[4]);
            }
            Object[] anchors = new Object[ROWS / EVERY];
            Row[] group = new Row[ROWS];
            for (int i = 0; i < ROWS; i++) {
                group[i] = new Row(i);
                if (i % EVERY == 0) {
                    group[i].h1 = anchors[i / EVERY] = new StringBuilder("anchor-" + i);
                }
            }
            TeraHeap.tagRoot(group, 1);
            TeraHeap.move(1);
            TeraHeapProcess.fullGC();
            check(TeraHeap.isInH2(group) && TeraHeap.isInH2(group[5].payload), "moved");
            check(!TeraHeap.isInH2(anchors[3]), "the transient fields' objects stay in H1");
            for (int round = 0; round < 3; round++) {
                if (round == 1) {
                    below = null;   // the anchors, above it in H1, slide down
                }
                TeraHeapProcess.fullGC();
                for (int i = 0; i < ROWS; i++) {
                    Row r = group[i];
                    check(r.payload[0] == i && r.payload[1] == -i && r.payload[2] == i * 7L, "record " + i);
                    check(i % EVERY == 0 ? r.h1 == anchors[i / EVERY]
                                             && r.h1.toString().equals("anchor-" + i) : r.h1 == null,
                          "record " + i + "'s H1 object, round " + round);
                }
            }
            System.out.println("FEW-CARDS-OK");
        }
    }

    // "Read H2's cards: marking M (...), adjust N (H refer to H1, S summarized)": the first full
    // GC that read any card in its adjust step is the one that moved the group.
    private static final Pattern CARDS_READ = Pattern.compile("Read H2's cards: .*adjust (\\d+) \\((\\d+) refer to H1, \\d+ summarized\\)");

    public static void main(String[] args) throws Exception {
        TeraHeapProcess.runInEveryMode(Scenario.class.getName(), "SCENARIO-OK",
                "-Xmx256m", "-Xmn32m", "-XX:TeraHeapSize=512m", "-XX:TeraHeapRegionSize=1m");
        for (OutputAnalyzer out : TeraHeapProcess.runInEveryMode(FewCards.class.getName(), "FEW-CARDS-OK",
                "-Xmx256m", "-Xmn32m", "-XX:TeraHeapSize=512m", "-XX:TeraHeapRegionSize=1m",
                "-Xlog:gc+teraheap=debug")) {
            Matcher m = CARDS_READ.matcher(out.getStdout());
            long read = 0;
            long h1 = 0;
            while (m.find() && read == 0) {
                read = Long.parseLong(m.group(1));
                h1 = Long.parseLong(m.group(2));
            }
            // 100 fields, each on its row's card (and the next one, where a row crosses into
            // it); dirtying every card of what moved read about 14,000.
            check(h1 >= FewCards.ROWS / FewCards.EVERY, "the move's adjust step found every field into H1: " + h1);
            check(read <= 4 * FewCards.ROWS / FewCards.EVERY, "the move's adjust step read only their cards: " + read);
        }
    }
}
