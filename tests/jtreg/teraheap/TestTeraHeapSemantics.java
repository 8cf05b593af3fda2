/*
 * @test
 * @summary Stores into H2 objects by every route (arraycopy, reflection, VarHandle, Unsafe,
 *          clone), groups moved without hints past the high threshold only down to the low one,
 *          a full H2 that leaves the rest in H1, soft references into live and freed regions,
 *          classes whose only instances live in H2, and H2 cards whose references into H1 are
 *          summarized (their targets remembered per region) while those targets move in H1 and the
 *          fields are overwritten and cleared.
 * @library /lib /test/lib
 * @modules jdk.unsupported
 * @run main/othervm/timeout=1800 TestTeraHeapSemantics
 */

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.SoftReference;
import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

import jdk.test.lib.process.OutputAnalyzer;
import org.teraheap.H2Stats;
import org.teraheap.TeraHeap;

public class TestTeraHeapSemantics {
    static void check(boolean ok, String what) {
        if (!ok) {
            throw new RuntimeException("failed: " + what);
        }
    }

    static void churn(int mb) {
        List<byte[]> junk = new ArrayList<>();
        for (int i = 0; i < mb; i++) {
            junk.add(new byte[1 << 20]);
            if (junk.size() > 4) {
                junk.clear();
            }
        }
    }

    public static class Box implements Cloneable {
        public Object value;
        public long stamp;
        public Box(long stamp) { this.stamp = stamp; }
        public Box copy() throws CloneNotSupportedException { return (Box) clone(); }
    }

    /** Every way of storing a reference into an H2 object, then minor and full GCs. */
    public static class Stores {
        public static void main(String[] args) throws Exception {
            Object[] array = new Object[1000];
            Box[] boxes = new Box[100];
            for (int i = 0; i < boxes.length; i++) {
                boxes[i] = new Box(i);
            }
            array[0] = boxes;
            TeraHeap.tagRoot(array, 1);
            TeraHeap.move(1);
            System.gc();
            check(TeraHeap.isInH2(array) && TeraHeap.isInH2(boxes) && TeraHeap.isInH2(boxes[7]), "moved");

            Field valueField = Box.class.getField("value");
            VarHandle vh = MethodHandles.lookup().findVarHandle(Box.class, "value", Object.class);
            Field theUnsafe = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            sun.misc.Unsafe unsafe = (sun.misc.Unsafe) theUnsafe.get(null);
            long valueOffset = unsafe.objectFieldOffset(valueField);
            long arrayBase = unsafe.arrayBaseOffset(Object[].class);
            long arrayScale = unsafe.arrayIndexScale(Object[].class);

            for (int round = 0; round < 20; round++) {
                String[] young = new String[array.length];
                for (int i = 0; i < young.length; i++) {
                    young[i] = "v" + round + ":" + i;
                }
                System.arraycopy(young, 1, array, 1, array.length - 1);        // arraycopy stub
                for (int i = 0; i < boxes.length; i++) {
                    String v = "b" + round + ":" + i;
                    switch (i % 4) {
                        case 0: valueField.set(boxes[i], v); break;               // reflection
                        case 1: vh.setVolatile(boxes[i], v); break;               // VarHandle
                        case 2: unsafe.putObject(boxes[i], valueOffset, v); break; // Unsafe, precise mark
                        default: boxes[i].value = v; break;                       // plain field store
                    }
                }
                unsafe.putObject(array, arrayBase + 999 * arrayScale, "u" + round);
                churn(24);
                if (round % 5 == 4) {
                    System.gc();
                }
                for (int i = 1; i < 999; i++) {
                    check(("v" + round + ":" + i).equals(array[i]), "array element " + i);
                }
                check(("u" + round).equals(array[999]), "Unsafe array store");
                for (int i = 0; i < boxes.length; i++) {
                    check(("b" + round + ":" + i).equals(boxes[i].value), "box " + i);
                }
                Box c = boxes[3].copy();                                          // clone of an H2 object
                check(!TeraHeap.isInH2(c) && c.stamp == 3 && c.value == boxes[3].value, "clone lands in H1");
            }
            System.out.println("STORES-OK");
        }
    }

