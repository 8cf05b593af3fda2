package org.teraheap.hybrid;

import java.io.File;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The file tier's space ({@link NvmFile}) under a long random run of allocations and frees: live
 * extents never overlap, each keeps the bytes written into it, the count of used bytes is their
 * sum, a request too large finds nothing, and once all is freed the file is one free run again.
 * Prints "PASS what" or "FAIL what"; exits 1 on any failure.
 *
 * <pre>NvmFileCheck DIRECTORY</pre>
 */
public final class NvmFileCheck {
    private static boolean failed;

    private NvmFileCheck() {
    }

    private static final class Live {
        final NvmFile.Extent extent;
        final int bytes;
        final long seed;

        Live(NvmFile.Extent extent, int bytes, long seed) {
            this.extent = extent;
            this.bytes = bytes;
            this.seed = seed;
        }
    }

    public static void main(String[] args) {
        NvmFile file = NvmFile.create(new File(args[0]), 64L << 20);
        SplittableRandom random = new SplittableRandom(42);
        List<Live> live = new ArrayList<>();
        long refused = 0;
        boolean overlapFree = true;
        boolean contentKept = true;
        boolean usedRight = true;
        for (int step = 0; step < 20000; step++) {
            if (live.isEmpty() || random.nextInt(100) < 55) {
                int bytes = 1 + random.nextInt(random.nextBoolean() ? 8192 : 2 << 20);
                NvmFile.Extent e = file.allocate(bytes);
                if (e == null) {
                    refused++;
                    continue;
                }
                long seed = random.nextLong();
                file.write(e, Collections.singletonList(pattern(bytes, seed)).iterator());
                live.add(new Live(e, bytes, seed));
            } else {
                Live l = live.remove(random.nextInt(live.size()));
                contentKept &= file.read(l.extent, l.bytes).equals(pattern(l.bytes, l.seed));
                file.free(l.extent);
            }
            if (step % 500 == 0) {
                overlapFree &= disjoint(live);
                long sum = 0;
                for (Live l : live) {
                    sum += l.extent.length;
                    contentKept &= file.read(l.extent, l.bytes).equals(pattern(l.bytes, l.seed));
                }
                usedRight &= sum == file.used();
            }
        }
        check(refused > 0, "a full file refused requests (" + refused + ") instead of overlapping extents");
        check(overlapFree && disjoint(live), "live extents never overlapped");
        check(contentKept, "every extent kept the bytes written into it");
        check(usedRight, "the used bytes were always the live extents' sum");
        check(file.allocate(file.capacity() + 1) == null, "a request larger than the file finds nothing");
        for (Live l : live) {
            file.free(l.extent);
        }
        check(file.used() == 0 && file.freeRuns() == 1, "all freed: the file is one free run again ("
            + file.freeRuns() + " runs, " + file.used() + " bytes used)");
        NvmFile.Extent all = file.allocate(file.capacity());
        check(all != null && all.offset == 0, "the whole file can be taken in one extent again");
        check(new File(args[0]).list().length == 0, "the file was unlinked: nothing in " + args[0]);
        System.exit(failed ? 1 : 0);
    }

    private static boolean disjoint(List<Live> live) {
        List<NvmFile.Extent> sorted = new ArrayList<>();
        for (Live l : live) {
            sorted.add(l.extent);
        }
        sorted.sort((a, b) -> a.segment != b.segment ? Integer.compare(a.segment, b.segment) : Long.compare(a.offset, b.offset));
        for (int i = 1; i < sorted.size(); i++) {
            NvmFile.Extent a = sorted.get(i - 1);
            NvmFile.Extent b = sorted.get(i);
            if (a.segment == b.segment && a.offset + a.length > b.offset) {
                return false;
            }
        }
        return true;
    }

    private static ByteBuffer pattern(int bytes, long seed) {
        ByteBuffer b = ByteBuffer.allocate(bytes);
        SplittableRandom r = new SplittableRandom(seed);
        while (b.hasRemaining()) {
            b.put((byte) r.nextInt());
        }
        b.flip();
        return b;
    }

    private static void check(boolean ok, String what) {
        System.out.println((ok ? "PASS " : "FAIL ") + what);
        failed |= !ok;
    }
}
