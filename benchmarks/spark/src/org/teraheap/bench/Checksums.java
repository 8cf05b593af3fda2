package org.teraheap.bench;

import java.io.Serializable;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.Row;

import scala.Tuple2;

/**
 * Checksums of results that do not depend on the order in which Spark delivers them.
 *
 * <p>Integer results are hashed per element and the hashes added with wrapping long arithmetic,
 * which is commutative: exact. Floating results are summed per partition (Kahan) and the
 * partition sums are added in partition order, so the checksum itself adds no order noise; what
 * is left is the last-bit noise of the algorithm's own sums, covered by the printed tolerance.
 */
final class Checksums {

    /** Relative tolerance for floating checksums. */
    static final String FLOAT_TOLERANCE = "1e-6";

    private Checksums() {
    }

    interface VertexToLong<V> extends Serializable {
        long apply(long vid, V attr);
    }

    interface VertexToDouble<V> extends Serializable {
        double apply(long vid, V attr);
    }

    /** Wrapping sum of a 64-bit hash per vertex. */
    static <V> long hashSum(RDD<Tuple2<Object, V>> vertices, VertexToLong<V> f) {
        return vertices.toJavaRDD()
                .map(t -> f.apply((Long) t._1(), t._2()))
                .fold(0L, Long::sum);
    }

    /** Order-independent floating sum of a value per vertex. */
    static <V> double sum(RDD<Tuple2<Object, V>> vertices, VertexToDouble<V> f) {
        JavaRDD<Tuple2<Integer, Double>> partial = vertices.toJavaRDD().mapPartitionsWithIndex((index, it) -> {
            Kahan k = new Kahan();
            while (it.hasNext()) {
                Tuple2<Object, V> t = it.next();
                k.add(f.apply((Long) t._1(), t._2()));
            }
            return Collections.singletonList(new Tuple2<>(index, k.value())).iterator();
        }, false);
        List<Tuple2<Integer, Double>> sums = new java.util.ArrayList<>(partial.collect());
        sums.sort(Comparator.comparing(Tuple2::_1));
        Kahan total = new Kahan();
        for (Tuple2<Integer, Double> s : sums) {
            total.add(s._2());
        }
        return total.value();
    }

    /** A per-vertex weight in [1, 2), so that a value moved to another vertex changes the sum. */
    static double weight(long vid) {
        return 1.0 + Generators.unit(Generators.mix64(vid));
    }

    /** Sum of |w_i| * (1 + i / n): a positive, position-sensitive digest of a model vector. */
    static double vectorDigest(double[] w) {
        Kahan k = new Kahan();
        for (int i = 0; i < w.length; i++) {
            k.add(Math.abs(w[i]) * (1.0 + (double) i / w.length));
        }
        return k.value();
    }

    /**
     * Sum of w_i * (1 + i / n), signs kept: a flipped sign or two swapped elements change it,
     * which a sum of absolute values would not show.
     */
    static double signedDigest(double[] w) {
        Kahan k = new Kahan();
        for (int i = 0; i < w.length; i++) {
            k.add(w[i] * (1.0 + (double) i / w.length));
        }
        return k.value();
    }

    /** Compensated summation. */
    static final class Kahan {
        private double sum;
        private double c;

        void add(double x) {
            double y = x - c;
            double t = sum + y;
            c = (t - sum) - y;
            sum = t;
        }

        double value() {
            return sum;
        }
    }

    /** A 64-bit hash of a row's values, in field order (longs, ints and strings). */
    static long rowHash(Row row) {
        long h = row.length();
        for (int i = 0; i < row.length(); i++) {
            Object v = row.get(i);
            long field;
            if (v == null) {
                field = 0x6E756C6CL;
            } else if (v instanceof Number n) {
                field = n.longValue();
            } else {
                field = 0;
                for (char c : v.toString().toCharArray()) {
                    field = Generators.mix64(field * 31 + c);
                }
            }
            h = Generators.mix64(h * 31 + field);
        }
        return h;
    }
}