    /** No hints: tagged groups move only once H1 is above the high threshold, down to the low one. */
    public static class Threshold {
        public static void main(String[] args) {
            List<long[][]> groups = new ArrayList<>();
            // About 80% of a 64M heap's old generation in 64 groups of 512K each: enough that
            // the groups other GC workers (up to 8 here) are still moving when the low threshold
            // is reached cannot take them all.
            for (int g = 0; g < 64; g++) {
                long[][] group = new long[16][];
                for (int i = 0; i < group.length; i++) {
                    group[i] = new long[4000];
                    group[i][0] = g;
                }
                groups.add(group);
                TeraHeap.tagRoot(group, g);
            }
            System.gc();
            int moved = 0;
            for (long[][] g : groups) {
                moved += TeraHeap.isInH2(g) ? 1 : 0;
            }
            System.out.println("groups moved without hints: " + moved + " of " + groups.size());
            check(moved > 0 && moved < groups.size(), "some, not all, groups move without hints");
            for (int g = 0; g < groups.size(); g++) {
                for (long[] a : groups.get(g)) {
                    check(a[0] == g, "contents");
                }
            }
            System.out.println("THRESHOLD-OK");
        }
    }

    /** An H2 too small for the group: what fits moves, the rest stays in H1, all stays correct. */
    public static class Full {
        public static void main(String[] args) {
            Object[] group = new Object[6000];
            for (int i = 0; i < group.length; i++) {
                group[i] = new int[256];
                ((int[]) group[i])[0] = i;
            }
            TeraHeap.tagRoot(group, 1);
            TeraHeap.move(1);
            System.gc();
            int inH2 = 0;
            for (Object o : group) {
                inH2 += TeraHeap.isInH2(o) ? 1 : 0;
            }
            System.out.println("in H2: " + inH2 + " of " + group.length + "; " + TeraHeap.stats());
            check(inH2 > 0 && inH2 < group.length, "part of the group moved");
            for (int round = 0; round < 3; round++) {
                churn(32);
                System.gc();
                for (int i = 0; i < group.length; i++) {
                    check(((int[]) group[i])[0] == i, "element " + i);
                }
            }
            System.out.println("FULL-OK");
        }
    }

    /**
     * A group that finds H2 full keeps its move() hint and moves once regions are freed, without
     * a new hint; the "H2 is full" warning is given again when H2 fills again after that.
     */
    public static class HintKept {
        static Object[] group(int arrays) {
            Object[] g = new Object[arrays];
            for (int i = 0; i < arrays; i++) {
                g[i] = new int[] {i, 0};   // small, so the filler leaves no room for the late group's root
            }
            return g;
        }

        public static void main(String[] args) {
            Object[] filler = group(200_000);   // about 5 MB: more than the 4 MB of H2
            TeraHeap.tagRoot(filler, 1);
            TeraHeap.move(1);
            System.gc();
            check(TeraHeap.isInH2(filler), "the filler moved, as far as it fits");
            Object[] late = group(10);
            TeraHeap.tagRoot(late, 2);
            TeraHeap.move(2);
            System.gc();
            check(!TeraHeap.isInH2(late), "no room: the late group stays in H1");
            check(TeraHeap.stats().movableLabels() == 1, "its hint is kept: " + TeraHeap.stats());
            filler = null;
            System.gc();   // frees the filler's regions, then moves the late group on its old hint
            check(TeraHeap.isInH2(late) && TeraHeap.isInH2(late[9]), "the late group moved once there was room");
            check(TeraHeap.stats().movableLabels() == 0, "its hint is used up: " + TeraHeap.stats());
            Object[] again = group(200_000);
            TeraHeap.tagRoot(again, 3);
            TeraHeap.move(3);
            System.gc();   // fills H2 again: warned again
            for (int i = 0; i < late.length; i++) {
                check(((int[]) late[i])[0] == i, "late group intact");
            }
            System.out.println("HINT-KEPT-OK");
        }
    }

