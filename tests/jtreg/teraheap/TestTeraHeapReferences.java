/*
 * @test
 * @summary Groups that hold java.lang.ref References (weak, soft, phantom, WeakHashMap, Cleaner)
 *          and groups reachable only from objects with finalize(): the References stay in H1 and
 *          are reached through H2's cards at later full GCs, on GC worker threads; a region that
 *          a finalizer revives keeps its H1 referents alive before phantom references and Cleaners
 *          are processed; and everything is collected once dropped.
 * @library /lib /test/lib
 * @run main/othervm/timeout=1800 TestTeraHeapReferences
 */

import java.io.Serializable;
import java.lang.ref.Cleaner;
import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.SoftReference;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.teraheap.TeraHeap;

public class TestTeraHeapReferences {
    static void check(boolean ok, String what) {
        TeraHeapProcess.check(ok, what);
    }

    /**
     * Whether a WeakHashMap drops to {@code size} entries: cleared entries reach its queue through
     * the Reference Handler thread, a moment after the GC that cleared them.
     */
    static boolean expungedTo(WeakHashMap<?, ?> map, int size) {
        for (int i = 0; i < 3000 && map.size() > size; i++) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                throw new RuntimeException(e);
            }
        }
        return map.size() == size;
    }

    static final class Key {
        final int id;
        Key(int id) { this.id = id; }
        @Override public int hashCode() { return id; }
        @Override public boolean equals(Object o) { return o instanceof Key && ((Key) o).id == id; }
    }

    /** A group root holding References of every kind; the References themselves stay in H1. */
    static final class Holder implements Serializable {
        final int id;
        final int[] kept;                         // strongly held: moves, and weak refers to it
        WeakReference<int[]> weak;                // referent in H2 after the move
        WeakReference<Object> weakDying;          // referent reachable from nothing else
        Object anchor;                            // holds weakOld's referent until dropped
        WeakReference<Object> weakOld;            // referent in the old generation, then dropped
        SoftReference<long[]> soft;               // referent reachable from nothing else
        PhantomReference<Object> phantom;         // referent reachable from nothing else
        final WeakHashMap<Key, String> map = new WeakHashMap<>();
        final List<Key> strongKeys = new ArrayList<>();

        Holder(int id, ReferenceQueue<Object> queue) {
            this.id = id;
            kept = new int[] {id, -id};
            weak = new WeakReference<>(kept);
            weakDying = new WeakReference<>(new Object());
            soft = new SoftReference<>(new long[] {id});
            phantom = new PhantomReference<>(new Object(), queue);
            for (int k = 0; k < 20; k++) {
                Key key = new Key(id * 100 + k);
                map.put(key, "v" + key.id);
                if (k % 2 == 0) {
                    strongKeys.add(key);   // the other half is only weakly reachable
                }
            }
        }
    }

    /** Reaches a group in H2; the group's transient field leads to an H1 object with a Cleaner. */
    static final class Group implements Serializable {
        final int[] data;
        transient Object resource;   // stays in H1: a backward reference from H2

        Group(int id) {
            data = new int[] {id, id + 1, id + 2};
        }
    }

    static final AtomicInteger finalizersRun = new AtomicInteger();
    static final AtomicInteger finalizersBroken = new AtomicInteger();
    static final AtomicInteger cleanersRun = new AtomicInteger();

    static final class Finalizable {
        final int id;
        final Group group;
        final PhantomReference<Object> phantom;   // to group.resource

        Finalizable(int id, Group group, PhantomReference<Object> phantom) {
            this.id = id;
            this.group = group;
            this.phantom = phantom;
        }

        @Override
        @SuppressWarnings("deprecation")
        protected void finalize() {
            // The resource is reachable from here (through the group in H2): a phantom reference
            // to it must not have been cleared yet, nor its Cleaner run.
            boolean ok = !phantom.refersTo(null) && group.resource != null
                    && group.data[1] == group.data[0] + 1 && group.data[0] == id;
            if (!ok) {
                finalizersBroken.incrementAndGet();
                System.out.println("finalizer " + id + " found its resource's phantom reference cleared");
            }
            finalizersRun.incrementAndGet();
        }
    }

    /** Child: the scenarios, run under whatever flags the parent chose. */
    public static class Scenario {
        public static void main(String[] args) throws Exception {
            check(TeraHeap.isEnabled(), "TeraHeap is on");
            Finalizers.referencesInGroups();
            System.out.println("REFERENCES-OK");
        }
    }

    /** Child: groups reachable only from finalizable objects (and the shared scenario code). */
    public static class Finalizers {
        public static void main(String[] args) throws Exception {
            check(TeraHeap.isEnabled(), "TeraHeap is on");
            finalizersReviveRegions();
            System.out.println("FINALIZERS-OK");
        }

        static void referencesInGroups() {
            long freedBefore = TeraHeap.stats().regionsFreed();
            // Made and used in a method of its own: once it returns, no frame (an interpreted
            // one's stale local, say) can still hold a holder.
            List<WeakReference<Object>> intoH2 = holdersThroughGCs();
            // WeakHashMap entries cleared by the last GCs may still wait for the Reference Handler
            // thread: until it has enqueued them, they are reachable, and so is their queue, which
            // moved with its map. A few full GCs, a moment apart.
            for (int i = 0; i < 100 && !allCleared(intoH2); i++) {
                TeraHeapProcess.fullGC();
                sleep(20);
            }
            check(TeraHeap.stats().regionsFreed() > freedBefore, "dropped holders' regions freed");
            for (WeakReference<Object> w : intoH2) {
                check(w.get() == null, "weak reference into a freed region cleared");
            }
        }

        static boolean allCleared(List<WeakReference<Object>> refs) {
            for (WeakReference<Object> w : refs) {
                if (!w.refersTo(null)) {
                    return false;
                }
            }
            return true;
        }

        static void sleep(long ms) {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                throw new RuntimeException(e);
            }
        }

        /** Holders moved to H2 and checked through GCs; returns weak references to their arrays. */
        static List<WeakReference<Object>> holdersThroughGCs() {
            ReferenceQueue<Object> queue = new ReferenceQueue<>();
            Holder[] holders = new Holder[200];
            for (int i = 0; i < holders.length; i++) {
                holders[i] = new Holder(i, queue);
                TeraHeap.tagRoot(holders[i], 1 + i % 4);
            }
            for (int label = 1; label <= 4; label++) {
                TeraHeap.move(label);
            }
            TeraHeapProcess.fullGC();
            check(TeraHeap.isInH2(holders[0]) && TeraHeap.isInH2(holders[0].kept), "holders moved");
            check(!TeraHeap.isInH2(holders[0].weak), "References stay in H1");

            // From here on the References are reachable only through H2's cards: every full GC
            // reaches them from a region's cards and must treat them as References.
            for (int round = 0; round < 6; round++) {
                for (Holder h : holders) {
                    h.anchor = null;   // weakOld's referent, old by now, is only weakly reachable
                }
                TeraHeapProcess.churn(32);
                TeraHeapProcess.fullGC();
                for (Holder h : holders) {
                    check(h.weak.get() == h.kept && h.kept[0] == h.id && h.kept[1] == -h.id, "weak ref to H2");
                    check(h.weakDying.get() == null, "weakly reachable referent cleared");
                    check(h.weakOld == null || h.weakOld.get() == null, "weakly reachable old referent cleared");
                    check(h.phantom.refersTo(null), "phantom reference cleared");
                    long[] s = h.soft.get();
                    check(s == null || s[0] == h.id, "soft referent intact");
                    check(expungedTo(h.map, 10), "WeakHashMap kept its strong keys only: " + h.map.size());
                    for (Key k : h.strongKeys) {
                        check(("v" + k.id).equals(h.map.get(k)), "WeakHashMap value");
                    }
                }
                // New References and new weak entries, made by the mutator into H2 objects.
                for (Holder h : holders) {
                    h.weakDying = new WeakReference<>(new Object());
                    h.soft = new SoftReference<>(new long[] {h.id});
                    h.phantom = new PhantomReference<>(new Object(), queue);
                    h.anchor = new StringBuilder("anchor-" + h.id);
                    h.weakOld = new WeakReference<>(h.anchor);
                    Key k = new Key(1_000_000 + round * 1000 + h.id);
                    h.map.put(k, "dropped");
                    h.map.put(new Key(2_000_000 + round * 1000 + h.id), "old, then dropped");
                    h.strongKeys.add(new Key(2_000_000 + round * 1000 + h.id));
                }
                TeraHeapProcess.fullGC();   // the anchors and new Keys are old now
                for (Holder h : holders) {
                    h.strongKeys.remove(h.strongKeys.size() - 1);
                }
            }
            int enqueued = 0;
            while (queue.poll() != null) {
                enqueued++;
            }
            check(enqueued >= holders.length, "phantom references enqueued: " + enqueued);

            // The holders are dropped when this returns: their regions free, and references into them clear.
            List<WeakReference<Object>> intoH2 = new ArrayList<>();
            for (Holder h : holders) {
                intoH2.add(new WeakReference<>(h.kept));
            }
            return intoH2;
        }

        static final List<Finalizable> finalizables = new ArrayList<>();

        static final int GROUPS = 50;

        static void finalizersReviveRegions() throws Exception {
            Cleaner cleaner = Cleaner.create();
            final int n = GROUPS;
            // Made in a method of its own, so that no frame of this one holds a group or a finalizable.
            List<PhantomReference<Object>> phantoms = groupsWithResources(cleaner);
            // Now only the finalizers reach the groups, and only the groups (in H2) the resources.
            finalizables.clear();
            TeraHeapProcess.fullGC();
            long deadline = System.currentTimeMillis() + 120_000;
            while (finalizersRun.get() < n && System.currentTimeMillis() < deadline) {
                System.runFinalization();
                Thread.sleep(10);
            }
            check(finalizersRun.get() == n, "finalizers run: " + finalizersRun.get());
            check(finalizersBroken.get() == 0, "finalizers that found their resource's phantom reference "
                    + "cleared or Cleaner run: " + finalizersBroken.get());
            // Finalized: the next GCs free the groups, then the resources, and the Cleaners run.
            deadline = System.currentTimeMillis() + 120_000;
            while (cleanersRun.get() < n && System.currentTimeMillis() < deadline) {
                TeraHeapProcess.fullGC();
                Thread.sleep(50);
            }
            check(cleanersRun.get() == n, "cleaners run once the finalized groups died: " + cleanersRun.get());
            for (PhantomReference<Object> p : phantoms) {
                check(p.refersTo(null), "phantom reference to a dead resource cleared");
            }
            Reference.reachabilityFence(phantoms);
        }

        /** Groups moved to H2, each reached from a finalizable and leading to a resource with a Cleaner. */
        static List<PhantomReference<Object>> groupsWithResources(Cleaner cleaner) {
            final int n = GROUPS;
            List<PhantomReference<Object>> phantoms = new ArrayList<>();
            ReferenceQueue<Object> queue = new ReferenceQueue<>();
            for (int i = 0; i < n; i++) {
                Group g = new Group(i);
                g.resource = new StringBuilder("resource-" + i);
                cleaner.register(g.resource, cleanersRun::incrementAndGet);
                PhantomReference<Object> p = new PhantomReference<>(g.resource, queue);
                phantoms.add(p);
                finalizables.add(new Finalizable(i, g, p));
                TeraHeap.tagRoot(g, 100 + i);   // a label, and so a region, per group
                TeraHeap.move(100 + i);
            }
            TeraHeapProcess.fullGC();
            for (Finalizable f : finalizables) {
                check(TeraHeap.isInH2(f.group) && !TeraHeap.isInH2(f.group.resource), "groups moved");
            }
            return phantoms;
        }
    }

    public static void main(String[] args) throws Exception {
        // Two GC threads at least: References are then discovered by several workers at once.
        String[] flags = {"-Xmx256m", "-Xmn32m", "-XX:TeraHeapSize=256m", "-XX:TeraHeapRegionSize=1m",
                "-XX:ParallelGCThreads=2"};
        TeraHeapProcess.runInEveryMode(Scenario.class.getName(), "REFERENCES-OK", flags);
        TeraHeapProcess.runInEveryMode(Finalizers.class.getName(), "FINALIZERS-OK", flags);
    }
}
