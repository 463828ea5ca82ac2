package io.tributary.compat.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;

/**
 * Spark's own {@code DELETE} and {@code MERGE} on a table the upsert sink wrote with deletion vectors (kept by
 * delta-sink's {@code DeletionVectorUpsertTest} with {@code -Dtributary.dv.keep=FOLDER}: ids 1..11 with ids 3, 4, 5
 * and 7 marked deleted in file A's vector, 11 in file B's): Spark must read the sink's vectors to find the rows it
 * changes, and merges its marks into them. The result is the fixture {@code tributary-then-spark} of delta-sink's
 * {@code SparkDeletionVectorsTest}, which reads Spark's merged vectors and upserts on top.
 *
 * <pre>
 *   DELETE WHERE id IN (1, 8)                                 file A: ids 1 and 8 marked too
 *   MERGE (9, 'spark', 9.5), (50, 'spark', 50.5) ON id         9 in A updated (marked, new row), 50 inserted
 * </pre>
 *
 * <p>Usage: {@code SparkDmlOnTributaryTable TRIBUTARY_TABLE OUTPUT_DIR} (the table is copied to
 * OUTPUT_DIR/tributary-then-spark first; Hadoop's hidden {@code .*.crc} files are removed after).
 */
public final class SparkDmlOnTributaryTable {
    private SparkDmlOnTributaryTable() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: SparkDmlOnTributaryTable TRIBUTARY_TABLE OUTPUT_DIR");
            System.exit(2);
        }
        Path in = Path.of(args[0]).toAbsolutePath();
        Path out = Path.of(args[1]).toAbsolutePath().resolve("tributary-then-spark");
        copy(in, out);
        SparkSession spark = SparkFixtures.session("tributary-spark-dml");
        try {
            String t = "delta.`" + out + "`";
            spark.sql("DELETE FROM " + t + " WHERE id IN (1, 8)");
            spark.sql("MERGE INTO " + t + " t USING (SELECT 9 AS id, 'spark' AS user, 9.5D AS amt UNION ALL "
                    + "SELECT 50 AS id, 'spark' AS user, 50.5D AS amt) s ON t.id = s.id "
                    + "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
            List<String> rows = spark.read().format("delta").load(out.toString()).orderBy("id").toJSON().collectAsList();
            System.out.println("rows after Spark's DELETE and MERGE (" + rows.size() + "):");
            rows.forEach(System.out::println);
        } finally {
            spark.stop();
        }
        try (Stream<Path> files = Files.walk(out)) {
            for (Path p : files.filter(p -> p.getFileName().toString().startsWith(".") && p.toString().endsWith(".crc")).toList()) {
                Files.delete(p);
            }
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
