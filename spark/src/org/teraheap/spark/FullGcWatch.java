package org.teraheap.spark;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;

import javax.management.NotificationEmitter;

/**
 * Counts the JVM's full GCs (the only ones that move groups to H2) and runs a task on a thread
 * of its own after each: the JVM's GC notifications arrive on its service thread, which must not
 * wait for Spark's locks.
 */
final class FullGcWatch {
    private volatile GarbageCollectorMXBean fullCollector;
    private long signalled;
    private long done;

    /**
     * Starts the thread that runs {@code afterFullGc}; it waits until {@link #listen} is called.
     * Called from the agent's premain, so that the thread is no child of a Spark task thread:
     * none of its inheritable thread-locals (Spark's local properties), nor its class loader.
     */
    void start(Runnable afterFullGc) {
        Thread thread = new Thread(() -> {
            long seen = 0;
            while (true) {
                synchronized (this) {
                    while (signalled == seen) {
                        try {
                            wait();
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                    seen = signalled;
                }
                long gcs = count();
                afterFullGc.run();
                synchronized (this) {
                    done = Math.max(done, gcs);
                }
            }
        }, "teraheap-spark full GC watch");
        thread.setDaemon(true);
        thread.start();
    }

    /** The names of the full collectors' beans: Parallel's, and G1's (TeraHeap on G1 is experimental). */
    static final List<String> FULL_COLLECTORS = Arrays.asList("PS MarkSweep", "G1 Old Generation");

    /** From now on, every full GC wakes the thread (loads the JVM's management beans). */
    void listen() {
        GarbageCollectorMXBean full = ManagementFactory.getGarbageCollectorMXBeans().stream()
            .filter(gc -> FULL_COLLECTORS.contains(gc.getName()))
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("no full collector among the JVM's ("
                + FULL_COLLECTORS + "): TeraHeap runs with -XX:+UseParallelGC"));
        ((NotificationEmitter) full).addNotificationListener((notification, handback) -> {
            synchronized (this) {
                signalled++;
                notifyAll();
            }
        }, null, null);
        fullCollector = full;
    }

    /** Full GCs completed so far (0 before {@link #listen}). */
    long count() {
        GarbageCollectorMXBean full = fullCollector;
        return full == null ? 0 : full.getCollectionCount();
    }

    /** Full GCs that the task has run after (at least the count when it last started). */
    synchronized long handled() {
        return done;
    }
}
