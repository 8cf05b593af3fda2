package org.teraheap.bench;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import com.sun.management.HotSpotDiagnosticMXBean;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.storage.RDDInfo;

/**
 * H2's space against the cached data it holds. With {@code --gc-each-job}, a full collection
 * follows every job, and H2's use is compared after each with Spark's in-memory cached size
 * around that collection: it may exceed twice that by at most a region per cached RDD (each RDD
 * fills regions of its own). At the end every RDD is unpersisted and H2 must come back to under 1 MB: what may
 * stay are objects the program shares with a group (a Scala singleton the group referred to when
 * it moved), which live on in H2.
 *
 * <p>TeraHeap's API is reached by reflection, so that the workloads also run on a JVM without it
 * (the agent jar carries it); there {@link #start} returns null.
 */
final class H2Space {
    /** What {@link #finish} reports: bytes. */
    record Report(long peakBytes, long cachedAtPeakBytes, long worstExcessBytes, int samples,
                  long droppedBytes, long reportUptimeMs) {
    }

    /** Spark's cleaner drops an unreachable RDD's blocks asynchronously: rounds to wait for it. */
    private static final int SETTLE_ROUNDS = 20;
    private static final long SETTLE_PAUSE_MS = 250;
    /** How long the listener may take to handle the job ends queued for it. */
    private static final long LISTENER_DRAIN_MS = 60_000;
    /** The longest a dropped label waits for its next trace, in full GCs. */
    private static final int LONGEST_TRACE_INTERVAL = 64;
    /** H2's use, once every RDD is dropped, under which H2 counts as empty. */
    private static final long DROPPED_BOUND = 1 << 20;
    private static final double MB = 1 << 20;

    private final JavaSparkContext jsc;
    private final Class<?> api;
    private final long regionBytes;
    private SparkListener listener;
    private long peak;
    private long cachedAtPeak;
    private long worstExcess = Long.MIN_VALUE;
    private int samples;
    private boolean finished;

    private H2Space(JavaSparkContext jsc, Class<?> api, long regionBytes) {
        this.jsc = jsc;
        this.api = api;
        this.regionBytes = regionBytes;
    }

    /** Starts watching H2 when TeraHeap is on, else returns null. */
    static H2Space start(JavaSparkContext jsc, boolean gcEachJob) throws ReflectiveOperationException {
        Class<?> api;
        try {
            api = Class.forName("org.teraheap.TeraHeap", true, ClassLoader.getSystemClassLoader());
        } catch (ClassNotFoundException e) {
            return null;
        }
        if (!(Boolean) api.getMethod("isEnabled").invoke(null)) {
            return null;
        }
        long region = Long.parseLong(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption("TeraHeapRegionSize").getValue());
        H2Space space = new H2Space(jsc, api, region);
        if (gcEachJob) {
            space.listener = new SparkListener() {
                @Override
                public void onJobEnd(SparkListenerJobEnd jobEnd) {
                    space.sample();
                }
            };
            jsc.sc().addSparkListener(space.listener);
        }
        return space;
    }

    /**
     * Collects fully and compares H2's use with what was cached around the collection. Listeners
     * run beside the program, which may have dropped an RDD that the collection still found
     * cached (H2 still held it) by the time its size is read: an RDD counts at the larger of its
     * sizes read before and after.
     */
    private synchronized void sample() {
        if (finished) {
            return;
        }
        Map<Integer, Long> cachedById = cachedById();
        System.gc();
        long used = used();
        cachedById().forEach((id, bytes) -> cachedById.merge(id, bytes, Math::max));
        long cached = cachedById.values().stream().mapToLong(Long::longValue).sum();
        int rdds = cachedById.size();
        long excess = used - 2 * cached - rdds * regionBytes;
        samples++;
        worstExcess = Math.max(worstExcess, excess);
        if (used > peak) {
            peak = used;
            cachedAtPeak = cached;
        }
        System.err.printf("H2Space: job end %d: H2 holds %.1f MB; cached %.1f MB in %d RDDs; %s%n",
                samples, used / MB, cached / MB, rdds,
                excess > 0 ? String.format("over the bound by %.1f MB", excess / MB) : "within the bound");
    }

    private Map<Integer, Long> cachedById() {
        Map<Integer, Long> cached = new HashMap<>();
        for (RDDInfo info : jsc.sc().getRDDStorageInfo()) {
            if (info.memSize() > 0) {
                cached.put(info.id(), info.memSize());
            }
        }
        return cached;
    }

    /** Stops sampling, drops every cached RDD and reports. */
    Report finish() throws InterruptedException, TimeoutException {
        // The listener samples the last job's end before the RDDs are dropped below: were it to
        // run while they are, H2 would still hold what Spark no longer counts.
        jsc.sc().listenerBus().waitUntilEmpty(LISTENER_DRAIN_MS);
        synchronized (this) {
            finished = true;
        }
        if (listener != null) {
            jsc.sc().removeSparkListener(listener);
        }
        long from = ManagementFactory.getRuntimeMXBean().getUptime();
        for (JavaRDD<?> rdd : jsc.getPersistentRDDs().values()) {
            rdd.unpersist(true);
        }
        // Spark's cleaner has let go once three readings in a row agree.
        long last = -1;
        int same = 0;
        for (int i = 0; i < SETTLE_ROUNDS && same < 2; i++) {
            System.gc();
            long used = used();
            same = used == last ? same + 1 : 0;
            last = used;
            Thread.sleep(SETTLE_PAUSE_MS);
        }
        // A dropped label that a trace found dense while it was in use is traced again only after
        // up to 64 full GCs: give it those before calling what stays a leak.
        for (int i = 0; i < LONGEST_TRACE_INTERVAL && last >= DROPPED_BOUND; i++) {
            System.gc();
            last = used();
        }
        synchronized (this) {
            return new Report(peak, cachedAtPeak, samples == 0 ? 0 : worstExcess, samples, last, from);
        }
    }

    private long used() {
        try {
            Object stats = api.getMethod("stats").invoke(null);
            return (Long) stats.getClass().getMethod("usedBytes").invoke(stats);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("TeraHeap's API failed", e);
        }
    }
}