    /**
     * With no free region left, a group stays in H1 rather than go into another label's open
     * region: there it would live as long as that region, and so would the H1 objects it refers
     * to (here through a transient field), long after the program dropped it.
     */
    public static class NoSharing {
        static class Holder {
            transient Object h1Only;
            int[] payload = new int[100];
        }

        public static void main(String[] args) {
            List<Object[]> kept = new ArrayList<>();
            for (int label = 1; label <= 8; label++) {   // a region each, barely used: H2 has 8
                Object[] g = {new int[1000]};
                TeraHeap.tagRoot(g, label);
                TeraHeap.move(label);
                kept.add(g);
            }
            System.gc();
            check(TeraHeap.stats().regionsInUse() == 8, "every region in use: " + TeraHeap.stats());
            Holder late = new Holder();
            late.h1Only = new byte[1 << 20];
            WeakReference<Object> h1Only = new WeakReference<>(late.h1Only);
            TeraHeap.tagRoot(late, 9);
            TeraHeap.move(9);
            System.gc();
            check(!TeraHeap.isInH2(late) && !TeraHeap.isInH2(late.payload),
                  "no free region: the late group stays in H1, out of the other labels' regions");
            late = null;
            System.gc();
            check(h1Only.get() == null, "what only the dropped group referred to is collected");
            for (Object[] g : kept) {
                check(TeraHeap.isInH2(g) && ((int[]) g[0]).length == 1000, "the other groups stay in H2");
            }
            System.out.println("NO-SHARING-OK");
        }
    }

    /** An object too large for any run of free regions stays in H1; smaller ones after it move. */
    public static class LargeNoRoom {
        public static void main(String[] args) {
            Object[] first = {new int[1000]};
            TeraHeap.tagRoot(first, 1);
            TeraHeap.move(1);
            System.gc();   // takes one of H2's 4 regions
            check(TeraHeap.isInH2(first), "first group moved");
            long[] huge = new long[450_000];   // 3.6 MB: four contiguous 1 MB regions, which no longer exist
            Object[] group = new Object[101];
            group[0] = huge;
            for (int i = 1; i < group.length; i++) {
                group[i] = new int[] {i};
            }
            TeraHeap.tagRoot(group, 2);
            TeraHeap.move(2);
            System.gc();
            check(TeraHeap.isInH2(group) && !TeraHeap.isInH2(huge), "the huge array stays in H1");
            for (int i = 1; i < group.length; i++) {
                check(TeraHeap.isInH2(group[i]) && ((int[]) group[i])[0] == i,
                      "the small objects after it moved: " + i);
            }
            System.out.println("LARGE-NO-ROOM-OK");
        }
    }

    enum Color { RED, GREEN }

    /** Held by a static field: a program-wide object that no group takes. */
    static final StringBuilder SHARED = new StringBuilder("shared");
    static final int[] TAGGED_STATIC = {1, 2, 3};

    /**
     * A group does not take the program's singletons (enum constants, Boolean.TRUE, cached
     * Integers, what static fields refer to); fresh objects beside them move, and a tagged root
     * moves even when a static field refers to it.
     */
    public static class Singletons {
        public static void main(String[] args) {
            Integer fresh = Integer.valueOf(100_000);   // outside the Integer cache
            Object[] group = {Color.GREEN, Boolean.TRUE, Integer.valueOf(7), SHARED, fresh,
                              new StringBuilder("own")};
            TeraHeap.tagRoot(group, 1);
            TeraHeap.tagRoot(TAGGED_STATIC, 2);
            TeraHeap.move(1);
            TeraHeap.move(2);
            System.gc();
            check(TeraHeap.isInH2(group) && TeraHeap.isInH2(fresh) && TeraHeap.isInH2(group[5]),
                  "the group and its own objects moved");
            check(!TeraHeap.isInH2(Color.GREEN) && !TeraHeap.isInH2(Boolean.TRUE)
                  && !TeraHeap.isInH2(Integer.valueOf(7)) && !TeraHeap.isInH2(SHARED),
                  "singletons stay in H1");
            check(TeraHeap.isInH2(TAGGED_STATIC), "a tagged root moves although a static field refers to it");
            check(group[0] == Color.GREEN && group[1] == Boolean.TRUE && group[2] == Integer.valueOf(7)
                  && group[3] == SHARED && ((Integer) group[4]) == 100_000, "the group still refers to them");
            System.gc();
            check(Color.valueOf("GREEN") == group[0] && TAGGED_STATIC[2] == 3, "intact after another full GC");
            System.out.println("SINGLETONS-OK");
        }
    }

