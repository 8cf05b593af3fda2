package org.teraheap.hybrid;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

import org.apache.spark.storage.BlockId;

/**
 * Emulated NVM writes, the paper's method (§5.2): the NVM tier is part of the heap's storage
 * pool, reads cost what DRAM's do, and a write of n bytes takes n / bandwidth. All writers share
 * the bandwidth: each write reserves the next free interval of the device's time and waits until
 * its end, so concurrent writes queue as they would on one device.
 */
final class EmulatedNvm implements NvmTier {
    /** Below this, a wait spins: parking cannot wake within a millisecond (the paper's Table 2). */
    private static final long SPIN_NANOS = 1_000_000L;

    private final double dramBytesPerSecond;
    private final double bytesPerNano;
    private long deviceFreeAt = System.nanoTime();   // when the device's queue is empty
    private long waitedNanos;

    /** NVM writing at {@code fraction} of DRAM's copy rate, {@code dramBytesPerSecond}. */
    EmulatedNvm(double dramBytesPerSecond, double fraction) {
        this.dramBytesPerSecond = dramBytesPerSecond;
        this.bytesPerNano = dramBytesPerSecond * fraction / 1e9;
    }

    /** A migration is the block's write: the block itself stays where Spark put it. */
    @Override
    public boolean migrate(BlockId block, long bytes, boolean lockedByCaller) {
        write(bytes);
        return true;
    }

    @Override
    public boolean place(BlockId block, long bytes, long writtenWhileUnrolling) {
        write(bytes - writtenWhileUnrolling);
        return true;
    }

    @Override
    public void unrollMoved(long bytes) {
        write(bytes);
    }

    @Override
    public boolean movable(BlockId block) {
        return true;
    }

    /** Its room is the storage pool's, which Spark keeps. */
    @Override
    public boolean hasRoom() {
        return true;
    }

    @Override
    public boolean inStoragePool() {
        return true;
    }

    @Override
    public void addTo(Map<String, Long> figures) {
        figures.put("nvm_wait_ns", waitedNanos());
    }

    @Override
    public String describe() {
        return String.format(Locale.ROOT, "emulated NVM writing at %.2f GB/s (DRAM's measured copy rate %.2f GB/s)",
            bytesPerSecond() / 1e9, dramBytesPerSecond / 1e9);
    }

    double bytesPerSecond() {
        return bytesPerNano * 1e9;
    }

    /** Writes {@code bytes}: returns once the device has taken them. */
    void write(long bytes) {
        if (bytes <= 0) {
            return;
        }
        long duration = (long) Math.ceil(bytes / bytesPerNano);
        long end;
        synchronized (this) {
            long now = System.nanoTime();
            end = Math.max(now, deviceFreeAt) + duration;
            deviceFreeAt = end;
            waitedNanos += end - now;
        }
        waitUntil(end);
    }

    /** Time writers spent waiting for the device, queueing included. */
    @Override
    public synchronized long waitedNanos() {
        return waitedNanos;
    }

    /**
     * Waits until System.nanoTime() reaches {@code deadline}: parked for the bulk, spun for the
     * end. An interrupted thread (a task being killed) stops waiting, its interrupt kept.
     */
    static void waitUntil(long deadline) {
        long left;
        while ((left = deadline - System.nanoTime()) > SPIN_NANOS) {
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
            LockSupport.parkNanos(left - SPIN_NANOS);
        }
        while (System.nanoTime() - deadline < 0 && !Thread.currentThread().isInterrupted()) {
            // spin: Java 8 bytecode has no Thread.onSpinWait
        }
    }

    /**
     * DRAM's copy bandwidth, in bytes per second: the best of a few copies of a buffer larger
     * than the caches, so that the emulated NVM is a fraction of this machine's DRAM.
     */
    static double measureDramBandwidth() {
        byte[] from = new byte[16 << 20];
        byte[] to = new byte[from.length];
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 8; i++) {
            long start = System.nanoTime();
            System.arraycopy(from, 0, to, 0, from.length);
            best = Math.min(best, System.nanoTime() - start);
        }
        return from.length / (Math.max(best, 1) / 1e9);
    }
}
