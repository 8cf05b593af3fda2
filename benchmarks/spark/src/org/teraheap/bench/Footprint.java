package org.teraheap.bench;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.spark.SparkContext;
import org.apache.spark.storage.RDDInfo;

/**
 * The cached footprint D of a workload: the largest total (memory + disk) size of all cached
 * RDDs seen by a driver thread that samples the storage status every 500 ms, plus one last
 * sample when the workload is done. Iterative algorithms drop old RDDs as they go, so a single
 * sample at the end would miss the peak.
 */
final class Footprint {
    private static final long PERIOD_MS = 500;

    private final SparkContext sc;
    private final CountDownLatch done = new CountDownLatch(1);
    private final Thread thread;
    private long max;

    Footprint(SparkContext sc) {
        this.sc = sc;
        thread = new Thread(this::loop, "teraheap-bench-footprint");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        try {
            do {
                sample();
            } while (!done.await(PERIOD_MS, TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized void sample() {
        try {
            long total = 0;
            for (RDDInfo info : sc.getRDDStorageInfo()) {
                total += info.memSize() + info.diskSize();
            }
            max = Math.max(max, total);
        } catch (RuntimeException e) {
            // The status store can be briefly inconsistent; the next sample will do.
        }
    }

    /** Stops sampling, takes the final sample and returns the peak in bytes. */
    long stop() throws InterruptedException {
        done.countDown();
        thread.join();
        sample();
        synchronized (this) {
            return max;
        }
    }
}
