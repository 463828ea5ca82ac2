package io.tributary.compat.spark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.unsafe.types.VariantVal;

/**
 * Records what Spark 4.2's file sources make of the option {@code singleVariantColumn} (each whole record one VARIANT
 * column), for {@code golden/variant/single-variant}.
 *
 * <p>{@code SparkSingleVariantColumn DIR} streams {@code DIR/in/} (JSON Lines) with {@code singleVariantColumn = v} into a
 * Delta table ({@code availableNow}), and records:
 * <ul>
 *   <li>{@code DIR/json.tsv}: the table's rows, sorted: {@code to_json(v), schema_of_variant(v)}, then the VARIANT's value
 *   and metadata bytes in hex (NULL for null);</li>
 *   <li>{@code DIR/json-schema.json}: the table's {@code schemaString} in its first commit;</li>
 *   <li>{@code DIR/csv.tsv}: the same over {@code DIR/csv/} read as CSV with {@code header} and
 *   {@code singleVariantColumn = v} (a batch read);</li>
 *   <li>{@code DIR/refusals.tsv}: for each way of reading {@code DIR/in/} in {@link #READS}, its name, then the schema
 *   Spark's reader gives (its DDL) or {@code ERROR <condition>: <first line of the message>}.</li>
 * </ul>
 *
 * <p>{@code SparkSingleVariantColumn read TABLE DIR}: Spark reads a table Tributary wrote from {@code DIR/in/} ({@link #read}).
 */
public final class SparkSingleVariantColumn {
    /** The readers whose schema or refusal is recorded: a name, a format, a user schema (or null), options. */
    static final List<Object[]> READS = List.of(
            new Object[] {"json", "json", null, Map.of("singleVariantColumn", "v")},
            new Object[] {"json-user-schema", "json", "id INT", Map.of("singleVariantColumn", "v")},
            new Object[] {"json-user-schema-variant", "json", "v VARIANT", Map.of("singleVariantColumn", "v")},
            new Object[] {"json-user-schema-corrupt", "json", "v VARIANT, _corrupt_record STRING", Map.of("singleVariantColumn", "v")},
            new Object[] {"json-user-schema-other-name", "json", "w VARIANT", Map.of("singleVariantColumn", "v")},
            new Object[] {"json-failfast", "json", null, Map.of("singleVariantColumn", "v", "mode", "FAILFAST")},
            new Object[] {"json-dropmalformed", "json", null, Map.of("singleVariantColumn", "v", "mode", "DROPMALFORMED")},
            new Object[] {"json-multiline", "json", null, Map.of("singleVariantColumn", "v", "multiLine", "true")},
            new Object[] {"xml", "xml", null, Map.of("singleVariantColumn", "v", "rowTag", "r")},
            new Object[] {"parquet", "parquet", null, Map.of("singleVariantColumn", "v")},
            new Object[] {"text", "text", null, Map.of("singleVariantColumn", "v")});

