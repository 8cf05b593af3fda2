package org.teraheap.giraph;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.teraheap.TeraHeap;

/**
 * What goes to H2 in a Giraph worker, and when: the papers' placement for Giraph.
 *
 * <ul>
 *   <li>Each vertex's out-edges, as the graph is loaded (label: the input superstep): the graph
 *       is read for the whole job, and a graph larger than H1 must start moving before loading
 *       ends.</li>
 *   <li>The messages sent in superstep S, once complete, at the start of superstep S + 1 that
 *       reads them (label: S). When S + 1 has consumed them nothing refers to them, and their
 *       regions free at the next full collection (under G1, also at the end of a marking
 *       cycle).</li>
 *   <li>Vertices and their values, written every superstep, stay in H1.</li>
 * </ul>
 * Both move only while H1 is under pressure: the latest collection that measures H1
 * ({@link H1Pressure}) left the old generation at least {@link #moveAt} percent full. While H1
 * holds them, copying them to H2 and reading them back there costs more than keeping them (the
 * edges are byte arrays, which the collector does not trace). Edges are tagged as they load, so that they can move whenever pressure comes (and
 * past the JVM's high threshold without advice); messages, which die with the superstep that
 * reads them, are tagged only under pressure. A group moves at the next full collection (under
 * G1, at the next young or mixed pause, as far as it lies in that pause's collection set); groups
 * that no such collection meets never move.
 *
 * <p>Labels carry the worker's generation (a JVM may run several jobs one after the other, as
 * Giraph's tests do), so that one job's regions never wait for another's.
 */
public final class GiraphPlacement {
    /** High bits that keep Giraph's labels apart from any the application uses itself. */
    private static final long LABEL_BASE = 0x4769L << 48;
    /** Edges are re-advised after this many tags: a full GC during loading consumes the hint. */
    private static final int READVISE_EVERY = 1024;

    private static final String TRIMMABLE = "org.apache.giraph.utils.Trimmable";
    private static final Set<String> UNKNOWN_EDGES = ConcurrentHashMap.newKeySet();

    private static volatile GiraphPlacement instance;

    private final boolean verbose;
    private final Samples samples;
    private final AtomicLong generation = new AtomicLong();
    private final AtomicLong edgesTagged = new AtomicLong();
    /** Giraph's out-of-core mode moves the graph and messages to disk itself: nothing is tagged. */
    private volatile boolean outOfCore;
    /** From a worker's start to its first superstep: the graph is loading. */
    private volatile boolean loading;
    private volatile boolean warnedStore;
    private volatile boolean warnedFailure;

    private final PressureSweep pressureSweep;
    private final H1Pressure h1Pressure;
    /** The old generation's fill, as H1Pressure measures it, from which groups move (0: always). */
    private final int moveAt;

    private GiraphPlacement(boolean verbose, boolean verify, int sweepPercent, int moveAt) {
        this.verbose = verbose || verify;
        this.samples = verify ? new Samples() : null;
        this.moveAt = moveAt;
        this.pressureSweep = new PressureSweep(this, sweepPercent);
        this.h1Pressure = H1Pressure.install(pressureSweep::afterMeasuringGc);
    }

    /**
     * Installs the placement. {@code sweepPercent}: the old generation's fill after a full
     * collection from which edges still loading and messages still arriving are tagged (0: never);
     * {@code moveAt}: the fill from which the edges and a superstep's complete messages are
     * advised to move (0: always).
     */
    static void install(boolean verbose, boolean verify, int sweepPercent, int moveAt) {
        instance = new GiraphPlacement(verbose, verify, sweepPercent, moveAt);
    }

    /** H1 cannot be trusted to hold the tagged groups: they are advised to move. */
    private boolean underPressure() {
        return moveAt == 0 || h1Pressure.percent() >= moveAt;
    }

    /** The placement, or null before the agent installs it (TeraHeap off). Called by the advice. */
    public static GiraphPlacement get() {
        return instance;
    }

    static long label(long generation, long superstep) {
        return LABEL_BASE | (generation << 24) | (superstep + 1);
    }

    /** A worker's server data was created: a new job (or a new attempt) starts, and loads its graph. */
    public void workerStarted(Object serverData) {
        try {
            outOfCore = Payloads.fieldValue(serverData, "oocEngine") != null;
            long g = generation.incrementAndGet();
            edgesTagged.set(0);
            loading = !outOfCore;
            if (samples != null) {
                samples.clear();
            }
            if (outOfCore) {
                log("Giraph's out-of-core mode is on: it manages the graph and messages itself, and"
                    + " they stay in H1");
                pressureSweep.stopped();
            } else {
                pressureSweep.loading(serverData, label(g, -1));
                verboseLog("worker %d started: edges go to H2 as they load (label %#x)", g,
                    label(g, -1));
            }
        } catch (Throwable e) {
            loading = false;
            pressureSweep.stopped();
            failed("starting", e);
        }
    }

