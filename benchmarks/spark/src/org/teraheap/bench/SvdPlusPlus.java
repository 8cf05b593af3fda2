package org.teraheap.bench;

import java.io.Serializable;
import java.util.SplittableRandom;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.graphx.Edge;
import org.apache.spark.graphx.EdgeContext;
import org.apache.spark.graphx.Graph;
import org.apache.spark.graphx.TripletFields;
import org.apache.spark.graphx.VertexRDD;
import org.apache.spark.storage.StorageLevel;

import scala.Option;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction1;
import scala.runtime.AbstractFunction2;
import scala.runtime.AbstractFunction3;
import scala.runtime.BoxedUnit;

/**
 * Koren's SVD++ (KDD 2008) trained by gradient descent on a GraphX graph of users and items,
 * the algorithm of GraphX's SVDPlusPlus, written so that every graph it builds is cached at the
 * caller's storage level. GraphX's own version builds its graphs at MEMORY_ONLY whatever the
 * caller wants, so a MEMORY_AND_DISK configuration would drop and recompute them instead of
 * serializing and spilling them, and its cache would not be what the configuration says.
 *
 * <p>The model predicts user u's rating of item i as
 * mu + b_u + b_i + q_i . (p_u + |N(u)|^-1/2 sum_{j in N(u)} y_j), with mu the mean rating,
 * N(u) the items u rated, and the prediction clamped to the rating scale. Each iteration first
 * gives every user its implicit-feedback vector (p_u plus the scaled sum of its items' y), then
 * sends every rating's gradient to its user (p, b) and its item (q, y, b) and applies the summed
 * steps, as GraphX's version does.
 */
final class SvdPlusPlus {

    /** The learning parameters of the GraphX examples. */
    static final int RANK = 10;
    private static final double MIN_RATING = 1.0;
    private static final double MAX_RATING = 5.0;
    private static final double BIAS_STEP = 0.007;    // gamma1
    private static final double FACTOR_STEP = 0.007;  // gamma2
    private static final double BIAS_DECAY = 0.005;   // gamma6
    private static final double FACTOR_DECAY = 0.015; // gamma7
    private static final long INIT_SEED = 42;

    /**
     * A vertex's parameters. Users: factor = p_u, implicit = p_u + |N(u)|^-1/2 sum y_j once an
     * iteration's first step has run. Items: factor = q_i, implicit = y_i. norm = |N|^-1/2.
     */
    static final class Params implements Serializable {
        private static final long serialVersionUID = 1L;
        final double[] factor;
        final double[] implicit;
        final double bias;
        final double norm;

        Params(double[] factor, double[] implicit, double bias, double norm) {
            this.factor = factor;
            this.implicit = implicit;
            this.bias = bias;
            this.norm = norm;
        }
    }

    /** The summed steps for one vertex: factor, implicit (items only, else null), bias. */
    static final class Step implements Serializable {
        private static final long serialVersionUID = 1L;
        final double[] factor;
        final double[] implicit;
        final double bias;

        Step(double[] factor, double[] implicit, double bias) {
            this.factor = factor;
            this.implicit = implicit;
            this.bias = bias;
        }
    }

    private static final ClassTag<Params> PARAMS = ClassTag$.MODULE$.apply(Params.class);
    private static final ClassTag<Step> STEP = ClassTag$.MODULE$.apply(Step.class);
    private static final ClassTag<double[]> VECTOR = ClassTag$.MODULE$.apply(double[].class);
    private static final ClassTag<long[]> COUNT_SUM = ClassTag$.MODULE$.apply(long[].class);
    private static final ClassTag<Object> RATING = ClassTag$.MODULE$.Double();

    private SvdPlusPlus() {
    }

    /** A trained model: the graph of parameters, and the mean rating it predicts around. */
    record Model(Graph<Params, Object> graph, double mean) {
        /** The root-mean-square error of the model's predictions of its own training ratings. */
        double trainingError() {
            final double mu = mean;
            double[] sum = graph.triplets().toJavaRDD()
                    .map(t -> {
                        double err = (Double) t.attr() - predict(mu, t.srcAttr(), t.dstAttr());
                        return new double[] {err * err, 1};
                    })
                    .reduce((a, b) -> new double[] {a[0] + b[0], a[1] + b[1]});
            return Math.sqrt(sum[0] / sum[1]);
        }
    }

