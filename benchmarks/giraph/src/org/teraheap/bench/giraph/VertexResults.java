package org.teraheap.bench.giraph;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Per-vertex results, {@code id<TAB>value} lines, as written by Giraph (a directory of part
 * files) or by {@link Reference} (one file). Values are kept as longs: the value itself for the
 * long-valued workloads, the raw bits of the double for pr and sssp.
 */
final class VertexResults {
    final boolean doubleValues;
    long[] ids = new long[1024];
    long[] values = new long[1024];
    int size;

    private VertexResults(boolean doubleValues) {
        this.doubleValues = doubleValues;
    }

    double doubleValue(int i) {
        return Double.longBitsToDouble(values[i]);
    }

    String valueString(int i) {
        return doubleValues ? Double.toString(doubleValue(i)) : Long.toString(values[i]);
    }

    /**
     * Reads {@code path}: a file, or a directory whose files are all read except Hadoop's
     * markers and checksums ({@code _SUCCESS}, {@code .*.crc}).
     */
    static VertexResults read(File path, boolean doubleValues) throws IOException {
        VertexResults results = new VertexResults(doubleValues);
        for (File file : resultFiles(path)) {
            results.readFile(file);
        }
        return results;
    }

    static List<File> resultFiles(File path) throws IOException {
        List<File> files = new ArrayList<>();
        if (path.isFile()) {
            files.add(path);
            return files;
        }
        File[] listed = path.listFiles();
        if (listed == null) {
            throw new IOException(path + ": no such file or directory");
        }
        Arrays.sort(listed);
        for (File f : listed) {
            String name = f.getName();
            if (f.isFile() && !name.startsWith("_") && !name.startsWith(".")) {
                files.add(f);
            }
        }
        return files;
    }

    private void readFile(File file) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file.toPath(), StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.isEmpty()) {
                    continue;
                }
                int tab = line.indexOf('\t');
                if (tab < 0) {
                    throw new IOException(file + ": not an id<TAB>value line: '" + line + "'");
                }
                try {
                    long id = Long.parseLong(line.substring(0, tab));
                    String text = line.substring(tab + 1).trim();
                    long value = doubleValues
                            ? Double.doubleToLongBits(Double.parseDouble(text))
                            : Long.parseLong(text);
                    add(id, value);
                } catch (NumberFormatException e) {
                    throw new IOException(file + ": bad id<TAB>value line: '" + line + "'");
                }
            }
        }
    }

    private void add(long id, long value) {
        if (size == ids.length) {
            ids = Arrays.copyOf(ids, size * 2);
            values = Arrays.copyOf(values, size * 2);
        }
        ids[size] = id;
        values[size] = value;
        size++;
    }

    /** Sorts by id (Giraph writes partitions in no particular order). */
    void sortById() {
        quickSort(0, size - 1);
    }

    /** The first id that occurs twice, after {@link #sortById()}; null if none. */
    Long firstDuplicateId() {
        for (int i = 1; i < size; i++) {
            if (ids[i] == ids[i - 1]) {
                return ids[i];
            }
        }
        return null;
    }

    private void quickSort(int lo, int hi) {
        while (hi - lo > 16) {
            // Median of three: sorted input (as Reference writes) stays O(n log n).
            int mid = (lo + hi) >>> 1;
            if (ids[mid] < ids[lo]) {
                swap(mid, lo);
            }
            if (ids[hi] < ids[lo]) {
                swap(hi, lo);
            }
            if (ids[hi] < ids[mid]) {
                swap(hi, mid);
            }
            long pivot = ids[mid];
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (ids[i] < pivot) {
                    i++;
                }
                while (ids[j] > pivot) {
                    j--;
                }
                if (i <= j) {
                    swap(i++, j--);
                }
            }
            // Recurse into the smaller half, loop on the larger: bounded stack depth.
            if (j - lo < hi - i) {
                quickSort(lo, j);
                lo = i;
            } else {
                quickSort(i, hi);
                hi = j;
            }
        }
        for (int i = lo + 1; i <= hi; i++) {
            for (int j = i; j > lo && ids[j] < ids[j - 1]; j--) {
                swap(j, j - 1);
            }
        }
    }

    private void swap(int a, int b) {
        long t = ids[a];
        ids[a] = ids[b];
        ids[b] = t;
        t = values[a];
        values[a] = values[b];
        values[b] = t;
    }

    /**
     * An order-independent digest of the results: the wrapping sum over vertices of a 64-bit
     * hash of (id, value). Any changed value or id changes it (but for hash collisions). For pr,
     * whose last bits depend on the order Giraph's threads add the messages in, the value is first
     * rounded to 20 significant bits (about 1e-6 relative), well above that noise.
     */
    long checksum(Workload workload) {
        long sum = 0;
        for (int i = 0; i < size; i++) {
            long key = workload == Workload.PR ? roundBits(values[i], 20) : values[i];
            sum += mix64(mix64(ids[i]) ^ key);
        }
        return sum;
    }

    /**
     * The bits of a finite double rounded to {@code keep} significant mantissa bits (half away
     * from zero). Adding half a unit to the raw bits lets a mantissa carry into the exponent, so
     * values just below and just above a power of two round alike.
     */
    static long roundBits(long bits, int keep) {
        int drop = 52 - keep;
        return (bits + (1L << (drop - 1))) & ~((1L << drop) - 1);
    }

    /** SplitMix64's finalizer: a bijection on longs that mixes every bit into every other. */
    static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    static String hex(long checksum) {
        return String.format("%016x", checksum);
    }
}
