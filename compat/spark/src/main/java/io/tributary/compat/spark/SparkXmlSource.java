package io.tributary.compat.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.streaming.DataStreamReader;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Records what Spark 4.2's streaming XML source writes to a Delta table, for {@code golden/xml}: for each
 * {@code golden/xml/<case>/}, {@code spark.readStream.format("xml").options(O)} (with {@code case.json}'s {@code schema}
 * when it gives one, else the schema inferred with {@code spark.sql.streaming.schemaInference}) over {@code in/}, written
 * to a Delta table with an {@code availableNow} trigger; then
 * <ul>
 *   <li>{@code spark-schema.txt}: the table's columns as {@code name TYPE, ...} (Spark's SQL type names);</li>
 *   <li>{@code spark.jsonl}: the table's rows, sorted, as {@code golden/formats} writes them: {@code {"row": {...}}} by
 *   {@code to_json} of the columns other than {@code _corrupt_record} (nulls kept, six fraction digits), or
 *   {@code {"corrupt": "..."}} for a row whose {@code _corrupt_record} Spark filled.</li>
 * </ul>
 * A case whose {@code case.json} has {@code "refused": true} records instead {@code spark-error.txt}: {@code <condition>:
 * <first line of the message>} of Spark's refusal to read it (the innermost of Spark's errors).
 *
 * <p>Usage: {@code SparkXmlSource GOLDEN_XML_DIR [CASE...]}
 */
public final class SparkXmlSource {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CORRUPT = "_corrupt_record";

    private SparkXmlSource() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEachWithDelta(args, "tributary-golden-xml", SparkXmlSource::run);
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        JsonNode spec = JSON.readTree(dir.resolve("case.json").toFile());
        Map<String, String> options = new HashMap<>();
        spec.path("options").fields().forEachRemaining(e -> options.put(e.getKey(), e.getValue().asText()));
        spark.conf().set("spark.sql.streaming.schemaInference", "true");
        Path work = Files.createTempDirectory("golden-xml-");
        try {
            Path table = work.resolve("table");
            DataStreamReader reader = spec.hasNonNull("schema")
                    ? spark.readStream().format("xml").options(options).schema(spec.get("schema").asText())
                    : spark.readStream().format("xml").options(options);
            if (spec.path("refused").asBoolean(false)) {
                Files.writeString(dir.resolve("spark-error.txt"), error(() -> reader.load(dir.resolve("in").toString())
                        .writeStream().format("delta").option("checkpointLocation", work.resolve("cp").toString())
                        .trigger(Trigger.AvailableNow()).start(table.toString()).awaitTermination()) + "\n");
                return;
            }
            reader.load(dir.resolve("in").toString()).writeStream().format("delta")
                    .option("checkpointLocation", work.resolve("cp").toString()).trigger(Trigger.AvailableNow())
                    .start(table.toString()).awaitTermination();
            Dataset<Row> rows = spark.read().format("delta").load(table.toString());
            StructType schema = rows.schema();
            Files.writeString(dir.resolve("spark-schema.txt"), SparkInference.ddl(schema) + "\n");
            List<Column> data = new ArrayList<>();
            boolean corrupt = false;
            for (StructField f : schema.fields()) {
                if (f.name().equals(CORRUPT)) {
                    corrupt = true;
                } else {
                    data.add(functions.col("`" + f.name() + "`"));
                }
            }
            int count = SparkFormats.writeRows(rows, data.toArray(Column[]::new), corrupt, dir.resolve("spark.jsonl"));
            if (schema.getFieldIndex("v").isDefined() && schema.apply("v").dataType().sql().equals("VARIANT")) {
                List<String> variants = new ArrayList<>();
                for (Row r : rows.selectExpr("to_json(v)", "schema_of_variant(v)").collectAsList()) {
                    variants.add((r.isNullAt(0) ? "NULL" : r.getString(0)) + "\t" + (r.isNullAt(1) ? "NULL" : r.getString(1)));
                }
                Collections.sort(variants);
                Files.write(dir.resolve("spark-variant.tsv"), variants);
            }
            System.out.println(dir.getFileName() + ": " + SparkInference.ddl(schema) + "; " + count + " rows");
        } finally {
            SparkFixtures.deleteTree(work);
        }
    }

    private interface Action {
        void run() throws Exception;
    }

    /** {@code <condition>: <first line of the message>} of what {@code action} fails with, or {@code no error}. */
    private static String error(Action action) {
        try {
            action.run();
            return "no error";
        } catch (Exception e) { // Spark's AnalysisException is no RuntimeException
            Throwable t = e; // the innermost of Spark's errors: the reason a stream failed, not STREAM_FAILED and its query id
            for (Throwable c = e; c != null; c = c.getCause()) {
                if (c instanceof org.apache.spark.SparkThrowable) {
                    t = c;
                }
            }
            String condition = t instanceof org.apache.spark.SparkThrowable st ? st.getCondition() : t.getClass().getName();
            return condition + ": " + String.valueOf(t.getMessage()).lines().findFirst().orElse("");
        }
    }
}