    /** Trains `iterations` rounds on the (user, item, rating) edges. */
    static Model train(JavaRDD<Edge<Object>> ratings, int iterations, StorageLevel level) {
        ratings.persist(level);
        double[] total = ratings.map(e -> new double[] {(Double) e.attr(), 1})
                .reduce((a, b) -> new double[] {a[0] + b[0], a[1] + b[1]});
        final double mean = total[0] / total[1];

        Graph<Params, Object> g = Graph.fromEdges(ratings.rdd(), null, level, level, PARAMS, RATING);
        // Every vertex's rating count and sum (as raw long bits, to keep one array type).
        VertexRDD<long[]> counts = g.aggregateMessages(new SendRating(), new AddCountSum(),
                TripletFields.EdgeOnly, COUNT_SUM);
        // sameType() tells outerJoinVertices that the vertex type stays Params, as a Scala
        // caller's implicit does: GraphX then ships only the changed vertices to the edges.
        g = replace(g, g.outerJoinVertices(counts, new InitParams(mean), COUNT_SUM, PARAMS, ScalaLine.sameType()));
        ratings.unpersist(false);

        for (int i = 0; i < iterations; i++) {
            g = withUserImplicit(g);
            VertexRDD<Step> steps = g.aggregateMessages(new SendGradient(mean), new AddSteps(),
                    TripletFields.All, STEP);
            g = replace(g, g.outerJoinVertices(steps, new ApplyStep(), STEP, PARAMS, ScalaLine.sameType()));
        }
        // The users' implicit vectors from their final factors: the model predicts with them.
        return new Model(withUserImplicit(g), mean);
    }

    /** Every user's implicit vector, p_u + |N(u)|^-1/2 sum y_j, from the current parameters. */
    private static Graph<Params, Object> withUserImplicit(Graph<Params, Object> g) {
        VertexRDD<double[]> itemSums = g.aggregateMessages(new SendItemImplicit(), new AddVectors(),
                TripletFields.Dst, VECTOR);
        return replace(g, g.outerJoinVertices(itemSums, new SetUserImplicit(), VECTOR, PARAMS, ScalaLine.sameType()));
    }

    /**
     * Caches and materializes the next graph, then drops the last. cache() persists a graph's
     * vertices and edges at the levels they inherit from fromEdges, not at MEMORY_ONLY.
     */
    private static Graph<Params, Object> replace(Graph<Params, Object> last, Graph<Params, Object> next) {
        next.cache();
        next.vertices().count();
        next.edges().count();
        last.unpersist(false);
        return next;
    }

    /** A vertex's starting factors: a pure function of its id, so every run trains the same model. */
    private static double[] randomVector(long vid, long stream) {
        SplittableRandom rng = new SplittableRandom(Generators.mix64(vid * 0x9E3779B97F4A7C15L + stream) ^ INIT_SEED);
        double[] v = new double[RANK];
        for (int k = 0; k < RANK; k++) {
            v[k] = rng.nextDouble() * 0.1;
        }
        return v;
    }