    /** A transient field's target stays in H1 when its object moves. */
    public static class Held {
        public transient Object value;
        public final long stamp;
        public Held(long stamp) { this.stamp = stamp; }
    }

    /**
     * Nearly every card of two groups refers to H1 objects that stay there (through transient
     * fields, and cached boxes), as Spark's cached rows refer to the JDK's cached boxes. The adjust step
     * summarizes those cards, and marking then marks their targets without reading them: label 1
     * refers to 50 targets (all summarized), label 2 to 3,000 (more than a region remembers). The
     * targets then move in H1 (the garbage below them is freed), the fields are overwritten with
     * young objects (instance fields: the barrier marks the header's card) or cleared, and every
     * field must still hold what the program stored, through minor and full GCs.
     */
    public static class Summarized {
        static List<long[]> below = new ArrayList<>();
        static Box[] few;
        static Box[] many;

        static void checkAll(Held[] g1, Held[] g2, Object[] expect1, String when) {
            for (int i = 0; i < g1.length; i++) {
                check(g1[i].value == expect1[i] && g1[i].stamp == -i, "label 1, box " + i + " " + when);
                check(g2[i].value == many[i % many.length] && g2[i].stamp == i, "label 2, box " + i + " " + when);
            }
            for (int k = 0; k < few.length; k++) {
                check(few[k].stamp == k, "target " + k + " intact " + when);
            }
            for (int k = 0; k < many.length; k++) {
                check(many[k].stamp == 1000 + k, "target " + (1000 + k) + " intact " + when);
            }
        }

        public static void main(String[] args) {
            for (int i = 0; i < 40_000; i++) {
                below.add(new long[16]);
            }
            few = new Box[50];
            for (int k = 0; k < few.length; k++) {
                few[k] = new Box(k);
            }
            many = new Box[3000];
            for (int k = 0; k < many.length; k++) {
                many[k] = new Box(1000 + k);
            }
            System.gc();   // all old, the targets above the garbage-to-be
            Held[] g1 = new Held[20_000];
            Held[] g2 = new Held[20_000];
            Object[] expect1 = new Object[g1.length];
            for (int i = 0; i < g1.length; i++) {
                g1[i] = new Held(-i);
                g1[i].value = expect1[i] = (i % 3 == 0) ? Integer.valueOf(i % 100) : few[i % few.length];
                g2[i] = new Held(i);
                g2[i].value = many[i % many.length];
            }
            TeraHeap.tagRoot(g1, 1);
            TeraHeap.tagRoot(g2, 2);
            TeraHeap.move(1);
            TeraHeap.move(2);
            System.gc();
            check(TeraHeap.isInH2(g1) && TeraHeap.isInH2(g1[5]) && TeraHeap.isInH2(g2[5]), "moved");
            check(!TeraHeap.isInH2(few[3]) && !TeraHeap.isInH2(many[3]), "the targets stay in H1");
            System.gc();   // marking reads no summarized card
            checkAll(g1, g2, expect1, "after two full GCs");

            below = null;
            System.gc();   // the targets slide down: summarized cards are read again and adjusted
            checkAll(g1, g2, expect1, "after the targets moved");
            System.gc();
            checkAll(g1, g2, expect1, "after another full GC");

            for (int round = 0; round < 3; round++) {
                for (int i = round; i < g1.length; i += 7) {
                    g1[i].value = expect1[i] = new Box(round);     // young, on a summarized card
                }
                for (int i = round; i < g1.length; i += 11) {
                    g1[i].value = expect1[i] = null;
                }
                churn(64);   // minor GCs, with the stored boxes young
                checkAll(g1, g2, expect1, "after minor GCs in round " + round);
                System.gc();
                checkAll(g1, g2, expect1, "after a full GC in round " + round);
            }
            System.out.println("SUMMARIZED-OK");
        }
    }

