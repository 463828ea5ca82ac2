package io.tributary.compat.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Records what Spark 4.2's file sources make of a VARIANT field in the schema, for {@code golden/variant}; only the cases
 * of this program, so the rest of {@code golden/variant} (Spark's table, {@code spark.tsv}) is left as it is.
 *
 * <p>{@code SparkVariantSources DIR} reads:
 * <ul>
 *   <li>{@code DIR/json-source-cases.txt} (JSON lines) with {@link #JSON_SCHEMA} in the default PERMISSIVE mode, and records
 *   {@code DIR/json-source-cases.tsv} ({@link #JSON_QUERY} by id, NULL for null, tabs and line ends in
 *   {@code _corrupt_record} written {@code \t} and {@code \n}), then writes its well-formed rows ({@code _corrupt_record} null,
 *   the corrupt column left out) to a Delta table with Delta 4.4 and records the add action's {@code stats} as
 *   {@code DIR/json-source-stats.json};</li>
 *   <li>{@code DIR/csv-source-cases.csv} (no header) with {@link #CSV_SCHEMA}, and records {@code DIR/csv-source.tsv}
 *   ({@link #CSV_QUERY} by id, in the order of the file: Spark's CSV reader types a VARIANT value by the values before it
 *   in the file).</li>
 * </ul>
 *
 * <p>{@code SparkVariantSources kafka DIR} records only {@code DIR/kafka-source.tsv}: the lines of
 * {@code DIR/kafka-source-cases.txt} as a Kafka source's values, {@code from_json(value, }{@link #KAFKA_SCHEMA}{@code )} in
 * its default PERMISSIVE mode, then {@link #KAFKA_QUERY} by id (NULL for null); the value {@code from_json} cannot read is
 * in {@code _corrupt_record}; and {@code DIR/kafka-source-failing.tsv}: the same query over each value of
 * {@code DIR/kafka-source-failing.txt} alone, whose {@code v:a.b::int} Spark's ANSI cast fails on ({@code ERROR <condition>:
 * <first line of the message>}).
 *
 * <p>{@code SparkVariantSources debezium DIR} records only {@code DIR/debezium.tsv} and {@code DIR/debezium-failing.tsv}
 * ({@link #topicValues}).
 *
 * <p>{@code SparkVariantSources read TABLE DIR}: Spark reads a table Tributary wrote from {@code json-source-cases.txt}
 * (service's {@code VariantSourcePipelineTest} with {@code -Dtributary.variant.keep=FOLDER} leaves one in
 * {@code FOLDER/json-source-table}) and prints PASS when it gives the well-formed rows of {@code json-source-cases.tsv}.
 * {@code SparkVariantSources read-kafka TABLE DIR} does the same for a table Tributary wrote from the values of
 * {@code kafka-source-cases.txt} (service's {@code KafkaSourceVariantPipelineTest} leaves one in
 * {@code FOLDER/kafka-source-table}), against the well-formed rows of {@code kafka-source.tsv}.
 */
public final class SparkVariantSources {
    static final String JSON_SCHEMA = "id INT, payload VARIANT, s STRUCT<v: VARIANT, n: INT>, arr ARRAY<VARIANT>, "
            + "m MAP<STRING, VARIANT>, _corrupt_record STRING";
    static final String JSON_QUERY = "SELECT id, to_json(payload), schema_of_variant(payload), to_json(s), to_json(arr), to_json(m), "
            + "_corrupt_record FROM json_cases ORDER BY id";
    static final String KAFKA_SCHEMA = "id INT, v VARIANT, s STRUCT<v: VARIANT, n: INT>, _corrupt_record STRING";
    static final String KAFKA_QUERY = "SELECT r.id, to_json(r.v), schema_of_variant(r.v), to_json(r.s), r.v:a.b::int, r._corrupt_record"
            + " FROM (SELECT from_json(value, '" + KAFKA_SCHEMA + "') AS r FROM kafka_values) ORDER BY r.id";
    /** {@link #KAFKA_QUERY} over the table of the pipeline's {@code select: [id, v, s, "v:a.b::int AS b"]}. */
    static final String KAFKA_TABLE_QUERY = "SELECT id, to_json(v), schema_of_variant(v), to_json(s), b FROM kafka_table ORDER BY id";
    /** The Debezium events' envelope as a Spark job reads it from a topic's values: the JSON column {@code doc} a string. */
    static final String DEBEZIUM_SCHEMA = "before STRUCT<id: INT, doc: STRING>, after STRUCT<id: INT, doc: STRING>, op STRING, "
            + "source STRUCT<lsn: BIGINT>";
    /** What a Spark job makes of each change: the row of after (before for a delete), {@code parse_json} of its JSON column. */
    static final String DEBEZIUM_QUERY = "SELECT r.id, to_json(parse_json(r.doc)), schema_of_variant(parse_json(r.doc)), op, lsn FROM ("
            + "SELECT CASE WHEN e.op = 'd' THEN e.before ELSE e.after END AS r, e.op AS op, e.source.lsn AS lsn FROM ("
            + "SELECT from_json(value, '" + DEBEZIUM_SCHEMA + "') AS e FROM debezium_values)) ORDER BY r.id";
    static final String CSV_SCHEMA = "id INT, v VARIANT";
    static final String CSV_QUERY = "SELECT id, to_json(v), schema_of_variant(v) FROM csv_cases ORDER BY id";

    private SparkVariantSources() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 3 && args[0].equals("read")) {
            System.exit(read(Path.of(args[1]).toAbsolutePath(), Path.of(args[2]).toAbsolutePath().resolve("json-source-cases.tsv"),
                    JSON_QUERY.replace(", _corrupt_record", ""), "json_cases") ? 0 : 1);
        }
        if (args.length == 3 && args[0].equals("read-kafka")) {
            System.exit(read(Path.of(args[1]).toAbsolutePath(), Path.of(args[2]).toAbsolutePath().resolve("kafka-source.tsv"),
                    KAFKA_TABLE_QUERY, "kafka_table") ? 0 : 1);
        }
        if (args.length == 2 && (args[0].equals("kafka") || args[0].equals("debezium"))) {
            SparkSession spark = SparkFixtures.session("tributary-variant-" + args[0]);
            try {
                Path dir = Path.of(args[1]).toAbsolutePath();
                if (args[0].equals("kafka")) {
                    topicValues(spark, dir, "kafka-source", "kafka_values", KAFKA_QUERY);
                } else {
                    topicValues(spark, dir, "debezium", "debezium_values", DEBEZIUM_QUERY);
                }
            } finally {
                spark.stop();
            }
            return;
        }
        if (args.length != 1) {
            System.err.println("usage: SparkVariantSources DIR | kafka DIR | debezium DIR | read TABLE DIR");
            System.exit(2);
        }
        Path dir = Path.of(args[0]).toAbsolutePath();
        SparkSession spark = SparkFixtures.session("tributary-variant-sources");
        try {
            json(spark, dir);
            csv(spark, dir);
        } finally {
            spark.stop();
        }
    }

    /**
     * Spark's {@code query} over a table Tributary wrote from the cases of {@code recorded} (its view named {@code view}):
     * true (PASS) when its rows are the well-formed rows of {@code recorded}, less their {@code _corrupt_record}.
     */
    private static boolean read(Path table, Path recorded, String query, String view) throws IOException {
        List<String> expected = Files.readAllLines(recorded, StandardCharsets.UTF_8).stream()
                .filter(l -> l.endsWith("\tNULL")).map(l -> l.substring(0, l.lastIndexOf('\t'))).toList();
        SparkSession spark = SparkFixtures.session("tributary-variant-sources-read");
        List<String> got;
        try {
            spark.read().format("delta").load(table.toString()).createOrReplaceTempView(view);
            got = spark.sql(query).collectAsList().stream().map(SparkVariantSources::tsv).toList();
        } finally {
            spark.stop();
        }
        got.forEach(System.out::println);
        boolean pass = got.equals(expected);
        System.out.println("SparkVariantSources: " + (pass ? "PASS (" + got.size() + " rows)" : "FAIL: expected\n" + String.join("\n", expected)));
        return pass;
    }

    private static void json(SparkSession spark, Path dir) throws IOException {
        Dataset<Row> rows = spark.read().schema(JSON_SCHEMA).json(dir.resolve("json-source-cases.txt").toString());
        rows.cache().createOrReplaceTempView("json_cases");
        List<String> lines = spark.sql(JSON_QUERY).collectAsList().stream().map(SparkVariantSources::tsv).toList();
        Files.write(dir.resolve("json-source-cases.tsv"), lines, StandardCharsets.UTF_8);
        lines.forEach(System.out::println);

        Path work = Files.createTempDirectory("variant-sources-");
        try {
            Path table = work.resolve("table");
            spark.sql("SELECT id, payload, s, arr, m FROM json_cases WHERE _corrupt_record IS NULL").coalesce(1).write().format("delta")
                    .save(table.toString());
            String stats = null;
            ObjectMapper json = new ObjectMapper();
            for (String line : Files.readAllLines(table.resolve("_delta_log").resolve(String.format("%020d.json", 0)))) {
                JsonNode action = json.readTree(line);
                if (action.has("add")) {
                    stats = action.get("add").get("stats").asText();
                }
            }
            Files.writeString(dir.resolve("json-source-stats.json"), stats + "\n");
            System.out.println(stats);
        } finally {
            SparkFixtures.deleteTree(work);
        }
    }

    /**
     * {@code DIR/NAME.tsv}: {@code query} over the lines of {@code DIR/NAME-cases.txt} as a topic's values (the view
     * {@code view}); {@code DIR/NAME-failing.tsv}: the same over each line of {@code DIR/NAME-failing.txt} alone, which Spark
     * fails on ({@code ERROR <condition>: <first line of the message>}). For Debezium's events (Spark has no Debezium reader)
     * the query is a job's: it reads the envelope with {@code from_json} and makes its JSON column a VARIANT with
     * {@code parse_json}.
     */
    private static void topicValues(SparkSession spark, Path dir, String name, String view, String query) throws IOException {
        spark.read().text(dir.resolve(name + "-cases.txt").toString()).createOrReplaceTempView(view);
        List<String> lines = spark.sql(query).collectAsList().stream().map(SparkVariantSources::tsv).toList();
        Files.write(dir.resolve(name + ".tsv"), lines, StandardCharsets.UTF_8);
        lines.forEach(System.out::println);
        List<String> failing = new ArrayList<>();
        for (String value : Files.readAllLines(dir.resolve(name + "-failing.txt"), StandardCharsets.UTF_8)) {
            spark.createDataset(List.of(value), org.apache.spark.sql.Encoders.STRING()).toDF("value").createOrReplaceTempView(view);
            failing.add(firstRowOrError(spark, query));
        }
        Files.write(dir.resolve(name + "-failing.tsv"), failing, StandardCharsets.UTF_8);
        failing.forEach(System.out::println);
    }

    /** The query's one row, or {@code ERROR <condition>: <first line of the message>} when Spark fails on it. */
    private static String firstRowOrError(SparkSession spark, String query) {
        try {
            return spark.sql(query).collectAsList().stream().map(SparkVariantSources::tsv).findFirst().orElse("");
        } catch (Exception e) { // Spark's AnalysisException is no RuntimeException
            return error(e);
        }
    }

    /**
     * {@code ERROR <condition>: <first line of the message>} of the first Spark error in {@code e}'s chain of causes (else of
     * its root cause, named by its class).
     */
    static String error(Exception e) {
        Throwable t = e;
        while (!(t instanceof org.apache.spark.SparkThrowable) && t.getCause() != null) {
            t = t.getCause();
        }
        String condition = t instanceof org.apache.spark.SparkThrowable st ? st.getCondition() : t.getClass().getName();
        return "ERROR " + condition + ": " + String.valueOf(t.getMessage()).lines().findFirst().orElse("");
    }

    /** Spark's rows, or {@code ERROR <condition>: <first line of the message>} when Spark refuses the schema. */
    private static void csv(SparkSession spark, Path dir) throws IOException {
        List<String> lines;
        try {
            spark.read().schema(CSV_SCHEMA).csv(dir.resolve("csv-source-cases.csv").toString()).createOrReplaceTempView("csv_cases");
            lines = spark.sql(CSV_QUERY).collectAsList().stream().map(SparkVariantSources::tsv).toList();
        } catch (Exception e) { // Spark's AnalysisException is no RuntimeException
            String condition = e instanceof org.apache.spark.SparkThrowable t ? t.getCondition() : e.getClass().getName();
            lines = List.of("ERROR " + condition + ": " + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        }
        Files.write(dir.resolve("csv-source.tsv"), lines, StandardCharsets.UTF_8);
        lines.forEach(System.out::println);
    }

    /** A row's cells, tab-separated: NULL for a null, tabs and line ends in a value written {@code \t} and {@code \n}. */
    static String tsv(Row r) {
        List<String> cells = new ArrayList<>();
        for (int i = 0; i < r.length(); i++) {
            cells.add(r.isNullAt(i) ? "NULL" : String.valueOf(r.get(i)).replace("\t", "\\t").replace("\n", "\\n"));
        }
        return String.join("\t", cells);
    }
}
