package org.teraheap.bench;

import java.util.Arrays;
import java.util.function.DoubleToLongFunction;
import java.util.stream.Collectors;

import org.apache.spark.api.java.JavaSparkContext;

/**
 * The workloads, by command-line name, with their default iteration counts and the estimate of
 * their cached data size that picks the default number of partitions.
 */
enum Workload {
    PR("pr", 10, Generators::graphBytes, GraphWorkloads::pageRank),
    CC("cc", 10, Generators::graphBytes, GraphWorkloads::connectedComponents),
    SSSP("sssp", 1, Generators::graphBytes, GraphWorkloads::shortestPaths),
    SVDPP("svdpp", 2, Generators::ratingBytes, GraphWorkloads::svdPlusPlus),
    TC("tc", 1, Generators::triangleGraphBytes, GraphWorkloads::triangleCount),
    LINR("linr", 20, Generators::pointBytes, MlWorkloads::linearRegression),
    LOGR("logr", 20, Generators::pointBytes, MlWorkloads::logisticRegression),
    SVM("svm", 20, Generators::pointBytes, MlWorkloads::svm),
    NB("nb", 1, Generators::pointBytes, MlWorkloads::naiveBayes),
    RL("rl", 5, Generators::recordBytes, SqlWorkloads::rddRelation),
    SQL("sql", 5, Generators::recordBytes, SqlWorkloads::columnarRelation),
    PREGEL("pregel", 1, Generators::graphBytes, PregelOperation::run),
    PHASES("phases", 3, Generators::pointBytes, PhasedWorkload::run);

    /** Runs one workload; everything it does counts towards the reported time. */
    interface Runner {
        SparkBench.Outcome run(JavaSparkContext jsc, SparkBench.Params params) throws Exception;
    }

    private final String id;
    private final int defaultIterations;
    private final DoubleToLongFunction bytes;
    private final Runner runner;

    Workload(String id, int defaultIterations, DoubleToLongFunction bytes, Runner runner) {
        this.id = id;
        this.defaultIterations = defaultIterations;
        this.bytes = bytes;
        this.runner = runner;
    }

    String id() {
        return id;
    }

    int defaultIterations() {
        return defaultIterations;
    }

    long estimatedBytes(double scale) {
        return bytes.applyAsLong(scale);
    }

    SparkBench.Outcome run(JavaSparkContext jsc, SparkBench.Params params) throws Exception {
        return runner.run(jsc, params);
    }

    static Workload byId(String id) {
        for (Workload w : values()) {
            if (w.id.equals(id)) {
                return w;
            }
        }
        return null;
    }

    static String names() {
        return Arrays.stream(values()).map(Workload::id).collect(Collectors.joining(", "));
    }
}