    /** User `user`'s predicted rating of item `item` (after the iteration's first step). */
    private static double predict(double mean, Params user, Params item) {
        double predicted = mean + user.bias + item.bias + dot(item.factor, user.implicit);
        return Math.min(MAX_RATING, Math.max(MIN_RATING, predicted));
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int k = 0; k < a.length; k++) {
            s += a[k] * b[k];
        }
        return s;
    }

    /** a * x + b * y, a new array. */
    private static double[] combine(double a, double[] x, double b, double[] y) {
        double[] out = new double[x.length];
        for (int k = 0; k < out.length; k++) {
            out[k] = a * x[k] + b * y[k];
        }
        return out;
    }

    private static double[] add(double[] x, double[] y) {
        return combine(1, x, 1, y);
    }

    // ---- the functions GraphX calls, as serializable classes ----

    private static final class SendRating
            extends AbstractFunction1<EdgeContext<Params, Object, long[]>, BoxedUnit> implements Serializable {
        @Override
        public BoxedUnit apply(EdgeContext<Params, Object, long[]> ctx) {
            long[] m = {1, Double.doubleToRawLongBits((Double) ctx.attr())};
            ctx.sendToSrc(m);
            ctx.sendToDst(m);
            return BoxedUnit.UNIT;
        }
    }

    private static final class AddCountSum extends AbstractFunction2<long[], long[], long[]> implements Serializable {
        @Override
        public long[] apply(long[] a, long[] b) {
            return new long[] {a[0] + b[0],
                Double.doubleToRawLongBits(Double.longBitsToDouble(a[1]) + Double.longBitsToDouble(b[1]))};
        }
    }

    private static final class InitParams
            extends AbstractFunction3<Object, Params, Option<long[]>, Params> implements Serializable {
        private final double mean;

        InitParams(double mean) {
            this.mean = mean;
        }

        @Override
        public Params apply(Object vid, Params unused, Option<long[]> countSum) {
            long id = (Long) vid;
            long n = countSum.get()[0];   // every vertex comes from an edge, so has ratings
            double sum = Double.longBitsToDouble(countSum.get()[1]);
            return new Params(randomVector(id, 1), randomVector(id, 2), sum / n - mean, 1.0 / Math.sqrt(n));
        }
    }

    private static final class SendItemImplicit
            extends AbstractFunction1<EdgeContext<Params, Object, double[]>, BoxedUnit> implements Serializable {
        @Override
        public BoxedUnit apply(EdgeContext<Params, Object, double[]> ctx) {
            ctx.sendToSrc(ctx.dstAttr().implicit);
            return BoxedUnit.UNIT;
        }
    }

    private static final class AddVectors extends AbstractFunction2<double[], double[], double[]> implements Serializable {
        @Override
        public double[] apply(double[] a, double[] b) {
            return add(a, b);
        }
    }

    private static final class SetUserImplicit
            extends AbstractFunction3<Object, Params, Option<double[]>, Params> implements Serializable {
        @Override
        public Params apply(Object vid, Params v, Option<double[]> itemSum) {
            if (itemSum.isEmpty()) {
                return v;   // an item
            }
            return new Params(v.factor, combine(1, v.factor, v.norm, itemSum.get()), v.bias, v.norm);
        }
    }

    private static final class SendGradient
            extends AbstractFunction1<EdgeContext<Params, Object, Step>, BoxedUnit> implements Serializable {
        private final double mean;

        SendGradient(double mean) {
            this.mean = mean;
        }

        @Override
        public BoxedUnit apply(EdgeContext<Params, Object, Step> ctx) {
            Params user = ctx.srcAttr();
            Params item = ctx.dstAttr();
            double err = (Double) ctx.attr() - predict(mean, user, item);
            double[] userFactor = combine(FACTOR_STEP * err, item.factor, -FACTOR_STEP * FACTOR_DECAY, user.factor);
            double[] itemFactor = combine(FACTOR_STEP * err, user.implicit, -FACTOR_STEP * FACTOR_DECAY, item.factor);
            double[] itemImplicit = combine(FACTOR_STEP * err * user.norm, item.factor,
                    -FACTOR_STEP * FACTOR_DECAY, item.implicit);
            ctx.sendToSrc(new Step(userFactor, null, BIAS_STEP * (err - BIAS_DECAY * user.bias)));
            ctx.sendToDst(new Step(itemFactor, itemImplicit, BIAS_STEP * (err - BIAS_DECAY * item.bias)));
            return BoxedUnit.UNIT;
        }
    }

    private static final class AddSteps extends AbstractFunction2<Step, Step, Step> implements Serializable {
        @Override
        public Step apply(Step a, Step b) {
            return new Step(add(a.factor, b.factor), a.implicit == null ? null : add(a.implicit, b.implicit),
                    a.bias + b.bias);
        }
    }

    private static final class ApplyStep
            extends AbstractFunction3<Object, Params, Option<Step>, Params> implements Serializable {
        @Override
        public Params apply(Object vid, Params v, Option<Step> step) {
            Step s = step.get();   // every vertex has a rating, so a step
            // The sum of a vertex's gradients grows with its ratings: applied whole, as GraphX's
            // version does, it overshoots on popular items and the model diverges (to 1e15 in 8
            // iterations here). Scaled by |N|^-1/2 it stays stable on skewed data.
            double k = v.norm;
            return new Params(combine(1, v.factor, k, s.factor),
                    s.implicit == null ? v.implicit : combine(1, v.implicit, k, s.implicit),
                    v.bias + k * s.bias, v.norm);
        }
    }
}
