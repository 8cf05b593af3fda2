package org.teraheap.hybrid;

import java.util.Map;

import org.apache.spark.storage.BlockId;

/**
 * The second, slower and larger tier under DRAM: where {@link HybridStore} sends the blocks it
 * places or migrates in NVM. The emulated tier only makes writes wait; the file tier really moves
 * a block out of Spark's memory store into a mapped file.
 */
interface NvmTier {
    /**
     * Moves a block that Spark's memory store holds, of {@code bytes} as Spark counts it, into
     * this tier. {@code lockedByCaller}: the calling task holds the block's write lock (it is
     * storing the block). False if the block stays in DRAM: busy, gone, or no room.
     */
    boolean migrate(BlockId block, long bytes, boolean lockedByCaller);

    /**
     * A block just stored by the calling task was unrolled in NVM: it goes there now, less the
     * {@code writtenWhileUnrolling} bytes that reached NVM as it unrolled. False if it stays in DRAM.
     */
    boolean place(BlockId block, long bytes, long writtenWhileUnrolling);

    /** A block unrolling in DRAM continues in NVM: {@code bytes} of its values were in DRAM. */
    void unrollMoved(long bytes);

    /** Whether the block can move at all: false for one this tier refused for good (it cannot be serialized, say). */
    boolean movable(BlockId block);

    /** Spark no longer holds the block (removed from its store): forget anything known of it. */
    default void forgotten(BlockId block) {
    }

    /** False once a block found no room, until space is freed: no use choosing more for now. */
    boolean hasRoom();

    /** Whether blocks in this tier still take room in Spark's storage pool (the emulated tier). */
    boolean inStoragePool();

    /** Time writers spent waiting for the device, in nanoseconds. */
    long waitedNanos();

    /** Its figures, by name, for the tests and the summary. */
    void addTo(Map<String, Long> figures);

    /** How it reads in the first line, e.g. "emulated NVM writing at 1.02 GB/s". */
    String describe();
}
