package io.tributary.compat.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;

/**
 * Records what Spark commits when it changes rows of a table that Tributary's upsert sink is writing:
 * a {@code DELETE}, an {@code UPDATE}, a {@code MERGE} and an {@code OPTIMIZE}, each on a table with
 * deletion vectors and on one without. delta-sink's tests replay each commit between the moment the
 * sink planned a batch and its commit, and check the table against the serial result.
 *
 * <p>Each table has the same three versions, then Spark's change:
 * <pre>
 *   v0  CREATE TABLE (id INT, user STRING, amt DOUBLE), domain metadata supported, deletion vectors on or off
 *   v1  INSERT ids 1..10                      one file, A
 *   v2  INSERT ids 11..20                     one file, B
 *   v3  the change (below)
 * </pre>
 * Commit 3 is moved out of the log to {@code <table>/../<table>.commit.json}, so the table reads as of
 * version 2 and a test makes Spark's commit land by copying that file to {@code _delta_log/00000000000000000003.json};
 * the data and deletion vector files commit 3 names stay in the table folder (unreferenced until then).
 * Hadoop's hidden {@code .*.crc} files and the {@code .crc} of commit 3 are removed.
 *
 * <p>Usage: {@code SparkConcurrentCommits OUTPUT_DIR} (the tables are created under it; existing ones are replaced).
 */
public final class SparkConcurrentCommits {
    /** Spark's change of each table, by name: each touches file A (ids 1..10), some B too. */
    static final Map<String, String> CHANGES = new LinkedHashMap<>();

    static {
        CHANGES.put("delete", "DELETE FROM %s WHERE id IN (3, 5)");
        CHANGES.put("update", "UPDATE %s SET user = 'spark' WHERE id IN (4, 12)");
        CHANGES.put("merge", "MERGE INTO %s t USING (SELECT * FROM VALUES (6, 'merged', 6.5), (40, 'merged', 40.5) AS s(id, user, amt)) s "
                + "ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
        CHANGES.put("optimize", "OPTIMIZE %s");
    }

    private SparkConcurrentCommits() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: SparkConcurrentCommits OUTPUT_DIR");
            System.exit(2);
        }
        Path out = Path.of(args[0]).toAbsolutePath();
        SparkSession spark = SparkFixtures.session("tributary-spark-concurrent-commits");
        try {
            for (Map.Entry<String, String> change : CHANGES.entrySet()) {
                for (boolean dv : List.of(true, false)) {
                    write(spark, out.resolve(change.getKey() + (dv ? "-dv" : "-copy")), dv, change.getValue());
                }
            }
        } finally {
            spark.stop();
        }
    }

    /** The statements of versions 0 to 2 of table {@code t} (a table name or {@code delta.`path`}). */
    static List<String> base(String t, boolean deletionVectors) {
        return List.of(
                "CREATE TABLE " + t + " (id INT, user STRING, amt DOUBLE) USING delta TBLPROPERTIES ("
                        + "'delta.enableDeletionVectors' = '" + deletionVectors + "', 'delta.feature.domainMetadata' = 'supported')",
                "INSERT INTO " + t + " SELECT id, concat('u', id), id * 1.0 FROM range(1, 11) AS r(id)",
                "INSERT INTO " + t + " SELECT id, concat('u', id), id * 1.0 FROM range(11, 21) AS r(id)");
    }

    private static void write(SparkSession spark, Path table, boolean deletionVectors, String change) throws IOException {
        SparkFixtures.deleteTree(table);
        String t = "delta.`" + table + "`";
        for (String sql : base(t, deletionVectors)) {
            spark.sql(sql);
        }
        spark.sql(String.format(change, t));
        Path log = table.resolve("_delta_log");
        Path commit = log.resolve(String.format("%020d.json", 3));
        Files.move(commit, table.resolveSibling(table.getFileName() + ".commit.json"));
        Files.deleteIfExists(log.resolve(String.format("%020d.crc", 3)));
        try (Stream<Path> files = Files.walk(table)) {
            for (Path p : files.filter(p -> p.getFileName().toString().startsWith(".") && p.toString().endsWith(".crc")).toList()) {
                Files.delete(p);
            }
        }
        System.out.println(table + ": " + String.format(change, "t"));
    }
}
