package org.teraheap.hybridtest;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.length;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sum;
import static org.teraheap.hybridtest.HybridCheck.check;

import java.util.Map;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.teraheap.hybrid.HybridStore;

/**
 * A DataFrame cached with the file tier, as a Spark SQL user caches one: Spark stores it as
 * columnar batches, and its aggregations take execution memory beside them. Each of three
 * aggregations gives the figures computed without Spark; blocks moved into the file and were
 * read back; unpersist empties the file. Prints "PASS what" or "FAIL what"; exits 1 on a failure.
 *
 * <pre>DataFrameCheck LEVEL ROWS</pre>
 */
public final class DataFrameCheck {
    private DataFrameCheck() {
    }

    public static void main(String[] args) {
        StorageLevel level = StorageLevel.fromString(args[0]);
        long rows = Long.parseLong(args[1]);
        long[] expected = expected(rows);
        SparkSession spark = SparkSession.builder().master("local[2]").appName("hybrid-dataframe-check")
            .config("spark.ui.enabled", "false").getOrCreate();
        try {
            Dataset<Row> df = spark.range(0, rows, 1, 24)
                .withColumn("k", col("id").mod(97))
                .withColumn("name", concat(lit("user-"), col("id").multiply(7919).mod(100003).cast("string")))
                .withColumn("v", col("id").multiply(31).mod(1000));
            df.persist(level);
            for (int round = 0; round < 3; round++) {
                Row r = df.groupBy("k").agg(sum("v").as("s"), sum(length(col("name"))).as("l"), count(lit(1)).as("n"))
                    .agg(sum("s"), sum("l"), sum("n")).first();
                long[] got = {r.getLong(0), r.getLong(1), r.getLong(2)};
                check(got[0] == expected[0] && got[1] == expected[1] && got[2] == expected[2],
                      "round " + round + " at " + args[0] + ": sums of v, of name lengths and rows " + got[0] + " "
                      + got[1] + " " + got[2] + " equal " + expected[0] + " " + expected[1] + " " + expected[2]);
            }
            Map<String, Long> f = HybridStore.figures();
            System.out.println("figures while cached: " + f);
            check(f.get("file_moved_blocks") > 0 && f.get("file_reads") > 0, "the DataFrame's blocks moved into the file ("
                  + f.get("file_moved_blocks") + ") and were read back from it (" + f.get("file_reads") + ")");
            df.unpersist(true);
            f = HybridStore.figures();
            check(f.get("file_blocks") == 0 && f.get("blocks") == 0, "unpersist empties the file and DRAM: " + f);
        } finally {
            spark.stop();
        }
        System.exit(HybridCheck.failed() ? 1 : 0);
    }

    /** The aggregations' results, computed without Spark. */
    private static long[] expected(long rows) {
        long v = 0;
        long lengths = 0;
        for (long id = 0; id < rows; id++) {
            v += id * 31 % 1000;
            lengths += ("user-" + (id * 7919 % 100003)).length();
        }
        return new long[] {v, lengths, rows};
    }
}
