package org.teraheap.giraph;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

import com.sun.management.GarbageCollectionNotificationInfo;
import org.teraheap.TeraHeap;

/**
 * Tags the edges that Giraph's edge input gathers in H1, once they fill it.
 *
 * <p>An edge input (an edge list) is read into the edge store's transient map, one
 * {@code OutEdges} per source vertex, and only handed to the vertices when the whole input has
 * been read; that is where {@link GiraphPlacement#edgesSet} tags them. A graph whose edges do not
 * fit in H1 would die of GC overhead before then. So, while a worker loads, every full collection
 * that leaves the old generation at least {@link #occupancyPercent} full starts a sweep on a daemon
 * thread: it walks the transient map and tags each vertex's edge data as a root of the input
 * group, so that the next full collection moves it. An edge array that later grows is copied by
 * Giraph into H1 and tagged again by the next sweep; the copy it replaced stays behind in the
 * input group's regions, which costs H2 space, not DRAM. Graphs that fit in H1 are never swept.
 */
final class InputSweep implements NotificationListener {
    private static final String MAJOR_GC = "end of major GC";

    private final GiraphPlacement placement;
    private final int occupancyPercent;
    private final AtomicBoolean running = new AtomicBoolean();
    private volatile WeakReference<Object> edgeStore = new WeakReference<>(null);
    private volatile long label;
    private volatile boolean failed;

    private InputSweep(GiraphPlacement placement, int occupancyPercent) {
        this.placement = placement;
        this.occupancyPercent = occupancyPercent;
    }

    /** Listens to this JVM's collectors; a percent of 0 turns sweeping off. */
    static InputSweep install(GiraphPlacement placement, int occupancyPercent) {
        InputSweep sweep = new InputSweep(placement, occupancyPercent);
        if (occupancyPercent > 0) {
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                if (gc instanceof NotificationEmitter) {
                    ((NotificationEmitter) gc).addNotificationListener(sweep, null, null);
                }
            }
        }
        return sweep;
    }

    /** A worker starts loading into {@code edgeStore}; its edges join the group {@code label}. */
    void loading(Object edgeStore, long label) {
        this.label = label;
        this.edgeStore = new WeakReference<>(edgeStore);
    }

    /** Loading is over: Giraph's own hand-over of edges to vertices takes it from here. */
    void loaded() {
        edgeStore = new WeakReference<>(null);
    }

    @Override
    public void handleNotification(Notification notification, Object handback) {
        if (edgeStore.get() == null || failed
                || !GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            return;
        }
        GarbageCollectionNotificationInfo info =
            GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
        if (!MAJOR_GC.equals(info.getGcAction())) {
            return;
        }
        int percent = oldGenPercent(info.getGcInfo().getMemoryUsageAfterGc());
        if (percent >= occupancyPercent && running.compareAndSet(false, true)) {
            Thread thread = new Thread(() -> {
                try {
                    sweep(percent);
                } finally {
                    running.set(false);
                }
            }, "teraheap-giraph-input-sweep");
            thread.setDaemon(true);
            thread.start();
        }
    }

    /** The old generation's use after the collection, as a percent of its maximum; -1 if unknown. */
    private static int oldGenPercent(Map<String, MemoryUsage> afterGc) {
        for (Map.Entry<String, MemoryUsage> pool : afterGc.entrySet()) {
            MemoryUsage usage = pool.getValue();
            if (pool.getKey().contains("Old Gen") && usage.getMax() > 0) {
                return (int) (100 * usage.getUsed() / usage.getMax());
            }
        }
        return -1;
    }

    private void sweep(int percent) {
        Object store = edgeStore.get();
        if (store == null) {
            return;
        }
        long start = System.nanoTime();
        long tagged = 0;
        long bytes = 0;
        long vertices = 0;
        long label = this.label;
        try {
            Object transientEdges = Payloads.fieldValue(store, "transientEdges");
            if (!(transientEdges instanceof Map)) {
                failed = true;
                GiraphPlacement.log("the edge store %s keeps no transient edges this agent knows:"
                    + " edges being loaded stay in H1", store.getClass().getName());
                return;
            }
            for (Object partition : new ArrayList<>(((Map<?, ?>) transientEdges).values())) {
                for (Object outEdges : valuesOf(partition)) {
                    if (outEdges == null || edgeStore.get() == null) {
                        continue;
                    }
                    vertices++;
                    long[] found = new long[2];
                    // Input threads add edges under the same lock (AbstractEdgeStore.addPartitionEdges).
                    synchronized (outEdges) {
                        Payloads.ofEdges(outEdges, data -> {
                            if (!TeraHeap.isInH2(data)) {
                                TeraHeap.tagRoot(data, label);
                                found[0]++;
                                found[1] += Payloads.arrayBytes(data);
                            }
                        });
                    }
                    tagged += found[0];
                    bytes += found[1];
                }
            }
        } catch (RuntimeException e) {
            // Giraph hands the edges to the vertices while the sweep reads them: what was tagged
            // still moves, and SetEdges tags the rest.
        }
        if (tagged > 0) {
            placement.edgesTaggedDuringInput(tagged);
            TeraHeap.move(label);
        }
        if (vertices == 0) {
            return;   // Giraph has handed every edge to its vertex already
        }
        placement.verboseLog("input sweep: old generation %d%% full after a full GC; %d edge buffers"
            + " (%d MB) of %d vertices tagged in %d ms", percent, tagged, bytes >> 20, vertices,
            (System.nanoTime() - start) / 1_000_000);
    }

    /**
     * The per-vertex edges of one partition of the transient map. Giraph's primitive-id stores
     * use fastutil's synchronized maps, which must be locked to be read; the others are
     * concurrent maps.
     */
    private static List<Object> valuesOf(Object partition) {
        if (!(partition instanceof Map)) {
            return new ArrayList<>();
        }
        Collection<?> values = ((Map<?, ?>) partition).values();
        if (partition instanceof ConcurrentMap) {
            return new ArrayList<>(values);
        }
        synchronized (partition) {
            return new ArrayList<>(values);
        }
    }
}
