package org.teraheap.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.mllib.linalg.Vector;
import org.apache.spark.mllib.linalg.Vectors;
import org.apache.spark.mllib.optimization.GradientDescent;
import org.apache.spark.mllib.optimization.LogisticGradient;
import org.apache.spark.mllib.optimization.SquaredL2Updater;
import org.apache.spark.mllib.regression.LabeledPoint;

import scala.Tuple2;

/**
 * A job whose stages want DRAM in turn for opposite uses (the TeraCache paper's case
 * for dividing DRAM at run time). Labelled points are cached at the chosen storage level, as
 * logr caches them; then each round runs two stages:
 * <ul>
 * <li>a scan: logistic-regression gradient steps over the cached points, which allocate little
 *     and read all of the cache in every step, so that they want the page cache to hold H2;</li>
 * <li>a build: a groupByKey over generated (key, value) pairs, not cached (500,000 per scale
 *     unit), each of whose reduce tasks holds all its groups in memory at once, about 64 bytes of
 *     small objects per pair, so that it wants a large H1 (else Spark spills the groups to disk,
 *     or the collector runs back to back).</li>
 * </ul>
 * A fixed split of DRAM suits one stage or the other. Checksum: the model's weights, plus a hash
 * of every group's sorted values mapped to [0, 1), so that one wrong value changes it.
 */
final class PhasedWorkload {

    /** Pairs per scale unit in each build stage, and the keys they fall into. */
    private static final long PAIRS = 500_000;
    private static final int KEYS = 1 << 12;
    /** Gradient steps per scan stage. */
    private static final int STEPS = 15;

    private PhasedWorkload() {
    }

    static SparkBench.Outcome run(JavaSparkContext jsc, SparkBench.Params p) {
        JavaRDD<LabeledPoint> points = Generators
                .points(jsc, Generators.scaled(Generators.POINTS, p.scale()), Generators.Labels.LOGISTIC,
                        p.partitions())
                .persist(p.level());
        points.count();
        JavaRDD<Tuple2<Object, Vector>> labelled =
                points.map(lp -> new Tuple2<Object, Vector>(lp.label(), lp.features()));
        long pairs = Generators.scaled(PAIRS, p.scale());

        Vector weights = Vectors.zeros(Generators.FEATURES);
        long groups = 0;
        for (int round = 0; round < p.iterations(); round++) {
            weights = GradientDescent.runMiniBatchSGD(labelled.rdd(), new LogisticGradient(),
                    new SquaredL2Updater(), 1.0, STEPS, 0.01, 1.0, weights, 0.0)._1();
            groups += groupHash(jsc, pairs, round, p.partitions());
        }
        double digest = Checksums.vectorDigest(weights.toArray()) + Generators.unit(groups);
        return SparkBench.Outcome.approx(digest, Checksums.FLOAT_TOLERANCE, p.iterations());
    }

    /** The build stage: every group held at once, its values sorted and hashed. */
    private static long groupHash(JavaSparkContext jsc, long pairs, int round, int partitions) {
        JavaPairRDD<Integer, Long> generated = Generators
                .generate(jsc, pairs, 4096, partitions, (chunk, count) -> {
                    List<Tuple2<Integer, Long>> out = new ArrayList<>(count);
                    for (int i = 0; i < count; i++) {
                        long v = Generators.mix64(((long) round << 40) + chunk * 4096 + i);
                        out.add(new Tuple2<>((int) (v >>> 52) & (KEYS - 1), v));
                    }
                    return out.iterator();
                })
                .mapToPair(t -> t);
        return generated.groupByKey(partitions).map(group -> {
            long[] values = new long[16];
            int n = 0;
            for (Long v : group._2()) {
                if (n == values.length) {
                    values = Arrays.copyOf(values, 2 * n);
                }
                values[n++] = v;
            }
            Arrays.sort(values, 0, n);
            long h = Generators.mix64(group._1());
            for (int i = 0; i < n; i++) {
                h = Generators.mix64(h ^ values[i]);
            }
            return h;
        }).reduce(Long::sum);
    }
}