    /**
     * A summary never keeps an object alive. 100 H1 objects are reachable only through the
     * transient fields of a group in H2, 200 fields each, so their cards are summarized. Full GCs
     * keep them while the fields hold them. Once the fields that refer to half of them are cleared
     * by compiled code, which marks no card for a stored null (so the region's summary still
     * names them), the next full GC collects that half and clears their weak references, and the
     * other half stays where the fields find it. Before each full GC, each target gets a weak
     * reference that only it reaches, to an old object nothing else reaches (so the scavenge
     * before the full GC leaves it): found by the marking that reads the summarized cards
     * again, it is discovered as any other (by the GC worker that found it) and cleared.
     */
    public static class SummaryAlone {
        static final int TARGETS = 100;

        static void clearEven(Held[] g) {
            for (int i = 0; i < g.length; i++) {
                if ((i % TARGETS) % 2 == 0) {
                    g[i].value = null;
                }
            }
        }

        static void checkKept(Held[] g, List<WeakReference<Box>> weak, boolean evenCleared, String when) {
            for (int k = 0; k < TARGETS; k++) {
                Box b = weak.get(k).get();
                if (evenCleared && k % 2 == 0) {
                    check(b == null, "target " + k + " collected once no field refers to it, " + when);
                } else {
                    check(b != null && b.stamp == k, "target " + k + " kept by the fields in H2, " + when);
                    check(b.value instanceof WeakReference && ((WeakReference<?>) b.value).get() == null,
                          "target " + k + "'s own weak reference cleared, " + when);
                }
            }
            for (int i = 0; i < g.length; i++) {
                int k = i % TARGETS;
                Object expect = evenCleared && k % 2 == 0 ? null : weak.get(k).get();
                check(g[i].stamp == i && g[i].value == expect, "field " + i + " " + when);
            }
        }

        static Box[][] referents;   // old, one set per full GC, dropped as it is handed out

        static void armWeak(List<WeakReference<Box>> weak, int gc) {
            for (WeakReference<Box> w : weak) {
                Box b = w.get();
                if (b != null) {
                    b.value = new WeakReference<>(referents[gc][(int) b.stamp]);
                }
            }
            referents[gc] = null;
        }

        public static void main(String[] args) {
            List<WeakReference<Box>> weak = new ArrayList<>();
            Box[] targets = new Box[TARGETS];
            for (int k = 0; k < TARGETS; k++) {
                targets[k] = new Box(k);
                weak.add(new WeakReference<>(targets[k]));
            }
            referents = new Box[5][TARGETS];
            for (Box[] set : referents) {
                for (int k = 0; k < TARGETS; k++) {
                    set[k] = new Box(-k);
                }
            }
            Held[] g = new Held[20_000];
            for (int i = 0; i < g.length; i++) {
                g[i] = new Held(i);
                g[i].value = targets[i % TARGETS];
            }
            targets = null;
            System.gc();   // the targets old
            TeraHeap.tagRoot(g, 3);
            TeraHeap.move(3);
            System.gc();   // moved; the adjust step summarizes the cards
            check(TeraHeap.isInH2(g[7]) && !TeraHeap.isInH2(weak.get(7).get()), "moved, the targets left in H1");
            for (int round = 0; round < 3; round++) {
                armWeak(weak, round);
                System.gc();   // the targets are reached only through the summarized cards
                checkKept(g, weak, false, "full GC " + round);
            }
            // Compiled first (on H1 copies), so that the stores of null into the group mark no card.
            Held[] scratch = new Held[g.length];
            for (int i = 0; i < scratch.length; i++) {
                scratch[i] = new Held(i);
            }
            for (int round = 0; round < 300; round++) {
                clearEven(scratch);
            }
            clearEven(g);
            armWeak(weak, 3);
            System.gc();
            checkKept(g, weak, true, "after the fields were cleared");
            churn(64);
            armWeak(weak, 4);
            System.gc();
            checkKept(g, weak, true, "after minor GCs and another full GC");
            System.out.println("SUMMARY-ALONE-OK");
        }
    }