    private SparkSingleVariantColumn() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 3 && args[0].equals("read")) {
            System.exit(read(Path.of(args[1]).toAbsolutePath(), Path.of(args[2]).toAbsolutePath()) ? 0 : 1);
        }
        if (args.length != 1) {
            System.err.println("usage: SparkSingleVariantColumn DIR | read TABLE DIR");
            System.exit(2);
        }
        Path dir = Path.of(args[0]).toAbsolutePath();
        SparkSession spark = SparkFixtures.session("tributary-single-variant");
        Path work = Files.createTempDirectory("single-variant-");
        try {
            Path table = work.resolve("table");
            spark.readStream().format("json").option("singleVariantColumn", "v").load(dir.resolve("in").toString())
                    .writeStream().format("delta").option("checkpointLocation", work.resolve("cp").toString())
                    .trigger(Trigger.AvailableNow()).start(table.toString()).awaitTermination();
            write(dir.resolve("json.tsv"), rows(spark.read().format("delta").load(table.toString())));
            for (String line : Files.readAllLines(table.resolve("_delta_log").resolve(String.format("%020d.json", 0)))) {
                if (line.startsWith("{\"metaData\"")) {
                    String schema = new com.fasterxml.jackson.databind.ObjectMapper().readTree(line).get("metaData").get("schemaString").asText();
                    write(dir.resolve("json-schema.json"), List.of(schema));
                }
            }
            write(dir.resolve("csv.tsv"), rows(spark.read().format("csv").option("header", "true").option("singleVariantColumn", "v")
                    .load(dir.resolve("csv").toString())));
            spark.read().text(dir.resolve("in").toString()).createOrReplaceTempView("kafka_values");
            write(dir.resolve("from-json.tsv"), rows(spark.sql("SELECT from_json(value, 'variant') AS v FROM kafka_values WHERE trim(value) != ''")));
            write(dir.resolve("csv-no-header.tsv"), rows(spark.read().format("csv").option("singleVariantColumn", "v")
                    .load(dir.resolve("csv").toString())));
            List<String> refusals = new ArrayList<>();
            for (Object[] read : READS) {
                refusals.add(read[0] + "\t" + schemaOrError(spark, dir.resolve("in"), read));
            }
            write(dir.resolve("refusals.tsv"), refusals);
        } finally {
            spark.stop();
            SparkFixtures.deleteTree(work);
        }
    }

    /**
     * Spark reads a table Tributary wrote from {@code DIR/in/} with {@code singleVariantColumn} (service's
     * {@code SingleVariantPipelineTest} with {@code -Dtributary.variant.keep=FOLDER} leaves one in
     * {@code FOLDER/single-variant-table}): true (PASS) when its rows are the rows of {@code DIR/json.tsv} that are not NULL.
     */
    private static boolean read(Path table, Path dir) throws IOException {
        List<String> expected = Files.readAllLines(dir.resolve("json.tsv"), StandardCharsets.UTF_8).stream()
                .filter(l -> !l.startsWith("NULL\t")).toList();
        SparkSession spark = SparkFixtures.session("tributary-single-variant-read");
        List<String> got;
        try {
            got = rows(spark.read().format("delta").load(table.toString()));
        } finally {
            spark.stop();
        }
        boolean pass = got.equals(expected);
        System.out.println("SparkSingleVariantColumn: " + (pass ? "PASS (" + got.size() + " rows)" : "FAIL: got\n" + String.join("\n", got)));
        return pass;
    }

    @SuppressWarnings("unchecked")
    private static String schemaOrError(SparkSession spark, Path in, Object[] read) {
        try {
            DataFrameReader reader = spark.read().format((String) read[1]).options((Map<String, String>) read[3]);
            if (read[2] != null) {
                reader = reader.schema((String) read[2]);
            }
            Dataset<Row> rows = reader.load(in.toString());
            long n = rows.count();
            List<Row> all = rows.collectAsList();
            return rows.schema().toDDL() + "\t" + n + " rows\t" + all.stream().filter(r -> r.get(0) == null).count() + " null";
        } catch (Exception e) { // Spark's AnalysisException is no RuntimeException
            return SparkVariantSources.error(e);
        }
    }

    private static List<String> rows(Dataset<Row> table) {
        table.createOrReplaceTempView("single_variant");
        Dataset<Row> q = table.sparkSession().sql("SELECT to_json(v), schema_of_variant(v), v FROM single_variant");
        List<String> lines = new ArrayList<>();
        for (Row r : q.collectAsList()) {
            List<String> cells = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                cells.add(r.isNullAt(i) ? "NULL" : r.getString(i).replace("\t", "\\t").replace("\n", "\\n"));
            }
            if (r.isNullAt(2)) {
                cells.add("NULL");
                cells.add("NULL");
            } else {
                VariantVal v = (VariantVal) r.get(2);
                cells.add(HexFormat.of().formatHex(v.getValue()));
                cells.add(HexFormat.of().formatHex(v.getMetadata()));
            }
            lines.add(String.join("\t", cells));
        }
        lines.sort(null);
        return lines;
    }

    private static void write(Path file, List<String> lines) throws IOException {
        Files.write(file, lines, StandardCharsets.UTF_8);
        lines.forEach(System.out::println);
    }
}
