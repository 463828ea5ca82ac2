package io.tributary.compat.spark;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's side of kafka-bench.sh: a topic of JSON records into a Delta table as a Spark user writes it, {@code local[2]},
 * the Delta SQL extension and catalog, session time zone UTC, UI off:
 * <pre>
 * spark.readStream.format("kafka").option("kafka.bootstrap.servers", B).option("subscribe", TOPIC)
 *   .option("startingOffsets", "earliest").load()
 *   .select(from_json(col("value").cast("string"), "id INT, user STRING, amt DOUBLE, ts TIMESTAMP").as("v")).select("v.*")
 *   .writeStream.format("delta").option("checkpointLocation", WORK/ck).trigger(Trigger.AvailableNow()).start(WORK/out)
 * </pre>
 * It prints {@code SPARKKAFKABENCH rows_in_table=N wall_in_job_ms=...} last (SparkSession creation to the query's end;
 * the read-back count after it is not timed). Usage: {@code SparkKafkaBench BOOTSTRAP TOPIC WORK_DIR}.
 */
public final class SparkKafkaBench {
    private SparkKafkaBench() {
    }

    public static void main(String[] args) throws Exception {
        long t0 = System.nanoTime();
        SparkSession spark = SparkSession.builder().appName("tributary-kafka-bench").master("local[2]")
                .config("spark.ui.enabled", "false").config("spark.sql.session.timeZone", "UTC")
                .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
                .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog").getOrCreate();
        String out = args[2] + "/out";
        StreamingQuery q = spark.readStream().format("kafka").option("kafka.bootstrap.servers", args[0]).option("subscribe", args[1])
                .option("startingOffsets", "earliest").load()
                .select(functions.from_json(functions.col("value").cast("string"),
                        StructType.fromDDL("id INT, user STRING, amt DOUBLE, ts TIMESTAMP")).as("v")).select("v.*")
                .writeStream().format("delta").option("checkpointLocation", args[2] + "/ck").trigger(Trigger.AvailableNow()).start(out);
        q.awaitTermination();
        long wall = (System.nanoTime() - t0) / 1_000_000;
        long rows = spark.read().format("delta").load(out).count();
        System.out.println("SPARKKAFKABENCH rows_in_table=" + rows + " wall_in_job_ms=" + wall + " batches=" + q.recentProgress().length);
        spark.stop();
    }
}