    /** Soft references into a live region stay; into a freed one they are cleared, never dangling. */
    public static class Soft {
        public static void main(String[] args) {
            Object[] kept = makeGroup(1);
            Object[] dropped = makeGroup(2);
            TeraHeap.move(1);
            TeraHeap.move(2);
            System.gc();
            check(TeraHeap.isInH2(kept) && TeraHeap.isInH2(dropped), "both moved");
            SoftReference<Object> toKept = new SoftReference<>(kept[5]);
            SoftReference<Object> toDropped = new SoftReference<>(dropped[5]);
            WeakReference<Object> weakToDropped = new WeakReference<>(dropped[6]);
            dropped = null;
            System.gc();
            System.gc();
            check(toKept.get() == kept[5], "soft reference into a live region");
            check(toDropped.get() == null && weakToDropped.get() == null,
                    "soft and weak references into a freed region are cleared");
            check(TeraHeap.stats().regionsFreed() >= 1, "the dropped group's region is freed");
            System.out.println("SOFT-OK");
        }

        static Object[] makeGroup(long label) {
            Object[] g = new Object[100];
            for (int i = 0; i < g.length; i++) {
                g[i] = new StringBuilder("g" + label + ":" + i);
            }
            TeraHeap.tagRoot(g, label);
            return g;
        }
    }

    /** A class loader whose classes' only instances live in H2. */
    public static class Unloading {
        public static void main(String[] args) throws Exception {
            List<Object> holder = new ArrayList<>();
            WeakReference<ClassLoader> loaderRef = fill(holder);
            System.gc();
            check(TeraHeap.isInH2(holder.get(0)), "instances moved");
            for (int i = 0; i < 5; i++) {
                churn(16);
                System.gc();            // class unloading runs at full GCs
            }
            check(loaderRef.get() != null, "a class with instances in a live H2 region stays loaded");
            for (int i = 0; i < holder.size(); i++) {
                Object box = holder.get(i);
                check(box.getClass().getClassLoader() instanceof TeraHeapProcess.IsolatingLoader, "loader");
                check(box.getClass().getField("stamp").getLong(box) == i, "field read by reflection");
                Object copy = box.getClass().getMethod("copy").invoke(box);   // runs the class's code
                check(copy.getClass() == box.getClass(), "method of the H2-only class runs");
            }
            holder.clear();
            for (int i = 0; i < 5 && loaderRef.get() != null; i++) {
                System.gc();
            }
            check(loaderRef.get() == null, "once its instances are gone, the class unloads");
            System.out.println("UNLOADING-OK");
        }

        static WeakReference<ClassLoader> fill(List<Object> holder) throws Exception {
            TeraHeapProcess.IsolatingLoader loader = new TeraHeapProcess.IsolatingLoader(Box.class);
            Class<?> c = loader.loadClass(Box.class.getName());
            check(c != Box.class, "an isolated copy of the class");
            for (int i = 0; i < 50; i++) {
                Object instance = c.getConstructor(long.class).newInstance((long) i);
                holder.add(instance);
                TeraHeap.tagRoot(instance, 9);
            }
            TeraHeap.move(9);
            return new WeakReference<>(loader);
        }
    }

