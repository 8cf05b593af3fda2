package org.teraheap.bench;

import java.util.List;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Spark SQL workloads. RDD-RL, the papers' (SparkBench's RDD relation): an RDD of records is
 * cached at the chosen storage level, as the RDD API caches it (a row object and an object per
 * field), and SQL queries over a DataFrame made from that RDD read it again in every round: a
 * filtered count, a grouped aggregation, a join with a small dimension table, and a top-N. The
 * columnar variant runs the same queries over the DataFrame itself cached at that level, which
 * Spark SQL keeps as compressed column batches (byte arrays): what a SQL user would cache. All
 * values are integers, so every result, and the checksum over them, is exact.
 */
final class SqlWorkloads {

    private static final StructType RECORD = new StructType()
            .add("key", DataTypes.LongType, false)
            .add("category", DataTypes.IntegerType, false)
            .add("day", DataTypes.IntegerType, false)
            .add("amount", DataTypes.LongType, false)
            .add("name", DataTypes.StringType, false);
    private static final StructType CATEGORY = new StructType()
            .add("id", DataTypes.IntegerType, false)
            .add("region", DataTypes.IntegerType, false)
            .add("rate", DataTypes.LongType, false);

    private SqlWorkloads() {
    }

    /** The queries of round {@code r}; each round selects other days and keys. */
    private static List<String> queries(int r) {
        int from = (r * 37) % Generators.DAYS;
        return List.of(
                "SELECT COUNT(*), SUM(amount) FROM records WHERE day BETWEEN " + from + " AND "
                        + (from + Generators.DAYS / 4),
                "SELECT category, COUNT(*), SUM(amount), MAX(amount), MIN(name) FROM records"
                        + " GROUP BY category ORDER BY category",
                "SELECT c.region, COUNT(*), SUM(r.amount * c.rate) FROM records r JOIN categories c"
                        + " ON r.category = c.id WHERE r.key % 3 <> " + (r % 3)
                        + " GROUP BY c.region ORDER BY c.region",
                "SELECT key, name, amount FROM records WHERE key % 101 = " + (r % 101)
                        + " ORDER BY amount DESC, key LIMIT 20");
    }

    /** RDD-RL: the RDD of records is what is cached. */
    static SparkBench.Outcome rddRelation(JavaSparkContext jsc, SparkBench.Params p) {
        return relationalQueries(jsc, p, false);
    }

    /** The same queries over Spark SQL's own cache of the table: column batches of bytes. */
    static SparkBench.Outcome columnarRelation(JavaSparkContext jsc, SparkBench.Params p) {
        return relationalQueries(jsc, p, true);
    }

    private static SparkBench.Outcome relationalQueries(JavaSparkContext jsc, SparkBench.Params p,
                                                        boolean columnar) {
        SparkSession spark = SparkSession.builder().config(jsc.getConf()).getOrCreate();
        JavaRDD<Row> records = Generators.records(jsc, Generators.scaled(Generators.RECORDS, p.scale()),
                p.partitions());
        Dataset<Row> table;
        if (columnar) {
            table = spark.createDataFrame(records, RECORD).persist(p.level());
            table.count();
        } else {
            records.persist(p.level()).count();
            table = spark.createDataFrame(records, RECORD);
        }
        table.createOrReplaceTempView("records");
        spark.createDataFrame(Generators.categories(), CATEGORY).createOrReplaceTempView("categories");

        long checksum = 0;
        for (int r = 0; r < p.iterations(); r++) {
            for (String query : queries(r)) {
                Dataset<Row> result = spark.sql(query);
                long position = 0;
                for (Row row : result.collectAsList()) {
                    checksum += Generators.mix64(Checksums.rowHash(row) + ++position * 0x9E3779B97F4A7C15L);
                }
            }
        }
        return SparkBench.Outcome.exact(checksum, p.iterations());
    }
}
