package io.tributary.compat.spark;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.StructType;

/**
 * The aggregate functions of a streaming aggregation ({@code golden/aggregate-functions/}): each line of {@code queries.txt}
 * is run with {@code spark.sql} over a stream {@code source} ({@code id INT, user STRING, amt DOUBLE, ts TIMESTAMP}, a
 * 5-minute watermark on {@code ts}), analysed, then started in append mode (a {@code noop} sink, an empty folder,
 * {@code availableNow}), as Spark checks a streaming query's operations only when it starts; {@code spark.tsv} gets
 * {@code QUERY<TAB>SCHEMA}, the result's columns as Spark's DDL, or {@code QUERY<TAB>!CONDITION<TAB>MESSAGE} (the first line
 * of Spark's message) when Spark refuses the query.
 *
 * <p>Usage: {@code SparkAggregateFunctions GOLDEN_DIR aggregate-functions}
 */
public final class SparkAggregateFunctions {
    private static final String SCHEMA = "id INT, user STRING, amt DOUBLE, ts TIMESTAMP";

    private SparkAggregateFunctions() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEach(args, "tributary-golden-aggregate-functions", SparkAggregateFunctions::run);
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        Path in = Files.createTempDirectory("aggregate-functions");
        spark.readStream().schema(StructType.fromDDL(SCHEMA)).json(in.toString()).withWatermark("ts", "5 minutes")
                .createOrReplaceTempView("source");
        List<String> out = new ArrayList<>();
        int n = 0;
        for (String query : Files.readAllLines(dir.resolve("queries.txt"), StandardCharsets.UTF_8)) {
            if (query.isBlank() || query.startsWith("#")) {
                continue;
            }
            String result;
            try {
                Dataset<Row> rows = spark.sql(query);
                result = rows.schema().toDDL();
                StreamingQuery q = rows.writeStream().format("noop").outputMode("append").trigger(Trigger.AvailableNow())
                        .option("checkpointLocation", Files.createTempDirectory(in, "ck" + n++).toString()).start();
                q.awaitTermination();
            } catch (Exception e) {
                String condition = e.getClass().getSimpleName();
                for (Throwable t = e; t != null; t = t.getCause()) {
                    if (t instanceof SparkThrowable st && st.getCondition() != null) {
                        condition = st.getCondition();
                        break;
                    }
                }
                result = "!" + condition + "\t" + String.valueOf(e.getMessage()).lines().findFirst().orElse("").replace("\t", " ");
            }
            out.add(query + "\t" + result);
        }
        Files.write(dir.resolve("spark.tsv"), out, StandardCharsets.UTF_8);
        System.out.println(dir.getFileName() + ": " + out.size() + " queries");
    }
}
