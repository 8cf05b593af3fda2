package org.teraheap;

/**
 * Hints that place long-lived groups of objects in TeraHeap's second heap, H2.
 *
 * <p>A JVM started with {@code -XX:+EnableTeraHeap} has two heaps: H1, the ordinary
 * garbage-collected heap in DRAM, and H2, a much larger heap mapped over a file on fast
 * storage. Objects in H2 are ordinary Java objects reached through ordinary references;
 * the program reads and writes them as before, and the garbage collector never scans them.
 * H2 is filled and freed in regions; each group of objects, named by a label, fills regions
 * of its own, and a region is freed whole once nothing outside it refers into it.
 *
 * <p>A group is placed in H2 with two hints:
 * <ol>
 *   <li>{@link #tagRoot(Object, long)} names an object as the root of the group
 *       {@code label}. The group is the root and every object reachable from it in H1,
 *       except through {@code transient} fields (but those of a class that declares its own
 *       {@code writeObject}, as collections do, are followed), and except {@code Class}
 *       objects, class loaders, {@code java.lang.ref.Reference} objects and the program's
 *       singletons (what static fields refer to, such as enum constants and
 *       {@code Boolean.TRUE}, and the JDK's boxing caches), which stay in H1. The root itself
 *       always moves.</li>
 *   <li>{@link #move(long)} says the group is ready: at the next full garbage collection
 *       (including one started by {@code System.gc()}) it moves to H2. Without this hint,
 *       tagged groups move anyway when H1's old generation is fuller than
 *       {@code -XX:TeraHeapHighThreshold} after a full collection, until it is back under
 *       {@code -XX:TeraHeapLowThreshold}.</li>
 * </ol>
 *
 * <p>The class works on any JVM. On a stock JVM, or on a TeraHeap JVM without
 * {@code -XX:+EnableTeraHeap}, {@link #isEnabled()} is false and every call does nothing
 * and costs next to nothing: {@code isInH2} answers false and {@link #stats()} is all zeros.
 */
public final class TeraHeap {
    private static final H2Stats ZERO_STATS = new H2Stats(new long[H2Stats.SLOTS]);
    private static final boolean ENABLED = registerIfSupported();

    private TeraHeap() {
    }

    private static boolean registerIfSupported() {
        try {
            registerNatives();
            return true;
        } catch (UnsatisfiedLinkError notTeraHeap) {
            // A stock JVM, or TeraHeap off: the VM does not provide our natives.
            return false;
        }
    }

    /** Whether this JVM runs with TeraHeap on ({@code -XX:+EnableTeraHeap}). */
    public static boolean isEnabled() {
        return ENABLED;
    }

    /**
     * Records {@code root} as the root of the group {@code label}.
     *
     * <p>The label is any value the caller chooses (a cache id, a partition number); objects
     * of one label share H2 regions and are freed together. Tagging does not keep the root
     * alive: a root that becomes unreachable before its group moves is simply forgotten.
     * Tagging the same object again adds it to the other group as well; an object reachable
     * from two groups moves with whichever group moves first. Tagging an object that is
     * already in H2 has no effect: objects added to its group after it moved (entries put
     * into a moved map) stay in H1, reached through H2, unless tagged as roots of their own.
     *
     * @param root  the root object of the group; not null
     * @param label the group's label
     * @throws NullPointerException if {@code root} is null
     */
    public static void tagRoot(Object root, long label) {
        if (root == null) {
            throw new NullPointerException("root");
        }
        if (ENABLED) {
            tagRoot0(root, label);
        }
    }

    /**
     * Advises that the group {@code label} may move to H2 at the next full garbage
     * collection: the tagged roots of that label, and their closures in H1, move then.
     * Roots tagged with the label after the call move at that collection too. The hint
     * is consumed by the collection that moves the group; a group that finds H2 full keeps
     * it, and moves at a later full collection once regions have been freed. Under G1 (with
     * {@code -XX:+TeraHeapG1MoveInPauses}, the default there) the group leaves at the next
     * young or mixed collection instead, as far as it lies in that collection's set of regions
     * (large primitive arrays included, when the collector can free them in it); what lies
     * outside stays in H1 until the next full collection, which moves it.
     *
     * @param label the group's label, as given to {@link #tagRoot(Object, long)}
     */
    public static void move(long label) {
        if (ENABLED) {
            move0(label);
        }
    }

    /** Whether {@code obj} lives in H2 now. False for null, and always false without TeraHeap. */
    public static boolean isInH2(Object obj) {
        return ENABLED && obj != null && isInH2_0(obj);
    }

    /** A snapshot of H2's use and of what has moved so far; all zeros without TeraHeap. */
    public static H2Stats stats() {
        if (!ENABLED) {
            return ZERO_STATS;
        }
        long[] values = new long[H2Stats.SLOTS];
        stats0(values);
        return new H2Stats(values);
    }

    private static native void registerNatives();

    private static native void tagRoot0(Object root, long label);

    private static native void move0(long label);

    private static native boolean isInH2_0(Object obj);

    private static native void stats0(long[] values);
}
