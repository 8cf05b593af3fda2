package org.teraheap.hybrid;

import java.util.Collections;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.spark.storage.BlockId;

/**
 * Asynchronous migration with preemption (the paper's AMP, Algorithm 1): a daemon thread looks
 * at DRAM's use every period; at or above the threshold it hands the least recently used DRAM
 * blocks, the stage's average block times a multiplier less what is already in flight, to a pool
 * of at most wave-width threads that write them to NVM. The multiplier starts at half the wave
 * width, grows by one per consecutive trigger up to the wave width, and starts again once DRAM's
 * use is back under the threshold.
 */
final class MigrationMonitor {
    private final HybridStore store;
    private final HybridOptions options;
    private final ThreadPoolExecutor migrations;
    private final int initialMultiplier;
    private int multiplier;

    private MigrationMonitor(HybridStore store, HybridOptions options) {
        this.store = store;
        this.options = options;
        initialMultiplier = Math.max(options.waveWidth / 2, 1);
        multiplier = initialMultiplier;
        migrations = new ThreadPoolExecutor(options.waveWidth, options.waveWidth, 60, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(), daemons("hybrid-spark-migration"));
        migrations.allowCoreThreadTimeOut(true);
    }

    static void start(HybridStore store, HybridOptions options) {
        MigrationMonitor monitor = new MigrationMonitor(store, options);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(daemons("hybrid-spark-monitor"));
        timer.scheduleWithFixedDelay(monitor::check, options.periodNanos, options.periodNanos, TimeUnit.NANOSECONDS);
    }

    private void check() {
        try {
            if (!store.attached() || store.dramUse() < options.threshold || !store.nvm.hasRoom()) {
                multiplier = initialMultiplier;
                return;
            }
            long average = store.averageBlock();
            if (average == 0) {
                return;
            }
            long target = average * multiplier - store.inFlight();
            multiplier = Math.min(multiplier + 1, options.waveWidth);
            if (target <= 0) {
                return;
            }
            List<BlockId> chosen = store.leastRecentlyUsedInDram(target, Collections.emptySet());
            for (int i = 0; i < chosen.size(); i++) {
                BlockId id = chosen.get(i);
                long bytes = store.migratingBytes(id);
                try {
                    migrations.execute(() -> {
                        boolean moved = false;
                        try {
                            moved = store.nvm.migrate(id, bytes, false);
                        } finally {
                            if (moved) {
                                store.migrated(id, true);
                            } else {
                                store.notMigrated(id);
                            }
                        }
                    });
                } catch (RuntimeException e) {
                    // No thread to write them: they stay in DRAM, no longer in flight.
                    for (BlockId left : chosen.subList(i, chosen.size())) {
                        store.notMigrated(left);
                    }
                    throw e;
                }
            }
        } catch (RuntimeException | Error e) {
            HybridAgent.reportOnce("the migration monitor failed (" + e + "): blocks stay where they are");
        }
    }

    private static ThreadFactory daemons(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
