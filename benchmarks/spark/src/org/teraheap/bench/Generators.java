package org.teraheap.bench;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.stream.LongStream;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.graphx.Edge;
import org.apache.spark.mllib.linalg.Vectors;
import org.apache.spark.mllib.regression.LabeledPoint;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

/**
 * Deterministic synthetic inputs, generated inside Spark.
 *
 * <p>Data are produced in fixed-size chunks, each from its own random generator seeded by the
 * chunk number, and the chunks are spread over the partitions. The data set is therefore the
 * same on every run and in every configuration (JVM, GC, serializer, storage level) and does
 * not even depend on the number of partitions. Sizes grow linearly with the scale.
 */
final class Generators {

    // ---- sizes at scale 1 (everything grows linearly with the scale) ----

    /** R-MAT graph: vertex-id range and number of directed edges (edge factor 16, as Graph500). */
    static final long GRAPH_VERTICES = 1L << 14;
    static final long GRAPH_EDGES = 1L << 18;
    /**
     * TriangleCount's graph (before dropping self loops and duplicates). Kept apart from the
     * other graph workloads because its cost per edge differs: it replicates a neighbour set per
     * vertex into every edge partition that touches the vertex.
     */
    static final long TC_VERTICES = 1L << 14;
    static final long TC_EDGES = 1L << 18;
    /** SVD++: bipartite users x items rating graph. */
    static final long USERS = 8_000;
    static final long ITEMS = 1_600;
    static final long RATINGS = 160_000;
    /** Item vertex ids start here, so that they never collide with user ids. */
    static final long ITEM_ID_BASE = 1L << 40;
    /** MLlib: dense labelled points. */
    static final long POINTS = 50_000;
    static final int FEATURES = 100;
    static final int NB_CLASSES = 5;
    /** RDD-RL: records (key, category, day, amount, name) and a small table of categories. */
    static final long RECORDS = 200_000;
    static final int CATEGORIES = 1_000;
    static final int DAYS = 365;

    // Rough cached bytes per element when deserialized (MEMORY_ONLY), only used to pick the
    // default number of partitions.
    private static final long BYTES_PER_GRAPH_EDGE = 64;
    private static final long BYTES_PER_RATING = 120;
    private static final long BYTES_PER_POINT = FEATURES * 8L + 64;
    private static final long BYTES_PER_RECORD = 200;

    private static final int EDGE_CHUNK = 1 << 13;
    private static final int POINT_CHUNK = 1 << 10;
    private static final int RECORD_CHUNK = 1 << 13;

    private static final long SEED_GRAPH = 0x5EED_0001L;
    private static final long SEED_RATINGS = 0x5EED_0002L;
    private static final long SEED_POINTS = 0x5EED_0003L;
    private static final long SEED_MODEL = 0x5EED_0004L;
    private static final long SEED_RECORDS = 0x5EED_0005L;

    /** R-MAT quadrant probabilities (Graph500): a power-law-like, skewed degree distribution. */
    private static final double RMAT_A = 0.57;
    private static final double RMAT_B = 0.19;
    private static final double RMAT_C = 0.19;

    private static final Integer ONE = 1;

    private Generators() {
    }

    static long scaled(long base, double scale) {
        return Math.max(2, Math.round(base * scale));
    }

    static long graphBytes(double scale) {
        return scaled(GRAPH_EDGES, scale) * BYTES_PER_GRAPH_EDGE;
    }

    static long triangleGraphBytes(double scale) {
        return scaled(TC_EDGES, scale) * BYTES_PER_GRAPH_EDGE;
    }

    static long ratingBytes(double scale) {
        return scaled(RATINGS, scale) * BYTES_PER_RATING;
    }

    static long pointBytes(double scale) {
        return scaled(POINTS, scale) * BYTES_PER_POINT;
    }

    static long recordBytes(double scale) {
        return scaled(RECORDS, scale) * BYTES_PER_RECORD;
    }

    // ---- graphs ----

