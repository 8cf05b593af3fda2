package org.teraheap.hybrid;

import java.util.Locale;
import java.util.Map;

/**
 * What the hybrid store did, for its summary at exit and for the tests: where blocks were placed
 * as they unrolled, how many moved from DRAM to NVM synchronously (a task waiting under the
 * memory manager's lock) and asynchronously (the monitor's migrations), and the most each tier
 * held at once.
 */
final class HybridCounters {
    private long poolBytes;
    private long dramShareBytes;
    private final long[] placedBlocks = new long[2];
    private final long[] placedBytes = new long[2];
    private long syncBlocks;
    private long syncBytes;
    private long asyncBlocks;
    private long asyncBytes;
    private long peakDram;
    private long peakNvm;

    synchronized void storeCreated(long pool, long dramShare) {
        poolBytes = pool;
        dramShareBytes = dramShare;
    }

    synchronized void placed(HybridStore.Tier tier, long bytes) {
        placedBlocks[tier.ordinal()]++;
        placedBytes[tier.ordinal()] += bytes;
    }

    synchronized void migrated(long bytes, boolean asynchronous) {
        if (asynchronous) {
            asyncBlocks++;
            asyncBytes += bytes;
        } else {
            syncBlocks++;
            syncBytes += bytes;
        }
    }

    synchronized void tiersNow(long dram, long nvm) {
        peakDram = Math.max(peakDram, dram);
        peakNvm = Math.max(peakNvm, nvm);
    }

    synchronized void addTo(Map<String, Long> f) {
        f.put("placed_dram_blocks", placedBlocks[0]);
        f.put("placed_nvm_blocks", placedBlocks[1]);
        f.put("sync_blocks", syncBlocks);
        f.put("async_blocks", asyncBlocks);
        f.put("peak_dram_bytes", peakDram);
        f.put("peak_nvm_bytes", peakNvm);
    }

    /** One line: the figures the tests and the benchmarks read (key=value, bytes in MB). */
    synchronized String summary(HybridOptions options, NvmTier nvm) {
        long transfers = syncBlocks + asyncBlocks;
        return String.format(Locale.ROOT, "[hybrid-spark] summary: mode=%s pool_mb=%.1f dram_share_mb=%.1f "
            + "placed_dram_blocks=%d placed_dram_mb=%.1f placed_nvm_blocks=%d placed_nvm_mb=%.1f "
            + "sync_blocks=%d sync_mb=%.1f async_blocks=%d async_mb=%.1f async_share=%s "
            + "peak_dram_mb=%.1f peak_nvm_mb=%.1f nvm_wait_s=%.3f",
            options.mode.optionName(), mb(poolBytes), mb(dramShareBytes),
            placedBlocks[0], mb(placedBytes[0]), placedBlocks[1], mb(placedBytes[1]),
            syncBlocks, mb(syncBytes), asyncBlocks, mb(asyncBytes),
            transfers == 0 ? "-" : String.format(Locale.ROOT, "%.3f", (double) asyncBlocks / transfers),
            mb(peakDram), mb(peakNvm), nvm.waitedNanos() / 1e9);
    }

    private static double mb(long bytes) {
        return bytes / (double) (1 << 20);
    }
}
