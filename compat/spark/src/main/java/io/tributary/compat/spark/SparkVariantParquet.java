package io.tributary.compat.spark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.Trigger;

/**
 * Records what Spark 4.2 writes and reads for VARIANT columns in plain Parquet files ({@code df.write.parquet}, no Delta), for
 * {@code golden/variant/parquet-source}; only these files, the rest of {@code golden/variant} is left as it is.
 *
 * <p>{@code SparkVariantParquet DIR}: from {@code DIR/cases.txt} (one JSON text a line, the line number the row's {@code id},
 * and one more row, {@code id} 10, of SQL NULLs) Spark writes {@link #WRITE} as one Parquet file, copied to
 * {@code DIR/parquet-source/in/part-00000.parquet}, and records in {@code DIR/parquet-source/}:
 * <ul>
 *   <li>{@code parquet-schema.txt}: the file's Parquet schema;</li>
 *   <li>{@code inferred-schema.txt}: the schema Spark's streaming Parquet source infers from the file
 *   ({@code spark.sql.streaming.schemaInference}), as DDL;</li>
 *   <li>{@code spark.tsv}: a streaming read of {@code in/} with the schema {@link #SCHEMA} ({@code availableNow}) into a Delta
 *   table, then {@link #QUERY} over the table by id (NULL for null); {@code spark-inferred.tsv} the same with the inferred
 *   schema;</li>
 *   <li>{@code spark-string.tsv}: the streaming read with {@link #STRING_SCHEMA}: its rows, or {@code ERROR <condition>:
 *   <the root cause's message>} when Spark fails.</li>
 * </ul>
 */
public final class SparkVariantParquet {
    static final String WRITE = "SELECT id, parse_json(raw) AS v, named_struct('v', parse_json(raw), 'n', id) AS s, "
            + "CASE WHEN raw IS NULL THEN NULL ELSE array(parse_json(raw), parse_json('[]')) END AS arr, "
            + "CASE WHEN raw IS NULL THEN NULL ELSE to_variant_object(named_struct('n', id, 'd', DATE'2024-02-29', 'bin', X'CAFE', "
            + "'f', CAST(id AS FLOAT) / 2)) END AS typed, "
            + "CASE WHEN raw IS NULL THEN NULL WHEN id = 9 THEN parse_json('{\"n\": \"nine\", \"extra\": [1, {\"k\": null}]}') "
            + "ELSE to_variant_object(named_struct('n', id, 'ts', TIMESTAMP'2024-02-29 12:00:00', 'dec', CAST(id AS DECIMAL(9,2)))) END AS mixed "
            + "FROM source";
    static final String SCHEMA = "id INT, v VARIANT, s STRUCT<v: VARIANT, n: INT>, arr ARRAY<VARIANT>, typed VARIANT, mixed VARIANT";
    static final String STRING_SCHEMA = "id INT, v STRING";
    static final String QUERY = "SELECT id, to_json(v), schema_of_variant(v), to_json(s), to_json(arr), to_json(typed), "
            + "schema_of_variant(typed), to_json(mixed), schema_of_variant(mixed) FROM parquet_table ORDER BY id";

    private SparkVariantParquet() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: SparkVariantParquet DIR");
            System.exit(2);
        }
        Path dir = Path.of(args[0]).toAbsolutePath();
        Path out = dir.resolve("parquet-source");
        SparkSession spark = SparkFixtures.session("tributary-variant-parquet");
        Path work = Files.createTempDirectory("variant-parquet-");
        try {
            Path in = write(spark, dir, out, work);
            Files.writeString(out.resolve("parquet-schema.txt"), SparkVariants.parquetSchema(in));
            spark.conf().set("spark.sql.streaming.schemaInference", "true");
            Dataset<Row> inferred = spark.readStream().format("parquet").load(in.toString());
            Files.writeString(out.resolve("inferred-schema.txt"), inferred.schema().toDDL() + "\n");
            Files.write(out.resolve("spark-inferred.tsv"), stream(spark, inferred, work.resolve("inferred"), QUERY));
            spark.conf().set("spark.sql.streaming.schemaInference", "false");
            Files.write(out.resolve("spark.tsv"), stream(spark, spark.readStream().format("parquet").schema(SCHEMA).load(in.toString()),
                    work.resolve("declared"), QUERY));
            List<String> string;
            try {
                string = stream(spark, spark.readStream().format("parquet").schema(STRING_SCHEMA).load(in.toString()), work.resolve("string"),
                        "SELECT id, v FROM parquet_table ORDER BY id");
            } catch (Exception e) { // a StreamingQueryException is no RuntimeException
                string = List.of(error(e));
            }
            Files.write(out.resolve("spark-string.tsv"), string);
        } finally {
            spark.stop();
            SparkFixtures.deleteTree(work);
        }
        for (String f : List.of("parquet-schema.txt", "inferred-schema.txt", "spark.tsv", "spark-inferred.tsv", "spark-string.tsv")) {
            System.out.println("== " + f + "\n" + Files.readString(out.resolve(f)));
        }
    }

    /** Writes {@link #WRITE} as one Parquet file into {@code out/in/}; gives that folder. */
    static Path write(SparkSession spark, Path dir, Path out, Path work) throws IOException {
        List<String> cases = Files.readAllLines(dir.resolve("cases.txt"), StandardCharsets.UTF_8);
        List<String> rawLines = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            rawLines.add("{\"id\": " + (i + 1) + ", \"raw\": \"" + cases.get(i).replace("\\", "\\\\").replace("\"", "\\\"") + "\"}");
        }
        rawLines.add("{\"id\": " + (cases.size() + 1) + ", \"raw\": null}");
        Path raw = work.resolve("raw.jsonl");
        Files.write(raw, rawLines);
        spark.read().schema("id INT, raw STRING").json(raw.toString()).createOrReplaceTempView("source");
        Path written = work.resolve("written");
        spark.sql(WRITE).coalesce(1).write().parquet(written.toString());
        Path in = out.resolve("in");
        SparkFixtures.deleteTree(in);
        Files.createDirectories(in);
        try (Stream<Path> files = Files.list(written)) {
            Path part = files.filter(p -> p.getFileName().toString().startsWith("part-") && p.toString().endsWith(".parquet"))
                    .findFirst().orElseThrow();
            Files.copy(part, in.resolve("part-00000.parquet"), StandardCopyOption.REPLACE_EXISTING);
        }
        return in;
    }

    /** A streaming read of {@code source} into a Delta table ({@code availableNow}), then {@code query} over the table. */
    static List<String> stream(SparkSession spark, Dataset<Row> source, Path work, String query) throws Exception {
        Path table = work.resolve("table");
        source.writeStream().format("delta").option("checkpointLocation", work.resolve("checkpoint").toString())
                .trigger(Trigger.AvailableNow()).start(table.toString()).awaitTermination();
        spark.read().format("delta").load(table.toString()).createOrReplaceTempView("parquet_table");
        return spark.sql(query).collectAsList().stream().map(SparkVariantSources::tsv).toList();
    }

    /** {@code ERROR <the innermost Spark error class>: <the root cause's message, its lines joined>}. */
    static String error(Throwable e) {
        String condition = e.getClass().getName();
        Throwable root = e;
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof org.apache.spark.SparkThrowable st && st.getCondition() != null) {
                condition = st.getCondition();
            }
            root = t;
        }
        return "ERROR " + condition + ": " + String.join(" ", String.valueOf(root.getMessage()).lines().map(String::strip).toList());
    }
}
