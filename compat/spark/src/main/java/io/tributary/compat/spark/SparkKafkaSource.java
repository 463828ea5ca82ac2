package io.tributary.compat.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * Spark's own Kafka source ({@code spark-sql-kafka-0-10}) reading the topics of a {@code golden/kafka-source} case,
 * which {@code KafkaTopics.java golden} has written on a broker ({@code -Dkafka.bootstrap=HOST:PORT}), with
 * {@code Trigger.AvailableNow()} into Delta tables; the tables, one row a line, sorted, go to the case folder:
 * <ul>
 * <li>{@code spark-rows.txt}: {@code readStream.format("kafka").option("subscribe", TOPICS)
 * .option("startingOffsets", "earliest").option("includeHeaders", "true").option("kafka.isolation.level",
 * "read_committed")}, then {@code select(from_json(CAST(value AS STRING), SCHEMA).as("v"), key, topic, partition,
 * offset, timestamp, timestampType, headers).select("v.*", ...)}: {@code id|user|amt|ts|key|topic|partition|offset|
 * timestamp|timestampType|headers}, key and header values as UTF-8 text, headers as {@code [k=v,...]};</li>
 * <li>{@code spark-rows-uncommitted.txt}: the same without {@code kafka.isolation.level} (the Kafka consumer's
 * default, read_uncommitted);</li>
 * <li>{@code spark-window.txt}: the values {@code .withWatermark("ts", WATERMARK).groupBy(window(col("ts"), WINDOW),
 * col("user")).agg(sum("amt").as("t"))}, append mode: {@code start|end|user|t}.</li>
 * </ul>
 * A case whose {@code case.json} gives {@code maxOffsetsPerTrigger} reads with that option; one that gives {@code tables}
 * records only those: {@code window} (with the limit) and {@code window-unlimited} (without it).
 * Usage: {@code SparkKafkaSource GOLDEN_KAFKA_SOURCE_DIR [CASE...]}.
 */
public final class SparkKafkaSource {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SparkKafkaSource() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEachWithDelta(args, "tributary-golden-kafka-source", SparkKafkaSource::run);
    }

    private static Dataset<Row> values(SparkSession spark, JsonNode c, boolean readCommitted) {
        return values(spark, c, readCommitted, true);
    }

    private static Dataset<Row> values(SparkSession spark, JsonNode c, boolean readCommitted, boolean limited) {
        var reader = spark.readStream().format("kafka").option("kafka.bootstrap.servers", System.getProperty("kafka.bootstrap"))
                .option("subscribe", c.get("topics").asText()).option("startingOffsets", "earliest").option("includeHeaders", "true");
        if (limited && c.has("maxOffsetsPerTrigger")) {
            reader = reader.option("maxOffsetsPerTrigger", c.get("maxOffsetsPerTrigger").asLong());
        }
        if (readCommitted) {
            reader = reader.option("kafka.isolation.level", "read_committed");
        }
        return reader.load().select(functions.from_json(functions.col("value").cast("string"),
                        StructType.fromDDL(c.get("schema").asText())).as("v"), functions.col("key"), functions.col("topic"),
                functions.col("partition"), functions.col("offset"), functions.col("timestamp"), functions.col("timestampType"),
                functions.col("headers"))
                .select("v.*", "key", "topic", "partition", "offset", "timestamp", "timestampType", "headers");
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        JsonNode c = JSON.readTree(dir.resolve("case.json").toFile());
        Path work = Files.createTempDirectory("golden-kafka-source-");
        if (c.has("tables")) { // only these: window (with maxOffsetsPerTrigger when the case gives it), window-unlimited
            for (JsonNode t : c.get("tables")) {
                boolean limited = t.asText().equals("window");
                write(dir.resolve("spark-" + t.asText() + ".txt"), "start|end|user|t",
                        rows(spark, table(windows(spark, c, limited), work.resolve(t.asText()), "append"), true));
            }
            return;
        }
        write(dir.resolve("spark-rows.txt"), "id|user|amt|ts|key|topic|partition|offset|timestamp|timestampType|headers",
                rows(spark, table(values(spark, c, true), work.resolve("rows"), "append"), false));
        write(dir.resolve("spark-rows-uncommitted.txt"), "id|user|amt|ts|key|topic|partition|offset|timestamp|timestampType|headers"
                + " (read_uncommitted)", rows(spark, table(values(spark, c, false), work.resolve("uncommitted"), "append"), false));
        write(dir.resolve("spark-window.txt"), "start|end|user|t",
                rows(spark, table(windows(spark, c, true), work.resolve("window"), "append"), true));
    }

    private static Dataset<Row> windows(SparkSession spark, JsonNode c, boolean limited) {
        return values(spark, c, true, limited).withWatermark("ts", c.get("watermark").asText())
                .groupBy(functions.window(functions.col("ts"), c.get("window").asText()), functions.col("user"))
                .agg(functions.sum("amt").as("t"));
    }

    private static String table(Dataset<Row> rows, Path work, String mode) throws Exception {
        String out = work.resolve("out").toString();
        StreamingQuery q = rows.writeStream().format("delta").outputMode(mode).option("checkpointLocation", work.resolve("ck").toString())
                .trigger(Trigger.AvailableNow()).start(out);
        q.awaitTermination();
        return out;
    }

    private static List<String> rows(SparkSession spark, String table, boolean window) {
        List<String> lines = new ArrayList<>();
        if (!Files.exists(Path.of(table, "_delta_log"))) {
            return lines;
        }
        for (Row r : spark.read().format("delta").load(table).collectAsList()) {
            if (window) {
                Row w = r.getStruct(0);
                lines.add(ts(w.get(0)) + "|" + ts(w.get(1)) + "|" + r.get(1) + "|" + r.get(2));
            } else {
                StringBuilder s = new StringBuilder();
                for (int i = 0; i < r.size(); i++) {
                    s.append(i == 0 ? "" : "|").append(text(r.get(i)));
                }
                lines.add(s.toString());
            }
        }
        lines.sort(null);
        return lines;
    }

    private static String text(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof byte[] b) {
            return new String(b, StandardCharsets.UTF_8);
        }
        if (v instanceof java.sql.Timestamp) {
            return ts(v);
        }
        if (v instanceof scala.collection.Seq<?> seq) {
            StringBuilder s = new StringBuilder("[");
            for (int i = 0; i < seq.size(); i++) {
                Row h = (Row) seq.apply(i);
                s.append(i == 0 ? "" : ",").append(h.get(0)).append('=').append(text(h.get(1)));
            }
            return s.append(']').toString();
        }
        return v.toString();
    }

    /** {@code 2026-01-01 10:00:00}, or null. */
    private static String ts(Object t) {
        if (t == null) {
            return "null";
        }
        String s = t.toString(); // java.sql.Timestamp in the JVM's zone (UTC): 2026-01-01 10:00:00.0
        return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
    }

    private static void write(Path file, String header, List<String> lines) throws Exception {
        List<String> all = new ArrayList<>();
        all.add("# " + header);
        all.addAll(lines);
        Files.write(file, all);
        System.out.println("SparkKafkaSource " + file + ":\n  " + String.join("\n  ", all));
    }
}
