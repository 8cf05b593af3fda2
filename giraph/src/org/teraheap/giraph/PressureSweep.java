package org.teraheap.giraph;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import org.teraheap.TeraHeap;

/**
 * Tags the data Giraph is still gathering, once it fills H1: the edges of an edge input while
 * the graph loads, and the messages arriving during a superstep.
 *
 * <p>{@link GiraphPlacement} tags edges when vertices get them and messages when their
 * superstep is over. Until then Giraph holds them in H1: an edge input is read into the edge
 * store's transient map, one {@code OutEdges} per source vertex, until the whole input has been
 * read; a superstep's incoming messages fill the incoming store until it ends. Edges or one
 * superstep's messages larger than H1 would die of GC overhead before they are tagged. So every
 * collection that measures H1 ({@link H1Pressure}) and leaves the old generation at least
 * {@link #occupancyPercent} full starts a sweep on a daemon thread, which tags the byte arrays
 * gathered so far, under the locks Giraph's writers take, with the label they will get anyway;
 * the next full collection (under G1, the next pause) moves them.
 *
 * <p>An array that grows after it moved is copied by Giraph into H1 (and tagged by a later
 * sweep); the copy it replaced stays in its group's regions, which costs H2 space, not DRAM:
 * for the edges, until the job ends; for messages, until the superstep that reads them is over.
 * Data that fits in H1 is never swept.
 */
final class PressureSweep {
    private final GiraphPlacement placement;
    private final int occupancyPercent;
    private final AtomicBoolean running = new AtomicBoolean();
    /** The worker's ServerData while it loads or computes; null between jobs. */
    private volatile WeakReference<Object> serverData = new WeakReference<>(null);
    private volatile boolean loading;
    private volatile long label;
    /** The edge store is not one this class knows: edges are not swept (messages still are). */
    private volatile boolean edgeStoreUnknown;

    /** Sweeps after measuring GCs that leave the old generation {@code occupancyPercent} full; 0: never. */
    PressureSweep(GiraphPlacement placement, int occupancyPercent) {
        this.placement = placement;
        this.occupancyPercent = occupancyPercent;
    }

    /** A worker loads its graph; the edges join the group {@code edgesLabel}. */
    void loading(Object serverData, long edgesLabel) {
        set(serverData, true, edgesLabel);
    }

    /** A superstep runs; the messages it sends join the group {@code messagesLabel}. */
    void computing(Object serverData, long messagesLabel) {
        set(serverData, false, messagesLabel);
    }

    /** Nothing to sweep: the worker stopped, or Giraph's out-of-core mode manages its data. */
    void stopped() {
        serverData = new WeakReference<>(null);
    }

    private void set(Object worker, boolean loading, long label) {
        this.loading = loading;
        this.label = label;
        this.serverData = new WeakReference<>(worker);
    }

    /** A collection that measures H1 (H1Pressure) left the old generation {@code percent} full. */
    void afterMeasuringGc(int percent) {
        if (occupancyPercent == 0 || percent < occupancyPercent || serverData.get() == null
                || (loading && edgeStoreUnknown) || !running.compareAndSet(false, true)) {
            return;
        }
        Thread thread = new Thread(() -> {
            try {
                sweep(percent);
            } finally {
                running.set(false);
            }
        }, "teraheap-giraph-sweep");
        thread.setDaemon(true);
        thread.start();
    }

    private void sweep(int percent) {
        Object worker = serverData.get();
        if (worker == null) {
            return;
        }
        boolean edges = loading;
        long label = this.label;
        long start = System.nanoTime();
        long[] tagged = new long[2];   // arrays, bytes
        Consumer<Object> tag = data -> {
            if (data != null && !TeraHeap.isInH2(data)) {
                TeraHeap.tagRoot(data, label);
                tagged[0]++;
                tagged[1] += Payloads.arrayBytes(data);
            }
        };
        try {
            boolean known = edges ? sweepEdges(Payloads.fieldValue(worker, "edgeStore"), tag)
                : Payloads.ofGrowingMessages(Payloads.invoke(worker, "getIncomingMessageStore"), tag);
            if (!known && edges) {
                edgeStoreUnknown = true;
                GiraphPlacement.log("the edge store keeps no transient edges this agent knows:"
                    + " edges being loaded stay in H1 until loading ends");
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Giraph hands the edges to the vertices, or turns the message stores over, while
            // the sweep reads them: what was tagged still moves, and GiraphPlacement tags the rest.
        }
        if (tagged[0] == 0) {
            return;
        }
        if (edges) {
            placement.edgesTaggedDuringInput(tagged[0]);
        }
        TeraHeap.move(label);
        placement.verboseLog("sweep: old generation %d%% full after a GC; %d %s buffers (%d MB)"
            + " tagged in %d ms (label %#x)", percent, tagged[0], edges ? "edge" : "message",
            tagged[1] >> 20, (System.nanoTime() - start) / 1_000_000, label);
    }

    /** The per-vertex edge data in an edge store's transient map. */
    private static boolean sweepEdges(Object store, Consumer<Object> tag) {
        Object transientEdges = store == null ? null : Payloads.fieldValue(store, "transientEdges");
        if (!(transientEdges instanceof Map)) {
            return false;
        }
        for (Object partition : new ArrayList<>(((Map<?, ?>) transientEdges).values())) {
            for (Object outEdges : valuesOf(partition)) {
                if (outEdges != null) {
                    // Input threads add edges under the same lock (AbstractEdgeStore.addPartitionEdges).
                    synchronized (outEdges) {
                        Payloads.ofEdges(outEdges, tag);
                    }
                }
            }
        }
        return true;
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
