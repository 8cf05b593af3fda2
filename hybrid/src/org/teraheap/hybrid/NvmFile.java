package org.teraheap.hybrid;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A preallocated file mapped in segments, and the space in it handed out in extents of whole
 * pages: first fit, free neighbours coalesced, an extent never across two segments.
 *
 * <p>The file is created in the directory given and unlinked at once: its space goes back to the
 * file system when the JVM ends, however it ends. It is allocated before any block is written, so
 * a device too small is found at start, not as a fault in the middle of a job. The segments stay
 * mapped until the JVM ends: nothing is ever unmapped under a reader.
 */
final class NvmFile {
    static final int PAGE = 4096;
    /** A MappedByteBuffer holds at most 2 GB; 1 GB segments keep the arithmetic in ints. */
    static final long SEGMENT = 1L << 30;

    /** A run of pages in one segment. */
    static final class Extent {
        final int segment;
        final long offset;   // in the segment
        final long length;   // a multiple of the page

        Extent(int segment, long offset, long length) {
            this.segment = segment;
            this.offset = offset;
            this.length = length;
        }
    }

    private final File directory;
    private final long capacity;
    private final MappedByteBuffer[] segments;
    /** Per segment, its free runs: offset to length. */
    private final TreeMap<Long, Long>[] free;
    private long used;

    @SuppressWarnings("unchecked")
    private NvmFile(File directory, long capacity, MappedByteBuffer[] segments) {
        this.directory = directory;
        this.capacity = capacity;
        this.segments = segments;
        this.free = new TreeMap[segments.length];
        for (int i = 0; i < segments.length; i++) {
            free[i] = new TreeMap<>();
            free[i].put(0L, (long) segments[i].capacity());
        }
    }

    /**
     * Creates, allocates and maps a file of {@code size} bytes (rounded up to whole pages) in
     * {@code directory}. Throws IllegalArgumentException with one line naming the problem.
     */
    static NvmFile create(File directory, long size) {
        long capacity = (size + PAGE - 1) / PAGE * PAGE;
        long usable = directory.getUsableSpace();
        if (usable < capacity) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "hybrid-spark: nvmSize=%s does not fit in %s "
                + "(%s free); give a smaller nvmSize or free space there", size(capacity), directory, size(usable)));
        }
        File file = null;
        try {
            file = File.createTempFile("hybrid-nvm-", ".tier", directory);
            allocate(file, capacity);
            try (RandomAccessFile raf = new RandomAccessFile(file, "rw")) {
                if (!file.delete()) {
                    throw new IOException("cannot unlink " + file);
                }
                FileChannel channel = raf.getChannel();
                int count = (int) ((capacity + SEGMENT - 1) / SEGMENT);
                MappedByteBuffer[] segments = new MappedByteBuffer[count];
                for (int i = 0; i < count; i++) {
                    long start = i * SEGMENT;
                    segments[i] = channel.map(FileChannel.MapMode.READ_WRITE, start, Math.min(SEGMENT, capacity - start));
                }
                // The mappings outlive the channel: closing the file leaves them valid.
                return new NvmFile(directory, capacity, segments);
            }
        } catch (IOException e) {
            if (file != null) {
                file.delete();
            }
            throw new IllegalArgumentException("hybrid-spark: cannot make the NVM tier's file in " + directory + " ("
                + e.getMessage() + "); give nvm=<a writable directory with nvmSize free>");
        }
    }

    /**
     * Gives the file its blocks on the device: fallocate(1) where the file system has it (no
     * write), else zeros written through.
     */
    private static void allocate(File file, long capacity) throws IOException {
        try {
            Process p = new ProcessBuilder("fallocate", "-l", Long.toString(capacity), file.getPath())
                .redirectErrorStream(true).start();
            if (p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0 && file.length() == capacity) {
                return;
            }
            p.destroy();
        } catch (IOException e) {
            // no fallocate command: write the zeros
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while allocating the file");
        }
        try (RandomAccessFile raf = new RandomAccessFile(file, "rw")) {
            FileChannel channel = raf.getChannel();
            ByteBuffer zeros = ByteBuffer.allocate(1 << 20);
            for (long at = 0; at < capacity; ) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), capacity - at));
                at += channel.write(zeros, at);
            }
            channel.force(false);
        }
    }

    long capacity() {
        return capacity;
    }

    File directory() {
        return directory;
    }

    synchronized long used() {
        return used;
    }

    /** The first free run that holds {@code bytes} (whole pages), or null if none does. */
    synchronized Extent allocate(long bytes) {
        long length = Math.max(PAGE, (bytes + PAGE - 1) / PAGE * PAGE);
        for (int s = 0; s < free.length; s++) {
            for (Map.Entry<Long, Long> run : free[s].entrySet()) {
                // Read before the removal: TreeMap may reuse this entry for its successor.
                long offset = run.getKey();
                long runLength = run.getValue();
                if (runLength >= length) {
                    free[s].remove(offset);
                    if (runLength > length) {
                        free[s].put(offset + length, runLength - length);
                    }
                    used += length;
                    return new Extent(s, offset, length);
                }
            }
        }
        return null;
    }

    /** Gives the extent back, joined to its free neighbours. */
    synchronized void free(Extent e) {
        TreeMap<Long, Long> runs = free[e.segment];
        long offset = e.offset;
        long length = e.length;
        Map.Entry<Long, Long> before = runs.floorEntry(offset);
        Map.Entry<Long, Long> next = runs.ceilingEntry(offset);
        if ((before != null && before.getKey() + before.getValue() > offset)
                || (next != null && next.getKey() < offset + length)) {
            throw new IllegalStateException("an extent freed twice: " + e.segment + ":" + offset + "+" + length);
        }
        if (before != null && before.getKey() + before.getValue() == offset) {
            runs.remove(before.getKey());
            offset = before.getKey();
            length += before.getValue();
        }
        Long after = runs.get(e.offset + e.length);
        if (after != null) {
            runs.remove(e.offset + e.length);
            length += after;
        }
        runs.put(offset, length);
        used -= e.length;
    }

    /** The free runs, for the tests: how many, and whether each segment is one run again. */
    synchronized int freeRuns() {
        int n = 0;
        for (TreeMap<Long, Long> runs : free) {
            n += runs.size();
        }
        return n;
    }

    /** Copies {@code chunks}, in order, to the start of the extent. */
    void write(Extent e, Iterator<ByteBuffer> chunks) {
        ByteBuffer to = view(e);
        while (chunks.hasNext()) {
            to.put(chunks.next());
        }
    }

    /** Copies the extent's first {@code bytes} into a new heap buffer. */
    ByteBuffer read(Extent e, int bytes) {
        ByteBuffer from = view(e);
        from.limit(bytes);
        ByteBuffer copy = ByteBuffer.allocate(bytes);
        copy.put(from).flip();
        return copy;
    }

    /** A buffer over the extent alone, with its own position: views do not share a cursor. */
    private ByteBuffer view(Extent e) {
        ByteBuffer b = segments[e.segment].duplicate();
        b.position((int) e.offset).limit((int) (e.offset + e.length));
        return b.slice();
    }

    static String size(long bytes) {
        return bytes >= 1L << 30 ? String.format(Locale.ROOT, "%.1f GB", bytes / (double) (1L << 30))
            : String.format(Locale.ROOT, "%.0f MB", bytes / (double) (1 << 20));
    }
}
