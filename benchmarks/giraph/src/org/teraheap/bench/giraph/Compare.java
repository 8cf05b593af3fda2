package org.teraheap.bench.giraph;

import java.io.File;
import java.io.IOException;

/**
 * Checks that two results of a workload agree vertex by vertex.
 *
 * <pre>Compare &lt;workload&gt; &lt;a&gt; &lt;b&gt;</pre>
 *
 * Each of a and b is a file or a directory of part files of {@code id<TAB>value} lines. Prints
 * {@code SAME <n> vertices} and exits 0, or prints the first differences and exits 1 (2 for a bad
 * command line or unreadable input).
 *
 * <p>Tolerances. bfs, wcc and cdlp are integers: exact. sssp and pr are doubles whose last bits
 * depend on the order in which sums are formed (Giraph adds messages in the order its threads
 * deliver them, {@link Reference} in adjacency order), so they agree to a relative 1e-9:
 * <ul>
 *   <li>sssp: a distance is a sum of at most a few dozen weights along one path; both sides take
 *       the minimum over the same path sums, so they agree exactly in practice, and 1e-9 only
 *       absorbs reassociation. A wrong path differs by at least a fraction of an edge weight
 *       (weights are at least 1 in generated graphs), far above 1e-9 relative. Infinity (not
 *       reached) must match exactly.</li>
 *   <li>pr: each rank is a sum of deg terms per iteration, so reordering moves it by a few ulps
 *       (about 1e-15 relative) per iteration. The bound is relative, not absolute, because ranks
 *       are about 1/N (1e-5 at scale 1, smaller beyond), where an absolute 1e-9 would hide real
 *       errors. Every rank is at least (1-d)/N, so a relative bound is well defined.</li>
 * </ul>
 */
public final class Compare {
    /** Relative tolerance for the double-valued workloads; see the class comment. */
    static final double RELATIVE_TOLERANCE = 1e-9;
    private static final int SHOW = 10;

    private Compare() {
    }

    public static void main(String[] args) {
        if (args.length != 3 || Workload.byId(args[0]) == null) {
            System.err.println("usage: Compare <workload> <a> <b>   (workloads: " + Workload.names()
                    + "; a, b: a file or a directory of id<TAB>value part files)");
            System.exit(2);
        }
        Workload workload = Workload.byId(args[0]);
        try {
            VertexResults a = load(new File(args[1]), workload);
            VertexResults b = load(new File(args[2]), workload);
            System.exit(compare(a, b) ? 0 : 1);
        } catch (IOException e) {
            System.err.println("Compare: " + e.getMessage());
            System.exit(2);
        }
    }

    private static VertexResults load(File path, Workload workload) throws IOException {
        VertexResults r = VertexResults.read(path, workload.doubleValues);
        r.sortById();
        Long duplicate = r.firstDuplicateId();
        if (duplicate != null) {
            throw new IOException(path + ": vertex " + duplicate + " appears twice");
        }
        return r;
    }

    /** Prints the verdict; true if a and b agree. */
    static boolean compare(VertexResults a, VertexResults b) {
        int differences = 0;
        int i = 0;
        int j = 0;
        while (i < a.size || j < b.size) {
            String problem;
            if (j == b.size || (i < a.size && a.ids[i] < b.ids[j])) {
                problem = "vertex " + a.ids[i] + " only in a (value " + a.valueString(i) + ")";
                i++;
            } else if (i == a.size || b.ids[j] < a.ids[i]) {
                problem = "vertex " + b.ids[j] + " only in b (value " + b.valueString(j) + ")";
                j++;
            } else {
                problem = agree(a, i, b, j) ? null
                        : "vertex " + a.ids[i] + ": a " + a.valueString(i) + ", b " + b.valueString(j);
                i++;
                j++;
            }
            if (problem != null) {
                if (differences < SHOW) {
                    System.out.println("DIFF " + problem);
                }
                differences++;
            }
        }
        if (differences == 0) {
            System.out.println("SAME " + a.size + " vertices");
            return true;
        }
        System.out.println("DIFFERENT " + differences + " of " + Math.max(a.size, b.size)
                + " vertices (a has " + a.size + ", b has " + b.size + ")");
        return false;
    }

    private static boolean agree(VertexResults a, int i, VertexResults b, int j) {
        if (!a.doubleValues) {
            return a.values[i] == b.values[j];
        }
        double x = a.doubleValue(i);
        double y = b.doubleValue(j);
        if (x == y) {
            return true; // also both infinite
        }
        if (Double.isInfinite(x) || Double.isInfinite(y) || Double.isNaN(x) || Double.isNaN(y)) {
            return false; // reached on one side only, or broken
        }
        return Math.abs(x - y) <= RELATIVE_TOLERANCE * Math.max(Math.abs(x), Math.abs(y));
    }
}
