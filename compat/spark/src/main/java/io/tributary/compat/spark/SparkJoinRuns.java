package io.tributary.compat.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's stream-static joins over several runs, the Delta table changing between them, for {@code golden/joins/runs/}.
 * {@code case.json} gives the stream's and the table's schemas, the runs (each a file appended to the Delta table, then a
 * file of the stream's rows) and the queries. Before each run the run's table file is appended to the table (a new version)
 * and its rows' file is copied into the input folder; then each query
 * <pre>
 * spark.readStream.schema(SCHEMA).json(in).alias("s")
 *   .join(spark.read.format("delta").load(table).alias("u"), expr(ON), TYPE).selectExpr(SELECT...)
 *   .writeStream.format("delta").outputMode("append").trigger(Trigger.AvailableNow())
 * </pre>
 * runs once with its own checkpoint (the queries side by side). {@code after-runN.txt} gets each query's table after the run, a row a line as
 * {@code QUERY|value|value...}, sorted.
 *
 * <p>Usage: {@code SparkJoinRuns GOLDEN_JOINS_DIR runs}
 */
public final class SparkJoinRuns {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SparkJoinRuns() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEachWithDelta(args, "tributary-golden-join-runs", SparkJoinRuns::run);
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        JsonNode spec = JSON.readTree(dir.resolve("case.json").toFile());
        StructType schema = StructType.fromDDL(spec.get("schema").asText());
        StructType tableSchema = StructType.fromDDL(spec.get("tableSchema").asText());
        Path work = Files.createTempDirectory("golden-join-runs-");
        Path in = Files.createDirectories(work.resolve("in"));
        String table = work.resolve("table").toString();
        long mtime = 1_700_000_000_000L;
        int run = 0;
        for (JsonNode files : spec.get("runs")) {
            run++;
            spark.read().schema(tableSchema).json(dir.resolve(files.get(0).asText()).toString())
                    .write().format("delta").mode("append").save(table);
            Path copy = Files.copy(dir.resolve(files.get(1).asText()), in.resolve(files.get(1).asText()),
                    StandardCopyOption.REPLACE_EXISTING);
            copy.toFile().setLastModified(mtime += 1000);
            List<String> lines = new ArrayList<>();
            lines.add("# after run " + run + ": each query's table, QUERY|value|value...");
            List<StreamingQuery> started = new ArrayList<>();
            for (JsonNode q : spec.get("cases")) { // the queries run side by side: each its own checkpoint and table
                List<String> items = new ArrayList<>();
                q.get("select").forEach(i -> items.add(i.asText()));
                Dataset<Row> rows = spark.readStream().schema(schema).json(in.toString()).alias("s")
                        .join(spark.read().format("delta").load(table).alias("u"), functions.expr(q.get("on").asText()),
                                q.get("type").asText())
                        .selectExpr(items.toArray(String[]::new));
                String name = q.get("name").asText();
                started.add(rows.writeStream().format("delta").outputMode("append")
                        .option("checkpointLocation", work.resolve("ck-" + name).toString())
                        .trigger(Trigger.AvailableNow()).start(work.resolve("out-" + name).toString()));
            }
            for (StreamingQuery query : started) {
                query.awaitTermination();
            }
            for (JsonNode q : spec.get("cases")) {
                String name = q.get("name").asText();
                String out = work.resolve("out-" + name).toString();
                List<String> result = new ArrayList<>();
                if (Files.exists(Path.of(out, "_delta_log"))) {
                    for (Row r : spark.read().format("delta").load(out).collectAsList()) {
                        StringBuilder s = new StringBuilder(name);
                        for (int i = 0; i < r.length(); i++) {
                            s.append('|').append(r.get(i));
                        }
                        result.add(s.toString());
                    }
                }
                result.sort(null);
                lines.addAll(result);
            }
            Files.write(dir.resolve("after-run" + run + ".txt"), lines);
            System.out.println("SparkJoinRuns run " + run + ":\n  " + String.join("\n  ", lines));
        }
    }
}
