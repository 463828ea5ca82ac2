package io.tributary.compat.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.util.Codec;

/**
 * Writes small Delta tables the way Spark writes them, with the features a Kernel-only tool meets in
 * tables other engines wrote: deletion vectors (a DELETE that marks rows instead of rewriting the
 * file), a V2 checkpoint whose actions live in a sidecar under {@code _delta_log/_sidecars/}, and a
 * classic checkpoint split into parts. The tables are test fixtures of delta-sink's {@code vacuum}.
 *
 * <p>Each table gets the same seven versions:
 * <pre>
 *   v0  CREATE TABLE (id INT, name STRING), deletion vectors on, checkpoint every 5 commits
 *   v1  INSERT ids 1..10                      one file, A
 *   v2  INSERT ids 11..20                     one file, B
 *   v3  DELETE id IN (2, 3)                   A gets deletion vector DV1 (remove A, add A+DV1)
 *   v4  DELETE id = 5                         A gets DV2 (remove A+DV1, add A+DV2)
 *   v5  DELETE id >= 11                       every row of B: B is removed whole; checkpoint at v5
 *   v6  INSERT ids 21..25                     one file, C
 * </pre>
 * so the latest version holds ids 1, 4, 6..10 (A with DV2) and 21..25 (C); DV1 and B are only in
 * {@code remove} actions. Spark's DELETE at v5 also leaves a deletion vector file for B that no
 * action names (it removed B whole instead): an orphan, as a failed or superseded write leaves. The commits v0..v4 are then deleted (with their checksums), as Delta's
 * log clean-up does once they are older than {@code delta.logRetentionDuration} (it keeps the commit
 * of the checkpoint's version, v5): what v0..v4 did is known only from the checkpoint, so a reader
 * that skips its sidecar or its parts misses the tombstone of A+DV1, whose DV1 file must stay
 * while the tombstone is within the retention. Hadoop's hidden {@code .*.crc} checksum
 * files are removed (a local-file-system artefact).
 *
 * <p>Tables: {@code dv-v2-checkpoint} ({@code delta.checkpointPolicy=v2}: a JSON top-level
 * checkpoint file and one Parquet sidecar) and {@code dv-multipart-checkpoint} (classic policy,
 * {@code spark.databricks.delta.checkpoint.partSize=2}: the checkpoint in several Parquet parts).
 *
 * <p>Beside each table, {@code <table>.actions} lists the add and remove actions of every commit
 * (with the deletion vector file each names), written before the commits are deleted.
 *
 * <p>Usage: {@code SparkFixtures OUTPUT_DIR} (the tables are created under it; existing ones are replaced).
 */
public final class SparkFixtures {
    private SparkFixtures() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: SparkFixtures OUTPUT_DIR");
            System.exit(2);
        }
        Path out = Path.of(args[0]).toAbsolutePath();
        SparkSession spark = session("tributary-spark-fixtures");
        try {
            write(spark, out.resolve("dv-v2-checkpoint"), "'delta.checkpointPolicy' = 'v2'");
            spark.conf().set("spark.databricks.delta.checkpoint.partSize", "2");
            write(spark, out.resolve("dv-multipart-checkpoint"), "'delta.checkpointPolicy' = 'classic'");
            spark.conf().unset("spark.databricks.delta.checkpoint.partSize");
        } finally {
            spark.stop();
        }
    }

    /** A local Spark session with Delta, in UTC, on one core, as the fixtures are written. */
    static SparkSession session(String appName) {
        return SparkSession.builder()
                .appName(appName)
                .master("local[1]")
                .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
                .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
                .config("spark.sql.session.timeZone", "UTC")
                .config("spark.sql.shuffle.partitions", "1")
                .config("spark.ui.enabled", "false")
                .getOrCreate();
    }

    private static void write(SparkSession spark, Path table, String checkpointPolicy) throws IOException {
        deleteTree(table);
        String t = "delta.`" + table + "`";
        for (String sql : List.of(
                "CREATE TABLE " + t + " (id INT, name STRING) USING delta TBLPROPERTIES ("
                        + "'delta.enableDeletionVectors' = 'true', 'delta.checkpointInterval' = '5', " + checkpointPolicy + ")",
                "INSERT INTO " + t + " SELECT id, concat('n', id) FROM range(1, 11) AS r(id)",
                "INSERT INTO " + t + " SELECT id, concat('n', id) FROM range(11, 21) AS r(id)",
                "DELETE FROM " + t + " WHERE id IN (2, 3)",
                "DELETE FROM " + t + " WHERE id = 5",
                "DELETE FROM " + t + " WHERE id >= 11",
                "INSERT INTO " + t + " SELECT id, concat('n', id) FROM range(21, 26) AS r(id)")) {
            spark.sql(sql);
        }
        long rows = spark.read().format("delta").load(table.toString()).count();
        Path log = table.resolve("_delta_log");
        writeActions(log, table.resolveSibling(table.getFileName() + ".actions"));
        for (int v = 0; v <= 4; v++) {
            Files.deleteIfExists(log.resolve(String.format("%020d.json", v)));
            Files.deleteIfExists(log.resolve(String.format("%020d.crc", v)));
        }
        Path staged = log.resolve("_staged_commits"); // empty: only catalog-managed tables stage commits there
        if (Files.isDirectory(staged)) {
            try (Stream<Path> s = Files.list(staged)) {
                if (s.findAny().isEmpty()) {
                    Files.delete(staged);
                }
            }
        }
        try (Stream<Path> files = Files.walk(table)) {
            for (Path p : files.filter(p -> p.getFileName().toString().startsWith(".") && p.toString().endsWith(".crc")).toList()) {
                Files.delete(p);
            }
        }
        long after = spark.read().format("delta").load(table.toString()).count();
        System.out.println(table + ": " + rows + " rows; " + after + " rows read again from the checkpoint without commits 0..4");
        try (Stream<Path> files = Files.walk(table)) {
            files.filter(Files::isRegularFile).sorted().forEach(p -> System.out.println("  " + table.relativize(p) + "  " + size(p)));
        }
    }

    /**
     * Writes what each commit added and removed, one line per file action, before the commits go:
     * {@code v3 add part-...parquet deletion_vector_<uuid>.bin} ({@code -} without a deletion vector; a
     * remove ends with its {@code deletionTimestamp}).
     * Tests read it to know which file and deletion vector plays which part.
     */
    private static void writeActions(Path log, Path out) throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<String> lines = new ArrayList<>();
        for (int v = 0; ; v++) {
            Path commit = log.resolve(String.format("%020d.json", v));
            if (!Files.exists(commit)) {
                break;
            }
            for (String line : Files.readAllLines(commit)) {
                JsonNode a = json.readTree(line);
                for (String kind : List.of("add", "remove")) {
                    if (a.has(kind)) {
                        JsonNode dv = a.get(kind).path("deletionVector");
                        String dvFile = "-";
                        if ("u".equals(dv.path("storageType").asText())) {
                            String encoded = dv.path("pathOrInlineDv").asText();
                            String prefix = encoded.substring(0, encoded.length() - 20);
                            dvFile = prefix + "deletion_vector_" + Codec.Base85Codec$.MODULE$.decodeUUID(encoded.substring(prefix.length())) + ".bin";
                        }
                        String removed = kind.equals("remove") ? " " + a.get(kind).path("deletionTimestamp").asLong() : "";
                        lines.add("v" + v + " " + kind + " " + a.get(kind).path("path").asText() + " " + dvFile + removed);
                    }
                }
            }
        }
        Files.write(out, lines);
        lines.forEach(l -> System.out.println("  " + l));
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return -1;
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
