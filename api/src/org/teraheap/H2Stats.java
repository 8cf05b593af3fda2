package org.teraheap;

/**
 * A snapshot of TeraHeap's second heap (H2), from {@link TeraHeap#stats()}. All values are
 * zero on a JVM without TeraHeap on.
 */
public final class H2Stats {
    // Slot order shared with the VM (teraHeapNatives.cpp).
    static final int SLOTS = 8;
    private static final int CAPACITY = 0;
    private static final int USED = 1;
    private static final int REGIONS_IN_USE = 2;
    private static final int REGIONS_FREED = 3;
    private static final int BYTES_MOVED = 4;
    private static final int OBJECTS_MOVED = 5;
    private static final int TAGGED_ROOTS = 6;
    private static final int MOVABLE_LABELS = 7;

    private final long[] values;

    H2Stats(long[] values) {
        this.values = values;
    }

    /** The size of H2 in bytes ({@code -XX:TeraHeapSize}). */
    public long capacityBytes() {
        return values[CAPACITY];
    }

    /** Bytes of H2 that hold objects now. */
    public long usedBytes() {
        return values[USED];
    }

    /** H2 regions that hold objects now. */
    public long regionsInUse() {
        return values[REGIONS_IN_USE];
    }

    /** H2 regions freed, whole, since the JVM started. */
    public long regionsFreed() {
        return values[REGIONS_FREED];
    }

    /** Bytes moved from H1 to H2 since the JVM started. */
    public long bytesMoved() {
        return values[BYTES_MOVED];
    }

    /** Objects moved from H1 to H2 since the JVM started. */
    public long objectsMoved() {
        return values[OBJECTS_MOVED];
    }

    /** Tagged roots still alive and not yet moved. */
    public long taggedRoots() {
        return values[TAGGED_ROOTS];
    }

    /** Labels advised to move ({@link TeraHeap#move(long)}) and not yet moved. */
    public long movableLabels() {
        return values[MOVABLE_LABELS];
    }

    @Override
    public String toString() {
        return "H2Stats[capacity=" + capacityBytes() + ", used=" + usedBytes()
                + ", regionsInUse=" + regionsInUse() + ", regionsFreed=" + regionsFreed()
                + ", bytesMoved=" + bytesMoved() + ", objectsMoved=" + objectsMoved()
                + ", taggedRoots=" + taggedRoots() + ", movableLabels=" + movableLabels() + "]";
    }
}
