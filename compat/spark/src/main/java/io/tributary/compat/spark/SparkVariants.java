package io.tributary.compat.spark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Records Spark's VARIANT columns for {@code golden/variant}, and reads a table Tributary wrote with one.
 *
 * <p>{@code record DIR}: from {@code DIR/cases.txt} (one JSON text a line; the line number is the row's {@code id}), Spark
 * 4.2 + Delta 4.4 writes {@code DIR/table}: {@code SELECT id, parse_json(raw) AS payload, to_variant_object(named_struct(...))
 * AS typed} (the protocol, the schema and the data file are Spark's; Hadoop's {@code .crc} files removed), and records
 * {@code DIR/spark.tsv} (its rows as {@link #QUERY} gives them), {@code DIR/spark-parquet.txt} (the Parquet schema of its data
 * file, as parquet-mr prints it) and {@code DIR/json-source.tsv} (Spark's JSON reader with a {@code payload VARIANT} field in the
 * schema, over the cases as {@code {"id": N, "payload": <case>}} lines).
 *
 * <p>{@code record-layouts DIR}: from the same cases, Spark writes the tables of {@code DIR/layouts} with the columns of
 * {@link #SELECT_LAYOUTS} ({@code id, payload, typed, part}): {@code partitioned} (partitioned by {@code part}), {@code name}
 * (column mapping mode {@code name}, partitioned by {@code part}) and {@code id} (column mapping mode {@code id}); each must
 * give {@code DIR/spark.tsv}, and the command fails if one does not.
 *
 * <p>{@code read TABLE... EXPECTED_TSV}: {@link #QUERY} over each table Tributary wrote; PASS when every table's rows are the
 * expected ones, each the same number of times (a table appended to again holds each row twice).
 */
public final class SparkVariants {
    /** What Spark sees of each row: the variants' JSON, their types, and parts of them taken by path. */
    static final String QUERY = "SELECT id, to_json(payload), schema_of_variant(payload), CAST(try_variant_get(payload, '$.a', 'int') AS STRING),"
            + " CAST(try_variant_get(payload, '$.b.c[1]', 'double') AS STRING), to_json(typed), schema_of_variant(typed),"
            + " CAST(variant_get(typed, '$.d', 'date') AS STRING) FROM %s ORDER BY id";
    /** The select list that makes the table's columns from {@code id INT, raw STRING}: Tributary's tests transform with it too. */
    static final String SELECT = "id, parse_json(raw) AS payload, to_variant_object(named_struct('n', id, 'd', DATE'2024-02-29', "
            + "'dec', CAST(id AS DECIMAL(5,2)) / 4, 'bin', X'CAFE', 'f', CAST(id AS FLOAT) / 2)) AS typed";

    /** {@link #SELECT} and the partition column of the tables of {@code record-layouts}: Tributary's tests transform with it too. */
    static final String SELECT_LAYOUTS = SELECT + ", id % 3 AS part";

    private SparkVariants() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 2 && args[0].equals("record")) {
            SparkSession spark = SparkFixtures.session("tributary-variant");
            try {
                record(spark, Path.of(args[1]).toAbsolutePath());
            } finally {
                spark.stop();
            }
        } else if (args.length == 2 && args[0].equals("record-layouts")) {
            SparkSession spark = SparkFixtures.session("tributary-variant-layouts");
            boolean same;
            try {
                same = recordLayouts(spark, Path.of(args[1]).toAbsolutePath());
            } finally {
                spark.stop();
            }
            System.exit(same ? 0 : 1);
        } else if (args.length >= 3 && args[0].equals("read")) {
            List<String> expected = Files.readAllLines(Path.of(args[args.length - 1]));
            SparkSession spark = SparkFixtures.session("tributary-variant-read");
            int failed = 0;
            try {
                for (int i = 1; i < args.length - 1; i++) {
                    List<String> got = rows(spark, "delta.`" + Path.of(args[i]).toAbsolutePath() + "`");
                    int times = expected.isEmpty() ? 0 : got.size() / expected.size();
                    boolean pass = times > 0 && got.equals(repeated(expected, times));
                    System.out.println(args[i] + ": " + (pass ? "PASS (" + got.size() + " rows, each expected row " + times + " time(s))"
                            : "FAIL: got\n" + String.join("\n", got)));
                    failed += pass ? 0 : 1;
                }
            } finally {
                spark.stop();
            }
            System.out.println("SparkVariants: " + (failed == 0 ? "PASS" : "FAIL: " + failed + " table(s) differ from " + args[args.length - 1]));
            System.exit(failed == 0 ? 0 : 1);
        } else {
            System.err.println("usage: SparkVariants record DIR | record-layouts DIR | read TABLE... EXPECTED_TSV");
            System.exit(2);
        }
    }

    private static void record(SparkSession spark, Path dir) throws IOException {
        List<String> cases = Files.readAllLines(dir.resolve("cases.txt"), StandardCharsets.UTF_8);
        Path table = dir.resolve("table");
        SparkFixtures.deleteTree(table);
        Path work = Files.createTempDirectory("variant-");
        try {
            Path raw = work.resolve("raw.jsonl");
            Path typedJson = work.resolve("variant.jsonl");
            List<String> rawLines = new ArrayList<>();
            List<String> variantLines = new ArrayList<>();
            for (int i = 0; i < cases.size(); i++) {
                rawLines.add("{\"id\": " + (i + 1) + ", \"raw\": " + quote(cases.get(i)) + "}");
                variantLines.add("{\"id\": " + (i + 1) + ", \"payload\": " + cases.get(i) + "}");
            }
            Files.write(raw, rawLines);
            Files.write(typedJson, variantLines);
            spark.read().schema("id INT, raw STRING").json(raw.toString()).createOrReplaceTempView("source");
            spark.sql("SELECT " + SELECT + " FROM source").coalesce(1).write().format("delta").save(table.toString());
            try (Stream<Path> files = Files.walk(table)) {
                for (Path p : files.filter(p -> p.getFileName().toString().startsWith(".") && p.toString().endsWith(".crc")).toList()) {
                    Files.delete(p);
                }
            }
            Files.write(dir.resolve("spark.tsv"), rows(spark, "delta.`" + table + "`"));
            Files.writeString(dir.resolve("spark-parquet.txt"), parquetSchema(table));
            spark.read().schema("id INT, payload VARIANT").json(typedJson.toString()).createOrReplaceTempView("json_source");
            Files.write(dir.resolve("json-source.tsv"), spark.sql("SELECT id, to_json(payload), schema_of_variant(payload) FROM json_source"
                    + " ORDER BY id").collectAsList().stream().map(SparkVariants::tsv).toList());
        } finally {
            SparkFixtures.deleteTree(work);
        }
        System.out.println(Files.readString(dir.resolve("spark.tsv")) + Files.readString(dir.resolve("spark-parquet.txt")));
    }

    /** Each of {@code lines} {@code times} times in a row (rows ordered by id: a row appended again sorts next to itself). */
    private static List<String> repeated(List<String> lines, int times) {
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            for (int i = 0; i < times; i++) {
                out.add(line);
            }
        }
        return out;
    }

    /** Writes the tables of {@code dir/layouts}; true when each gives {@code dir/spark.tsv}. */
    private static boolean recordLayouts(SparkSession spark, Path dir) throws IOException {
        List<String> cases = Files.readAllLines(dir.resolve("cases.txt"), StandardCharsets.UTF_8);
        List<String> expected = Files.readAllLines(dir.resolve("spark.tsv"), StandardCharsets.UTF_8);
        Path layouts = dir.resolve("layouts");
        Path work = Files.createTempDirectory("variant-layouts-");
        boolean same = true;
        try {
            Path raw = work.resolve("raw.jsonl");
            List<String> rawLines = new ArrayList<>();
            for (int i = 0; i < cases.size(); i++) {
                rawLines.add("{\"id\": " + (i + 1) + ", \"raw\": " + quote(cases.get(i)) + "}");
            }
            Files.write(raw, rawLines);
            spark.read().schema("id INT, raw STRING").json(raw.toString()).createOrReplaceTempView("source");
            String columns = "(id INT, payload VARIANT, typed VARIANT, part INT)";
            for (String[] layout : List.of(new String[] {"partitioned", "PARTITIONED BY (part)", ""},
                    new String[] {"name", "PARTITIONED BY (part)", " TBLPROPERTIES ('delta.columnMapping.mode' = 'name')"},
                    new String[] {"id", "", " TBLPROPERTIES ('delta.columnMapping.mode' = 'id')"})) {
                Path table = layouts.resolve(layout[0]);
                SparkFixtures.deleteTree(table);
                String t = "delta.`" + table + "`";
                spark.sql("CREATE TABLE " + t + " " + columns + " USING delta " + layout[1] + layout[2]);
                spark.sql("INSERT INTO " + t + " SELECT " + SELECT_LAYOUTS + " FROM source");
                try (Stream<Path> files = Files.walk(table)) {
                    for (Path p : files.filter(p -> p.getFileName().toString().startsWith(".") && p.toString().endsWith(".crc")).toList()) {
                        Files.delete(p);
                    }
                }
                List<String> got = rows(spark, t);
                boolean ok = got.equals(expected);
                System.out.println(layout[0] + ": " + (ok ? "the rows of spark.tsv" : "DIFFERENT rows:\n" + String.join("\n", got)));
                same &= ok;
            }
        } finally {
            SparkFixtures.deleteTree(work);
        }
        return same;
    }

    static List<String> rows(SparkSession spark, String table) {
        return spark.sql(String.format(QUERY, table)).collectAsList().stream().map(SparkVariants::tsv).toList();
    }

    /** The Parquet schema of the table's one data file. */
    static String parquetSchema(Path table) throws IOException {
        Path file;
        try (Stream<Path> files = Files.list(table)) {
            file = files.filter(p -> p.toString().endsWith(".parquet")).findFirst().orElseThrow();
        }
        try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()),
                new Configuration()))) {
            return r.getFooter().getFileMetaData().getSchema().toString();
        }
    }

    private static String tsv(Row r) {
        List<String> cells = new ArrayList<>();
        for (int i = 0; i < r.length(); i++) {
            cells.add(r.isNullAt(i) ? "NULL" : String.valueOf(r.get(i)));
        }
        return String.join("\t", cells);
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
