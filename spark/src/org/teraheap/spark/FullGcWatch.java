package org.teraheap.spark;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;

import javax.management.NotificationEmitter;

/**
 * Counts the JVM's full GCs (the only ones that move groups to H2) and runs a task on a thread
 * of its own after each: the JVM's GC notifications arrive on its service thread, which must not
 * wait for Spark's locks.
 */
final class FullGcWatch {
    private final GarbageCollectorMXBean fullCollector;
    private long signalled;
    private long done;

    FullGcWatch() {
        // Parallel's full collector is the one that manages the old generation.
        fullCollector = ManagementFactory.getGarbageCollectorMXBeans().stream()
            .filter(gc -> Arrays.asList(gc.getMemoryPoolNames()).contains("PS Old Gen"))
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("no Parallel full collector: TeraHeap runs"
                + " with -XX:+UseParallelGC"));
    }

    /** Full GCs completed so far. */
    long count() {
        return fullCollector.getCollectionCount();
    }

    /** Full GCs that the task has run after (at least the count when it last started). */
    synchronized long handled() {
        return done;
    }

    void start(Runnable afterFullGc) {
        ((NotificationEmitter) fullCollector).addNotificationListener((notification, handback) -> {
            synchronized (this) {
                signalled++;
                notifyAll();
            }
        }, null, null);
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
}
