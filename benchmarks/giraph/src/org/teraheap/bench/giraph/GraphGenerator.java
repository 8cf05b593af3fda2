package org.teraheap.bench.giraph;

import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Writes a synthetic undirected graph with power-law degrees as a Graphalytics edge list.
 *
 * <pre>GraphGenerator &lt;file&gt; &lt;scale&gt; [seed]</pre>
 *
 * N = scale * 100,000 vertices (scale may be fractional: 0.05 is 5,000 vertices), ids 0..N-1,
 * average degree about 20; each undirected edge is written once, as {@code u v weight}, weights
 * uniform in [1, 100) with 3 decimals.
 *
 * <p>The model is Chung-Lu: generated vertex i has weight w_i proportional to 1/sqrt(i+1),
 * scaled so the weights average 20, and each pair u &lt; v is an edge with probability
 * min(1, w_u w_v / S), S the sum of all weights; the expected degree of i is then about w_i, a
 * power law with exponent 3 (P(degree &gt; k) ~ 1/k^2), vertex 0 the largest hub. Pairs are
 * visited source by source, u ascending, and for each u the targets v &gt; u ascending, so every
 * pair is considered exactly once: no duplicates and no self-loops by construction, and nothing
 * to remember between sources. For a fixed u the probability falls as v grows, which lets the
 * generator skip over pairs with geometric jumps (Miller and Hagberg's method) rather than draw
 * for every pair: O(N + edges) time, O(1) memory.
 *
 * <p>Generated vertex i is written with id ((i+1) * A) mod N, for a fixed A coprime with N: a
 * permutation of 0..N-1, so that ids say nothing about degrees. With ids in generation order the
 * hubs would have the smallest ids, and the workloads' smallest-id rules (cdlp's tie-break, the
 * default bfs/sssp source) would all pick the biggest hub: cdlp would collapse into one label.
 *
 * <p>Deterministic: one {@link SplittableRandom} from the seed, consumed in that order, and
 * {@link StrictMath} for the logarithms, so the same scale and seed give the same bytes on every
 * JVM. Vertices that draw no edge (a handful, the lightest) do not appear in the file.
 */
public final class GraphGenerator {
    static final long VERTICES_PER_SCALE = 100_000;
    static final double AVERAGE_DEGREE = 20;
    static final long DEFAULT_SEED = 1;

    private final long n;
    /** w_i = scale / sqrt(i+1). */
    private final double weightScale;
    private final double weightSum;
    /** The id multiplier A, coprime with n. */
    private final long idMultiplier;

    private GraphGenerator(long n) {
        this.n = n;
        // About n / golden ratio: consecutive vertices land far apart.
        long a = Math.max(1, (long) (n * 0.6180339887498949));
        while (gcd(a, n) != 1) {
            a++;
        }
        idMultiplier = a;
        double sum = 0;
        for (long i = 0; i < n; i++) {
            sum += 1 / Math.sqrt(i + 1);
        }
        weightScale = AVERAGE_DEGREE * n / sum;
        weightSum = AVERAGE_DEGREE * n;
    }

    private double weight(long i) {
        return weightScale / Math.sqrt(i + 1);
    }

    private long id(long i) {
        // Exact: i + 1 <= n and A < n, with n < 2^31, keep the product within a long.
        return (i + 1) * idMultiplier % n;
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2 || args.length > 3) {
            usage();
        }
        long n = 0;
        long seed = DEFAULT_SEED;
        try {
            n = Math.round(Double.parseDouble(args[1]) * VERTICES_PER_SCALE);
            if (args.length == 3) {
                seed = Long.parseLong(args[2]);
            }
        } catch (NumberFormatException e) {
            usage();
        }
        if (n < 2 || n > Integer.MAX_VALUE) {
            System.err.println("GraphGenerator: scale " + args[1] + " gives " + n
                    + " vertices; 2 to 2^31-1 are possible");
            System.exit(2);
        }
        long start = System.nanoTime();
        long edges;
        try (OutputStream out = new BufferedOutputStream(new FileOutputStream(args[0]), 1 << 20)) {
            edges = new GraphGenerator(n).write(out, seed);
        }
        System.out.println(String.format(Locale.ROOT, "GRAPH file=%s vertices=%d edges=%d seconds=%.3f",
                args[0], n, edges, (System.nanoTime() - start) / 1e9));
    }

    private static void usage() {
        System.err.println("usage: GraphGenerator <file> <scale> [seed]   (scale * 100,000 vertices; "
                + "seed default " + DEFAULT_SEED + ")");
        System.exit(2);
    }

    /** Writes the edge list; returns the number of edges. */
    private long write(OutputStream out, long seed) throws IOException {
        LineWriter lines = new LineWriter(out);
        lines.text("# GraphGenerator: Chung-Lu power-law graph, " + n + " vertices, seed " + seed
                + "; undirected, one 'src dst weight' line per edge\n");
        SplittableRandom random = new SplittableRandom(seed);
        long edges = 0;
        for (long u = 0; u < n - 1; u++) {
            double wu = weight(u);
            long v = u + 1;
            double p = Math.min(wu * weight(v) / weightSum, 1.0);
            while (v < n) {
                if (p < 1) {
                    // Pairs (u, v), (u, v+1), ... each at probability at most p: the number of
                    // them to pass over before a candidate is geometric.
                    double r = 1.0 - random.nextDouble(); // in (0, 1]: log stays finite
                    double skip = Math.floor(StrictMath.log(r) / StrictMath.log1p(-p));
                    if (skip >= n - v) {
                        break;
                    }
                    v += (long) skip;
                }
                // The candidate's own probability q <= p: accept it with q / p.
                double q = Math.min(wu * weight(v) / weightSum, 1.0);
                if (random.nextDouble() < q / p) {
                    int milli = 1000 + random.nextInt(99_000); // weight in [1.000, 99.999]
                    lines.number(id(u)).space().number(id(v)).space().number(milli / 1000).dot()
                            .threeDigits(milli % 1000).newline();
                    edges++;
                }
                p = q;
                v++;
            }
        }
        lines.flush();
        return edges;
    }

    /** Formats numbers straight into bytes: scale 10 is ten million lines. */
    private static final class LineWriter {
        private final OutputStream out;
        private final byte[] buffer = new byte[1 << 16];
        private final byte[] digits = new byte[20];
        private int used;

        LineWriter(OutputStream out) {
            this.out = out;
        }

        LineWriter text(String s) throws IOException {
            for (byte b : s.getBytes(StandardCharsets.US_ASCII)) {
                put(b);
            }
            return this;
        }

        LineWriter number(long value) throws IOException {
            // Non-negative here: vertex ids and weights.
            int k = 0;
            do {
                digits[k++] = (byte) ('0' + value % 10);
                value /= 10;
            } while (value > 0);
            while (k > 0) {
                put(digits[--k]);
            }
            return this;
        }

        LineWriter threeDigits(int value) throws IOException {
            put((byte) ('0' + value / 100));
            put((byte) ('0' + value / 10 % 10));
            put((byte) ('0' + value % 10));
            return this;
        }

        LineWriter space() throws IOException {
            put((byte) ' ');
            return this;
        }

        LineWriter dot() throws IOException {
            put((byte) '.');
            return this;
        }

        LineWriter newline() throws IOException {
            put((byte) '\n');
            return this;
        }

        private void put(byte b) throws IOException {
            if (used == buffer.length) {
                flush();
            }
            buffer[used++] = b;
        }

        void flush() throws IOException {
            out.write(buffer, 0, used);
            used = 0;
        }
    }
}