    /**
     * A freed region's storage goes back to the file system (soon after the GC, off the pause), and
     * the region is reused; a region reused while its storage is queued or being given back keeps
     * what is written to it.
     */
    public static class Storage {
        static long allocated(String file) throws Exception {
            Process p = new ProcessBuilder("stat", "-c", "%b %B", file).start();
            String[] f = new String(p.getInputStream().readAllBytes()).trim().split(" ");
            p.waitFor();
            return Long.parseLong(f[0]) * Long.parseLong(f[1]);
        }

        static Object[] group(long label) {
            Object[] g = new Object[8];
            for (int i = 0; i < g.length; i++) {
                byte[] b = new byte[900 * 1024];   // one 1M region each
                java.util.Arrays.fill(b, (byte) (label | 1));
                g[i] = b;
            }
            TeraHeap.tagRoot(g, label);
            TeraHeap.move(label);
            return g;
        }

        public static void main(String[] args) throws Exception {
            String file = System.getProperty("teraheap.file");
            long size = TeraHeap.stats().capacityBytes();
            Object[] first = group(1);
            System.gc();
            check(TeraHeap.isInH2(first[7]), "moved");
            long regions = TeraHeap.stats().regionsInUse();   // 8 of 1 MB, or one larger one
            long before = allocated(file);
            check(before >= size, "the file is preallocated: " + before);
            first = null;
            System.gc();
            long after = allocated(file);
            for (int i = 0; i < 200 && after > before - 8 * 900 * 1024; i++) {
                Thread.sleep(50);
                after = allocated(file);
            }
            System.out.println("allocated before " + before + ", after freeing " + after + "; " + TeraHeap.stats());
            check(TeraHeap.stats().regionsFreed() >= regions, "regions freed");
            check(after <= before - 8 * 900 * 1024, "their storage went back to the file system");
            Object[] second = group(2);
            System.gc();
            check(TeraHeap.isInH2(second[7]) && TeraHeap.stats().regionsInUse() >= regions, "freed regions reused");
            check(allocated(file) >= before - 1024 * 1024, "reused regions' storage taken back");
            // Each GC frees the last group's regions and moves the next one into them at once,
            // while their storage is still queued to be given back, or being given back.
            Object[] current = second;
            for (long label = 3; label < 43; label++) {
                current = group(label);
                System.gc();
                check(TeraHeap.isInH2(current[7]), "group " + label + " moved");
                if (label % 8 == 0) {
                    Thread.sleep(100);   // what was queued has been given back by now
                }
                checkFilled(current, label);
            }
            Thread.sleep(200);
            System.gc();
            checkFilled(current, 42);
            System.out.println("STORAGE-OK");
        }

        static void checkFilled(Object[] g, long label) {
            for (Object o : g) {
                byte[] b = (byte[]) o;
                for (int i = 0; i < b.length; i += 4096) {
                    check(b[i] == (byte) (label | 1), "group " + label + " reads back what was written at " + i
                          + ": " + b[i]);
                }
                check(b[b.length - 1] == (byte) (label | 1), "group " + label + "'s last byte");
            }
        }
    }

    static void run(String scenario, String expect, String... flags) throws Exception {
        TeraHeapProcess.runInEveryMode(TestTeraHeapSemantics.class.getName() + "$" + scenario, expect, flags);
    }

    /** A scenario whose groups' cards the adjust step must summarize (so the debug log says). */
    static List<OutputAnalyzer> runSummarizing(String scenario, String expect) throws Exception {
        List<OutputAnalyzer> outs = TeraHeapProcess.runInEveryMode(TestTeraHeapSemantics.class.getName() + "$" + scenario,
                expect, "-Xmx128m", "-Xmn16m", "-XX:TeraHeapSize=64m", "-XX:TeraHeapRegionSize=1m",
                "-Xlog:gc+teraheap=debug");
        for (OutputAnalyzer out : outs) {
            check(out.getStdout().matches("(?s).*refer to H1, [1-9][0-9]* summarized.*"),
                  scenario + ": the adjust step summarized cards");
        }
        return outs;
    }