    /** Directed R-MAT edges with an Int attribute 1; may contain self loops and duplicates. */
    static JavaRDD<Edge<Object>> rmatEdges(JavaSparkContext jsc, long vertices, long edges, int partitions) {
        int levels = 64 - Long.numberOfLeadingZeros(vertices - 1);
        return generate(jsc, edges, EDGE_CHUNK, partitions, (chunk, count) -> {
            SplittableRandom rng = random(SEED_GRAPH, chunk);
            return repeat(count, () -> rmatEdge(rng, vertices, levels));
        });
    }

    private static Edge<Object> rmatEdge(SplittableRandom rng, long vertices, int levels) {
        while (true) {
            long src = 0;
            long dst = 0;
            for (int l = 0; l < levels; l++) {
                double r = rng.nextDouble();
                src <<= 1;
                dst <<= 1;
                if (r < RMAT_A) {
                    continue;
                } else if (r < RMAT_A + RMAT_B) {
                    dst |= 1;
                } else if (r < RMAT_A + RMAT_B + RMAT_C) {
                    src |= 1;
                } else {
                    src |= 1;
                    dst |= 1;
                }
            }
            // The id range is rounded up to a power of two; ids beyond it are drawn again.
            if (src < vertices && dst < vertices) {
                return new Edge<>(src, dst, ONE);
            }
        }
    }

    /**
     * User -> item ratings in [1, 5] (steps of 0.5) from a hidden rank-3 taste model plus noise.
     * Users and items are drawn with a skewed (power-law-like) popularity, the lowest ids being
     * the most active. Attributes are Doubles (the ratings SvdPlusPlus trains on).
     */
    static JavaRDD<Edge<Object>> ratings(JavaSparkContext jsc, long users, long items, long ratings,
                                          int partitions) {
        return generate(jsc, ratings, EDGE_CHUNK, partitions, (chunk, count) -> {
            SplittableRandom rng = random(SEED_RATINGS, chunk);
            return repeat(count, () -> {
                long user = skewed(rng, users, 2.0);
                long item = skewed(rng, items, 3.0);
                double taste = 0;
                for (int k = 0; k < 3; k++) {
                    taste += latent(user, k) * latent(ITEM_ID_BASE + item, k);
                }
                double r = 3.0 + 0.8 * taste + 0.5 * rng.nextGaussian();
                r = Math.min(5.0, Math.max(1.0, Math.rint(r * 2) / 2));
                return new Edge<>(user, ITEM_ID_BASE + item, (Object) r);
            });
        });
    }

    /** An id in [0, n) with density growing towards 0 (exponent > 1 means more skew). */
    private static long skewed(SplittableRandom rng, long n, double exponent) {
        return Math.min(n - 1, (long) (n * Math.pow(rng.nextDouble(), exponent)));
    }

    /** A hidden factor in [-1, 1), a pure function of (id, k). */
    private static double latent(long id, int k) {
        return unit(mix64(id * 31 + k + SEED_RATINGS)) * 2 - 1;
    }

    // ---- labelled points ----

    /** How labels derive from the hidden model. */
    enum Labels {
        /** y = w.x + small noise. */
        LINEAR,
        /** y ~ Bernoulli(sigmoid(w.x)), y in {0, 1}. */
        LOGISTIC,
        /** y = [w.x + noise > 0], y in {0, 1}. */
        MARGIN,
        /** NB_CLASSES classes; non-negative features, exponential around a per-class mean. */
        MULTINOMIAL
    }

    static JavaRDD<LabeledPoint> points(JavaSparkContext jsc, long rows, Labels labels, int partitions) {
        return generate(jsc, rows, POINT_CHUNK, partitions, (chunk, count) -> {
            SplittableRandom rng = random(SEED_POINTS + labels.ordinal(), chunk);
            double[] w = hiddenWeights();
            return repeat(count, () -> point(rng, w, labels));
        });
    }

