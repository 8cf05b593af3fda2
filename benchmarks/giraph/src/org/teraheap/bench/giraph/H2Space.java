package org.teraheap.bench.giraph;

import java.lang.management.ManagementFactory;

import com.sun.management.HotSpotDiagnosticMXBean;

/**
 * H2's space in a Giraph job against the data live in it. With {@code --gc-each-superstep}, a
 * full collection starts every superstep; after it H2 holds the graph's edges (all moved by the
 * first superstep's collection, live for the whole job) and the messages this collection moved
 * (the previous superstep's, which this one reads). Older messages are dead, so H2's use may
 * exceed twice the edges and the new messages by at most a region for each of the two. When the
 * job is done its messages are dead, but the edges are not: Giraph's local job runner keeps the
 * finished job's vertices, so H2 must come back to the edges.
 *
 * <p>TeraHeap's API is reached by reflection, so that the workloads also run on a JVM without it
 * (the agent jar carries it); there nothing is measured.
 */
final class H2Space {
    /** What {@link #finish} reports, in bytes: the final figures are after the job. */
    static final class Report {
        final long peakBytes;
        final long liveAtPeakBytes;
        final long worstExcessBytes;
        final int samples;
        final long finalBytes;
        final long finalLiveBytes;

        Report(long peakBytes, long liveAtPeakBytes, long worstExcessBytes, int samples, long finalBytes,
               long finalLiveBytes) {
            this.peakBytes = peakBytes;
            this.liveAtPeakBytes = liveAtPeakBytes;
            this.worstExcessBytes = worstExcessBytes;
            this.samples = samples;
            this.finalBytes = finalBytes;
            this.finalLiveBytes = finalLiveBytes;
        }
    }

    private static final int SETTLE_ROUNDS = 20;
    private static final long SETTLE_PAUSE_MS = 250;
    private static final int LONGEST_TRACE_INTERVAL = 64;

    private static Class<?> api;
    private static long regionBytes;
    private static long edges = -1;
    private static long movedBefore;
    private static long peak;
    private static long liveAtPeak;
    private static long worstExcess = Long.MIN_VALUE;
    private static int samples;

    private H2Space() {
    }

    /** Whether TeraHeap is on; looks its API up the first time. */
    static synchronized boolean enabled() {
        if (api == null) {
            try {
                Class<?> c = Class.forName("org.teraheap.TeraHeap", true, ClassLoader.getSystemClassLoader());
                if (!(Boolean) c.getMethod("isEnabled").invoke(null)) {
                    return false;
                }
                regionBytes = Long.parseLong(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                        .getVMOption("TeraHeapRegionSize").getValue());
                api = c;
            } catch (ReflectiveOperationException | LinkageError | IllegalArgumentException e) {
                return false;
            }
        }
        return true;
    }

    /** After the full collection that starts a superstep. */
    static synchronized void afterSuperstepCollection(long superstep) {
        if (!enabled()) {
            return;
        }
        long used = stat("usedBytes");
        long moved = stat("bytesMoved");
        if (edges < 0) {
            edges = moved;
        }
        long live = edges + (superstep == 0 ? 0 : moved - movedBefore);
        movedBefore = moved;
        samples++;
        worstExcess = Math.max(worstExcess, used - 2 * live - 2 * regionBytes);
        if (used > peak) {
            peak = used;
            liveAtPeak = live;
        }
    }

    /** Once the job is done: lets its messages die, and reports. Null without TeraHeap. */
    static synchronized Report finish() throws InterruptedException {
        if (!enabled() || samples == 0) {
            return null;
        }
        // Settled once three readings in a row agree: Giraph's threads may still be letting go of
        // the last superstep's messages.
        long last = -1;
        int same = 0;
        for (int i = 0; i < SETTLE_ROUNDS && same < 2; i++) {
            System.gc();
            long used = stat("usedBytes");
            same = used == last ? same + 1 : 0;
            last = used;
            Thread.sleep(SETTLE_PAUSE_MS);
        }
        // A dropped label that a trace found dense is traced again only after up to 64 full GCs.
        for (int i = 0; i < LONGEST_TRACE_INTERVAL && last - 2 * edges - regionBytes > 0; i++) {
            System.gc();
            last = stat("usedBytes");
        }
        worstExcess = Math.max(worstExcess, last - 2 * edges - regionBytes);
        return new Report(peak, liveAtPeak, worstExcess, samples, last, edges);
    }

    private static long stat(String name) {
        try {
            Object stats = api.getMethod("stats").invoke(null);
            return (Long) stats.getClass().getMethod(name).invoke(stats);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("TeraHeap's API failed", e);
        }
    }
}