    public static void main(String[] args) throws Exception {
        run("Stores", "STORES-OK", "-Xmx128m", "-Xmn16m", "-XX:TeraHeapSize=64m", "-XX:TeraHeapRegionSize=1m",
            "--add-exports", "jdk.unsupported/sun.misc=ALL-UNNAMED");
        run("Threshold", "THRESHOLD-OK", "-Xmx64m", "-Xmn16m", "-XX:TeraHeapSize=256m", "-XX:TeraHeapRegionSize=1m",
            "-XX:TeraHeapHighThreshold=40", "-XX:TeraHeapLowThreshold=20");
        run("Full", "FULL-OK", "-Xmx128m", "-Xmn16m", "-XX:TeraHeapSize=4m", "-XX:TeraHeapRegionSize=1m");
        for (OutputAnalyzer out : TeraHeapProcess.runInEveryMode(TestTeraHeapSemantics.class.getName() + "$HintKept",
                "HINT-KEPT-OK", "-Xmx128m", "-Xmn16m", "-XX:TeraHeapSize=4m", "-XX:TeraHeapRegionSize=1m")) {
            int warnings = out.getStdout().split("H2 is full", -1).length - 1;
            check(warnings == 2, "warned when H2 filled, and again when it filled after regions were freed: "
                  + warnings + " warnings");
        }
        run("Singletons", "SINGLETONS-OK", "-Xmx128m", "-Xmn16m", "-XX:TeraHeapSize=64m", "-XX:TeraHeapRegionSize=1m");
        // Label 2's 3,000 targets fill its regions' sets: the debug log says why the rest stay oldgen.
        for (OutputAnalyzer out : runSummarizing("Summarized", "SUMMARIZED-OK")) {
            check(out.getStdout().matches("(?s).*left unsummarized: 0 also refer to young objects, 0 to other labels' regions, "
                                          + "0 to more than a card remembers, [1-9][0-9]* in regions that remember 256 objects already.*"),
                  "Summarized: the cards left oldgen are counted as those of full regions");
        }
        // Its targets are reached only through summarized cards: marking reads them after all.
        for (OutputAnalyzer out : runSummarizing("SummaryAlone", "SUMMARY-ALONE-OK")) {
            check(out.getStdout().matches("(?s).*Summaries used by marking: [0-9]+ regions, [1-9][0-9]* of them naming an unmarked object.*"),
                  "SummaryAlone: marking read the summarized cards of a region whose targets nothing else reached");
        }
        run("NoSharing", "NO-SHARING-OK", "-Xmx128m", "-XX:TeraHeapSize=8m", "-XX:TeraHeapRegionSize=1m");
        run("LargeNoRoom", "LARGE-NO-ROOM-OK", "-Xmx128m", "-Xmn16m", "-XX:TeraHeapSize=4m",
            "-XX:TeraHeapRegionSize=1m");
        run("Soft", "SOFT-OK", "-Xmx128m", "-XX:TeraHeapSize=64m", "-XX:TeraHeapRegionSize=1m",
            "-XX:SoftRefLRUPolicyMSPerMB=0");
        String file = new java.io.File("h2-storage").getAbsolutePath();
        run("Storage", "STORAGE-OK", "-Xmx128m", "-XX:TeraHeapSize=16m", "-XX:TeraHeapRegionSize=1m",
            "-XX:TeraHeapPath=" + file, "-Dteraheap.file=" + file);
        // Regions larger than one punch (64 MB) are given back in pieces; one opened again while
        // its pieces are being punched stops them.
        String large = new java.io.File("h2-storage-large").getAbsolutePath();
        run("Storage", "STORAGE-OK", "-Xmx128m", "-XX:TeraHeapSize=512m", "-XX:TeraHeapRegionSize=128m",
            "-XX:TeraHeapPath=" + large, "-Dteraheap.file=" + large);
        run("Unloading", "UNLOADING-OK", "-Xmx128m", "-XX:TeraHeapSize=64m", "-XX:TeraHeapRegionSize=1m",
            "-Xlog:class+unload");
    }
}