    private static LabeledPoint point(SplittableRandom rng, double[] w, Labels labels) {
        double[] x = new double[FEATURES];
        if (labels == Labels.MULTINOMIAL) {
            int c = rng.nextInt(NB_CLASSES);
            for (int j = 0; j < FEATURES; j++) {
                double mean = 0.2 + 2.0 * unit(mix64(SEED_MODEL + c * (long) FEATURES + j));
                x[j] = -mean * Math.log(1.0 - rng.nextDouble());
            }
            return new LabeledPoint(c, Vectors.dense(x));
        }
        double margin = 0;
        for (int j = 0; j < FEATURES; j++) {
            x[j] = rng.nextGaussian();
            margin += w[j] * x[j];
        }
        double y = switch (labels) {
            case LINEAR -> margin + 0.1 * rng.nextGaussian();
            case LOGISTIC -> rng.nextDouble() < 1.0 / (1.0 + Math.exp(-margin)) ? 1.0 : 0.0;
            case MARGIN -> margin + 0.3 * rng.nextGaussian() > 0 ? 1.0 : 0.0;
            default -> throw new IllegalStateException(labels.name());
        };
        return new LabeledPoint(y, Vectors.dense(x));
    }

    /** The hidden linear model; w.x has a standard deviation of about 3. */
    static double[] hiddenWeights() {
        SplittableRandom rng = new SplittableRandom(SEED_MODEL);
        double[] w = new double[FEATURES];
        for (int j = 0; j < FEATURES; j++) {
            w[j] = rng.nextGaussian() * 3.0 / Math.sqrt(FEATURES);
        }
        return w;
    }

    // ---- relational records ----

    /**
     * Rows (key, category, day, amount, name): keys 0..n-1, categories skewed towards the low ids,
     * amounts in cents, names of 13 to 20 characters.
     */
    static JavaRDD<Row> records(JavaSparkContext jsc, long rows, int partitions) {
        return generate(jsc, rows, RECORD_CHUNK, partitions, (chunk, count) -> {
            SplittableRandom rng = random(SEED_RECORDS, chunk);
            long[] key = {chunk * RECORD_CHUNK};
            return repeat(count, () -> {
                long k = key[0]++;
                int category = (int) skewed(rng, CATEGORIES, 2.0);
                String name = "customer-" + Long.toString(rng.nextLong(1L << 20, 1L << 52), 36);
                return RowFactory.create(k, category, rng.nextInt(DAYS), rng.nextLong(1, 10_000_000), name);
            });
        });
    }

    /** The categories table: (id, region, rate). */
    static List<Row> categories() {
        List<Row> rows = new ArrayList<>(CATEGORIES);
        for (int id = 0; id < CATEGORIES; id++) {
            rows.add(RowFactory.create(id, id % 17, 1L + id % 7));
        }
        return rows;
    }

    // ---- plumbing ----

    /** Produces the items of one chunk; runs on the executors. */
    interface ChunkSource<T> extends Serializable {
        Iterator<T> chunk(long index, int count);
    }

    /** {@code total} items in chunks of {@code chunkSize}, chunks spread over the partitions. */
    static <T> JavaRDD<T> generate(JavaSparkContext jsc, long total, int chunkSize, int partitions,
                                   ChunkSource<T> source) {
        long chunks = (total + chunkSize - 1) / chunkSize;
        List<Long> ids = LongStream.range(0, chunks).boxed().toList();
        return jsc.parallelize(ids, partitions)
                .flatMap(c -> source.chunk(c, (int) Math.min(chunkSize, total - c * chunkSize)));
    }

    static <T> Iterator<T> repeat(int count, Supplier<T> next) {
        return new Iterator<>() {
            private int left = count;

            @Override
            public boolean hasNext() {
                return left > 0;
            }

            @Override
            public T next() {
                if (left <= 0) {
                    throw new NoSuchElementException();
                }
                left--;
                return next.get();
            }
        };
    }

    static SplittableRandom random(long seed, long chunk) {
        return new SplittableRandom(mix64(seed * 0x9E3779B97F4A7C15L + chunk));
    }

    /** SplitMix64 finalizer: a good 64-bit hash. */
    static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A hash mapped to [0, 1). */
    static double unit(long hash) {
        return (hash >>> 11) * 0x1.0p-53;
    }
}