    /** A vertex read back from bytes: its edges are new objects. */
    public void vertexRead(Object vertex) {
        if (loading && vertex != null) {
            try {
                edgesSet(Payloads.invoke(vertex, "getEdges"));
            } catch (Throwable e) {
                failed("tagging edges", e);
            }
        }
    }

    /**
     * A vertex's edges were set. While the graph loads, their data joins the input group. Later
     * sets (a mutation, a partition kept as bytes re-reading its vertices on every access) would
     * tag copies whose originals stay in the input group's regions for the whole job: those stay
     * in H1.
     */
    public void edgesSet(Object outEdges) {
        if (outEdges == null || !loading) {
            return;
        }
        try {
            if (((Number) Payloads.invoke(outEdges, "size")).intValue() == 0) {
                return;
            }
            // Giraph trims edges after the first compute, copying a ByteArrayEdges' array; done
            // now, the array tagged is the one the vertex keeps.
            if (Payloads.implementsInterface(outEdges.getClass(), TRIMMABLE)) {
                Payloads.invoke(outEdges, "trim");
            }
            long label = label(generation.get(), -1);
            int found = Payloads.ofEdges(outEdges, data -> {
                if (!TeraHeap.isInH2(data)) {   // an input sweep moved it already
                    TeraHeap.tagRoot(data, label);
                }
                if (samples != null) {
                    samples.offer(label, data);
                }
                if (edgesTagged.incrementAndGet() % READVISE_EVERY == 1 && underPressure()) {
                    TeraHeap.move(label);
                }
            });
            if (found == 0 && UNKNOWN_EDGES.add(outEdges.getClass().getName())) {
                log("edges of %s hold no data this agent knows: they stay in H1",
                    outEdges.getClass().getName());
            }
        } catch (Throwable e) {
            failed("tagging edges", e);
        }
    }

    /**
     * The worker's message stores have turned over: {@code serverData}'s current store now holds
     * the complete messages of the previous superstep, which the new one is about to read.
     */
    public void superstepPrepared(Object serverData) {
        try {
            loading = false;
            long superstep = superstepOf(serverData);
            if (outOfCore) {
                pressureSweep.stopped();
                return;
            }
            long g = generation.get();
            pressureSweep.computing(serverData, label(g, superstep));
            if (samples != null) {
                samples.report(superstep, label(g, -1), label(g, superstep - 2));
            }
            boolean move = underPressure();
            if (move) {
                TeraHeap.move(label(g, -1));   // edges kept, or waiting for a full H2 to free
            }

            Object store = Payloads.invoke(serverData, "getCurrentMessageStore");
            if (store == null || superstep <= 0) {
                return;   // superstep 0 reads no messages
            }
            if (!move) {
                // They die with this superstep: tagging hundreds of thousands of buffers that
                // will not move costs time and the JVM's root table for nothing.
                if (verbose) {
                    log("superstep %d: messages of superstep %d kept in H1, untagged; %d edge buffers"
                        + " tagged so far, kept in H1 (old generation %d%% full after the latest"
                        + " GC that measures it); H2 %s", superstep, superstep - 1, edgesTagged.get(),
                        h1Pressure.percent(), TeraHeap.stats());
                }
                return;
            }
            long label = label(g, superstep - 1);
            long[] tagged = new long[1];
            boolean known = Payloads.ofMessageStore(store, data -> {
                TeraHeap.tagRoot(data, label);
                tagged[0]++;
                if (samples != null) {
                    samples.offer(label, data);
                }
            });
            if (!known && !warnedStore) {
                warnedStore = true;
                log("message store %s is not one this agent knows: messages stay in H1",
                    store.getClass().getName());
            }
            if (tagged[0] > 0) {
                TeraHeap.move(label);
            }
            if (verbose) {
                log("superstep %d: %d message buffers of superstep %d tagged (label %#x); %d edge"
                    + " buffers tagged so far; advised to move (old generation %d%% full after the"
                    + " latest GC that measures it); H2 %s", superstep, tagged[0], superstep - 1, label,
                    edgesTagged.get(), h1Pressure.percent(), TeraHeap.stats());
            }
        } catch (Throwable e) {
            failed("tagging messages", e);
        }
    }

    /** Edge buffers that an input sweep tagged. */
    void edgesTaggedDuringInput(long count) {
        edgesTagged.addAndGet(count);
    }

    void verboseLog(String format, Object... args) {
        if (verbose) {
            log(format, args);
        }
    }

    private static long superstepOf(Object serverData) throws ReflectiveOperationException {
        Object worker = Payloads.invoke(serverData, "getServiceWorker");
        return ((Number) Payloads.invoke(worker, "getSuperstep")).longValue();
    }

    /** Advice must never break Giraph: a failure is reported once, and the data stays in H1. */
    private void failed(String what, Throwable e) {
        if (!warnedFailure) {
            warnedFailure = true;
            log("%s failed (%s); Giraph goes on, with that data in H1", what, e);
        }
    }

    static void log(String format, Object... args) {
        System.err.println("[teraheap-giraph] " + String.format(format, args));
    }
}
