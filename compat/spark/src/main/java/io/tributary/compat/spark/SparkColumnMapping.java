package io.tributary.compat.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;

/**
 * Records Spark's column-mapped tables for {@code golden/column-mapping}, and reads back a table
 * Tributary wrote into.
 *
 * <p>{@code record OUT}: two tables with the same history, {@code name} ({@code delta.columnMapping.mode
 * = name}, partitioned by {@code region}) and {@code id} ({@code delta.columnMapping.mode = id},
 * unpartitioned, deletion vectors on):
 * <pre>
 *   v0  CREATE TABLE (id INT, name STRING, amt DOUBLE, region STRING, note STRING)
 *   v1  INSERT ids 1..4 (notes n1, n2, n3, null)
 *   v2  ALTER TABLE RENAME COLUMN name TO customer
 *   v3  ALTER TABLE DROP COLUMN note        (its data stays in the files of v1)
 *   v4  INSERT ids 5, 6
 *   v5  ALTER TABLE ADD COLUMN note STRING  (a new column: another physical name and id)
 *   v6  INSERT id 7 (note new7)
 * </pre>
 * and for each: {@code MODE/table} (the table, Hadoop's {@code .crc} side files removed),
 * {@code MODE/spark.jsonl} (Spark's rows, by id), {@code MODE/append.jsonl} and {@code MODE/upsert.jsonl}
 * (the rows Tributary's tests write), {@code MODE/after-append.jsonl} (Spark's rows after an INSERT of
 * append.jsonl into a copy) and {@code MODE/after-upsert.jsonl} (after Spark's MERGE of upsert.jsonl on the
 * key {@code id}, {@code UPDATE SET *}, {@code INSERT *}, into another copy).
 *
 * <p>{@code read TABLE OUT_JSONL [TABLE OUT_JSONL ...]}: Spark's rows of each table, by id, as JSON lines.
 */
public final class SparkColumnMapping {
    static final String APPEND = "{\"id\":10,\"customer\":\"j\",\"amt\":10.5,\"region\":\"eu\",\"note\":\"new10\"}\n"
            + "{\"id\":11,\"customer\":\"k\",\"amt\":11.5,\"region\":\"us\"}\n";
    static final String UPSERT = "{\"id\":2,\"customer\":\"b2\",\"amt\":20.5,\"region\":\"eu\",\"note\":\"upd2\"}\n"
            + "{\"id\":5,\"customer\":\"e2\",\"amt\":50.5,\"region\":\"us\"}\n"
            + "{\"id\":7,\"customer\":\"g2\",\"amt\":70.5,\"region\":\"eu\",\"note\":\"upd7\"}\n"
            + "{\"id\":9,\"customer\":\"i\",\"amt\":9.5,\"region\":\"us\",\"note\":\"new9\"}\n";
    static final String SCHEMA = "id INT, customer STRING, amt DOUBLE, region STRING, note STRING";

    private SparkColumnMapping() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 2 && args[0].equals("record")) {
            Path out = Path.of(args[1]).toAbsolutePath();
            SparkSession spark = SparkFixtures.session("tributary-column-mapping");
            try {
                record(spark, out.resolve("name"), "'delta.columnMapping.mode' = 'name'", "PARTITIONED BY (region)");
                record(spark, out.resolve("id"), "'delta.columnMapping.mode' = 'id', 'delta.enableDeletionVectors' = 'true'", "");
            } finally {
                spark.stop();
            }
        } else if (args.length >= 3 && args.length % 2 == 1 && args[0].equals("read")) {
            SparkSession spark = SparkFixtures.session("tributary-column-mapping-read");
            try {
                for (int i = 1; i < args.length; i += 2) {
                    writeRows(spark, "delta.`" + Path.of(args[i]).toAbsolutePath() + "`", Path.of(args[i + 1]));
                    System.out.println(args[i] + ":\n" + Files.readString(Path.of(args[i + 1])));
                }
            } finally {
                spark.stop();
            }
        } else {
            System.err.println("usage: SparkColumnMapping record OUT_DIR | read TABLE OUT_JSONL [TABLE OUT_JSONL ...]");
            System.exit(2);
        }
    }

    private static void record(SparkSession spark, Path dir, String properties, String partitioning) throws IOException {
        SparkFixtures.deleteTree(dir);
        Files.createDirectories(dir);
        Path table = dir.resolve("table");
        String t = "delta.`" + table + "`";
        for (String sql : List.of(
                "CREATE TABLE " + t + " (id INT, name STRING, amt DOUBLE, region STRING, note STRING) USING delta "
                        + partitioning + " TBLPROPERTIES (" + properties + ")",
                "INSERT INTO " + t + " VALUES (1, 'a', 1.5, 'eu', 'n1'), (2, 'b', 2.5, 'eu', 'n2'), (3, 'c', 3.5, 'us', 'n3'),"
                        + " (4, 'd', 4.5, 'us', null)",
                "ALTER TABLE " + t + " RENAME COLUMN name TO customer",
                "ALTER TABLE " + t + " DROP COLUMN note",
                "INSERT INTO " + t + " (id, customer, amt, region) VALUES (5, 'e', 5.5, 'eu'), (6, 'f', 6.5, 'us')",
                "ALTER TABLE " + t + " ADD COLUMN note STRING",
                "INSERT INTO " + t + " (id, customer, amt, region, note) VALUES (7, 'g', 7.5, 'eu', 'new7')")) {
            spark.sql(sql);
        }
        try (Stream<Path> files = Files.walk(table)) {
            for (Path p : files.filter(p -> p.getFileName().toString().startsWith(".") && p.toString().endsWith(".crc")).toList()) {
                Files.delete(p);
            }
        }
        writeRows(spark, t, dir.resolve("spark.jsonl"));
        Files.writeString(dir.resolve("append.jsonl"), APPEND);
        Files.writeString(dir.resolve("upsert.jsonl"), UPSERT);
        Path work = Files.createTempDirectory("colmap-");
        try {
            Path appended = copy(table, work.resolve("append"));
            source(spark, work, "append", APPEND);
            spark.sql("INSERT INTO delta.`" + appended + "` (id, customer, amt, region, note) SELECT id, customer, amt, region, note FROM append");
            writeRows(spark, "delta.`" + appended + "`", dir.resolve("after-append.jsonl"));
            Path upserted = copy(table, work.resolve("upsert"));
            source(spark, work, "upsert", UPSERT);
            spark.sql("MERGE INTO delta.`" + upserted + "` t USING upsert s ON t.id = s.id "
                    + "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
            writeRows(spark, "delta.`" + upserted + "`", dir.resolve("after-upsert.jsonl"));
        } finally {
            SparkFixtures.deleteTree(work);
        }
        System.out.println(dir + ": " + Files.readString(dir.resolve("spark.jsonl")));
    }

    private static void source(SparkSession spark, Path work, String name, String jsonl) throws IOException {
        Path f = work.resolve(name + ".jsonl");
        Files.writeString(f, jsonl);
        spark.read().schema(SCHEMA).json(f.toString()).createOrReplaceTempView(name);
    }

    private static Path copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
        return to;
    }

    private static void writeRows(SparkSession spark, String table, Path out) throws IOException {
        List<String> lines = spark.sql("SELECT id, customer, amt, region, note FROM " + table + " ORDER BY id").toJSON().collectAsList();
        Files.write(out, lines);
    }
}
