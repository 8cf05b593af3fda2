package org.teraheap.bench;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.mllib.classification.NaiveBayes;
import org.apache.spark.mllib.classification.NaiveBayesModel;
import org.apache.spark.mllib.classification.SVMModel;
import org.apache.spark.mllib.classification.SVMWithSGD;
import org.apache.spark.mllib.linalg.Vector;
import org.apache.spark.mllib.linalg.Vectors;
import org.apache.spark.mllib.optimization.Gradient;
import org.apache.spark.mllib.optimization.GradientDescent;
import org.apache.spark.mllib.optimization.LeastSquaresGradient;
import org.apache.spark.mllib.optimization.LogisticGradient;
import org.apache.spark.mllib.optimization.SimpleUpdater;
import org.apache.spark.mllib.optimization.SquaredL2Updater;
import org.apache.spark.mllib.optimization.Updater;
import org.apache.spark.mllib.regression.LabeledPoint;
import org.apache.spark.rdd.RDD;

import scala.Tuple2;

/**
 * The MLlib (RDD API) workloads. The input RDD of LabeledPoint is cached at the chosen storage
 * level and materialized; every gradient step (full batch: miniBatchFraction 1) then reads it.
 * Convergence tolerance 0 makes the number of steps exactly the requested iterations.
 * Checksum: a digest of the trained model's parameters.
 */
final class MlWorkloads {

    private MlWorkloads() {
    }

    private static JavaRDD<LabeledPoint> cachedPoints(JavaSparkContext jsc, SparkBench.Params p,
                                                      Generators.Labels labels) {
        JavaRDD<LabeledPoint> points = Generators
                .points(jsc, Generators.scaled(Generators.POINTS, p.scale()), labels, p.partitions())
                .persist(p.level());
        points.count();
        return points;
    }

    /**
     * The (label, features) pairs GradientDescent works on, mapped from the cached points on every
     * pass, as GeneralizedLinearAlgorithm.run does.
     */
    private static RDD<Tuple2<Object, Vector>> labelled(JavaRDD<LabeledPoint> points) {
        return points.map(lp -> new Tuple2<Object, Vector>(lp.label(), lp.features())).rdd();
    }

    /**
     * Linear regression by least squares with full-batch gradient descent. The
     * LinearRegressionWithSGD.train methods are gone in Spark 3 (and its constructor is
     * package-private in Scala), so MLlib's optimizer is called directly, as that class did.
     */
    static SparkBench.Outcome linearRegression(JavaSparkContext jsc, SparkBench.Params p) {
        return gradientDescent(jsc, p, Generators.Labels.LINEAR, new LeastSquaresGradient(),
                new SimpleUpdater(), 0.5, 0.0);
    }

    /** Logistic regression (binary), as LogisticRegressionWithSGD did: LogisticGradient + L2. */
    static SparkBench.Outcome logisticRegression(JavaSparkContext jsc, SparkBench.Params p) {
        return gradientDescent(jsc, p, Generators.Labels.LOGISTIC, new LogisticGradient(),
                new SquaredL2Updater(), 1.0, 0.01);
    }

    /** Full-batch gradient descent from zero weights with MLlib's optimizer. */
    private static SparkBench.Outcome gradientDescent(JavaSparkContext jsc, SparkBench.Params p,
                                                      Generators.Labels labels, Gradient gradient,
                                                      Updater updater, double step, double reg) {
        JavaRDD<LabeledPoint> points = cachedPoints(jsc, p, labels);
        Tuple2<Vector, double[]> fit = GradientDescent.runMiniBatchSGD(labelled(points), gradient,
                updater, step, p.iterations(), reg, 1.0, Vectors.zeros(Generators.FEATURES), 0.0);
        return weights(fit._1().toArray(), p);
    }

    /** Linear SVM, MLlib's SVMWithSGD with its optimizer set for a fixed number of full-batch steps. */
    static SparkBench.Outcome svm(JavaSparkContext jsc, SparkBench.Params p) {
        JavaRDD<LabeledPoint> points = cachedPoints(jsc, p, Generators.Labels.MARGIN);
        SVMWithSGD svm = new SVMWithSGD();
        svm.optimizer().setNumIterations(p.iterations()).setStepSize(1.0).setRegParam(0.01)
                .setMiniBatchFraction(1.0).setConvergenceTol(0.0);
        SVMModel model = svm.run(points.rdd());
        double[] w = model.weights().toArray();
        double[] withIntercept = java.util.Arrays.copyOf(w, w.length + 1);
        withIntercept[w.length] = model.intercept();
        return weights(withIntercept, p);
    }

    /**
     * Multinomial naive Bayes. Training is one aggregation over the cached points; --iterations
     * repeats it (default 1). A final prediction pass over the cached points measures accuracy.
     */
    static SparkBench.Outcome naiveBayes(JavaSparkContext jsc, SparkBench.Params p) {
        JavaRDD<LabeledPoint> points = cachedPoints(jsc, p, Generators.Labels.MULTINOMIAL);
        NaiveBayesModel model = null;
        for (int i = 0; i < p.iterations(); i++) {
            model = NaiveBayes.train(points.rdd(), 1.0, "multinomial");
        }
        NaiveBayesModel trained = model;
        long correct = points.filter(lp -> trained.predict(lp.features()) == lp.label()).count();
        System.err.printf("SparkBench: nb training accuracy %d/%d%n", correct,
                Generators.scaled(Generators.POINTS, p.scale()));

        Checksums.Kahan digest = new Checksums.Kahan();
        digest.add(Checksums.vectorDigest(trained.pi()));
        for (double[] row : trained.theta()) {
            digest.add(Checksums.vectorDigest(row));
        }
        return SparkBench.Outcome.approx(digest.value(), Checksums.FLOAT_TOLERANCE, p.iterations());
    }

    private static SparkBench.Outcome weights(double[] w, SparkBench.Params p) {
        return SparkBench.Outcome.approx(Checksums.vectorDigest(w), Checksums.FLOAT_TOLERANCE, p.iterations());
    }
}
