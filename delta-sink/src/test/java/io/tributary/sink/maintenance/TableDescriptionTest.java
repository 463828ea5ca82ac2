package io.tributary.sink.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.sink.SinkOffsets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableDescriptionTest {
    @TempDir
    Path dir;

    private Path table() {
        return dir.resolve("table");
    }

    @Test
    void aSinkTableAfter25CommitsShowsItsHealth() {
        new TestTables(table().toString(), List.of("date(ts) as day"), Map.of()).commits(25, 6, 2);

        TableDescription d = TableDescription.of(table().toString(), OptimizeOptions.DEFAULT_TARGET_FILE_SIZE);

        assertThat(d.latestVersion()).isEqualTo(24);
        assertThat(d.oldestVersion()).isZero();
        assertThat(d.lastCheckpoint()).isEqualTo(20);
        assertThat(d.files()).isEqualTo(50);
        assertThat(d.smallFiles()).isEqualTo(50);
        assertThat(d.minFileBytes()).isPositive().isLessThanOrEqualTo(d.medianFileBytes());
        assertThat(d.medianFileBytes()).isLessThanOrEqualTo(d.maxFileBytes());
        assertThat(d.partitionColumns()).containsExactly("day");
        assertThat(d.partitions()).containsOnly(Map.entry("day=2024-05-01", 25), Map.entry("day=2024-05-02", 25));
        assertThat(d.transactions()).containsExactly(Map.entry(TestTables.APP, 24L));
        assertThat(d.domains()).containsKey(SinkOffsets.DOMAIN);
        assertThat(SinkOffsets.parse(d.domains().get(SinkOffsets.DOMAIN)).offsets()).containsEntry(0, 150L);
        assertThat(d.properties()).containsEntry("delta.checkpointInterval", "10");
        assertThat(d.protocol()).contains("domainMetadata");
        String text = d.toText();
        assertThat(text).contains("latest 24, oldest readable 0").contains("checkpoint  version 20").contains("files  50,")
                .contains("day=2024-05-01  25 files").contains(TestTables.APP + ": 24").contains("tributary optimize compacts them");
    }

    /** The row count comes from the adds' numRecords statistics; with a file that has none it is "unknown", not a guess. */
    @Test
    void theRowCountComesFromTheLogsStatisticsAndIsUnknownWithoutThem() throws IOException {
        TestTables.at(table()).commits(3, 4, 1);
        assertThat(TableDescription.of(table().toString(), OptimizeOptions.DEFAULT_TARGET_FILE_SIZE).toText())
                .contains("rows  12 (from the log's statistics, no data file read)");

        // an add without statistics, as some writers commit files (Kernel without stats, old tools)
        Path commit = TestTables.commitFile(table(), 1);
        List<String> lines = new java.util.ArrayList<>();
        for (String line : Files.readAllLines(commit)) {
            lines.add(line.startsWith("{\"add\"") ? line.replaceAll(",\"stats\":\"(\\\\.|[^\"\\\\])*\"", "") : line);
        }
        Files.write(commit, lines);
        assertThat(String.join("\n", lines)).doesNotContain("numRecords");

        assertThat(TableDescription.of(table().toString(), OptimizeOptions.DEFAULT_TARGET_FILE_SIZE).toText())
                .contains("rows  unknown: 1 of 3 data files have no row count in their statistics (the other 2 hold 8 rows)");
    }

    /** Deletion vectors (a Spark DELETE) mark rows deleted without rewriting the file: they are not counted. */
    @Test
    void rowsThatDeletionVectorsDeleteAreNotCounted() {
        Path spark = SparkTables.copy("dv-v2-checkpoint", dir);

        TableDescription d = TableDescription.of(spark.toString(), OptimizeOptions.DEFAULT_TARGET_FILE_SIZE);

        assertThat(d.toText()).contains("rows  12 (from the log's statistics, no data file read; "
                + "3 more rows in the files are marked deleted by deletion vectors)");
        assertThat(d.files()).isEqualTo(2);
    }

    /**
     * Kernel's checkpoint hook also cleans the log: commits and checkpoints before a checkpoint
     * older than delta.logRetentionDuration go, and the .crc checksums of the versions gone with
     * them (as Delta's clean-up does; Kernel's leaves them). The retention is measured on the log
     * files' times, so the test ages them instead of waiting.
     */
    @Test
    void checkpointsCleanUpTheLogPastItsRetentionAndTheTableStillReads() throws IOException {
        Map<String, String> props = Map.of("delta.logRetentionDuration", "interval 1 hours");
        TestTables t = new TestTables(table().toString(), List.of(), props).commits(25, 2, 1);
        try (Stream<Path> log = Files.list(table().resolve("_delta_log"))) {
            for (Path p : log.toList()) {
                Files.setLastModifiedTime(p, FileTime.from(Instant.now().minus(2, ChronoUnit.HOURS)));
            }
        }
        t.commits(6, 2, 1); // version 30 checkpoints and cleans up

        TableDescription d = TableDescription.of(table().toString(), OptimizeOptions.DEFAULT_TARGET_FILE_SIZE);
        assertThat(d.lastCheckpoint()).isEqualTo(30);
        assertThat(TestTables.commitFile(table(), 0)).doesNotExist();
        assertThat(TestTables.commitFile(table(), 19)).doesNotExist();
        assertThat(d.oldestVersion()).isEqualTo(20);
        assertThat(checksumFile(table(), 19)).doesNotExist();
        assertThat(checksumFile(table(), 20)).exists();
        try (Stream<Path> log = Files.list(table().resolve("_delta_log"))) {
            assertThat(log.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".crc")).count())
                    .as("the .crc of versions 20 to 30").isEqualTo(11);
        }
        assertThat(d.transactions()).containsExactly(Map.entry(TestTables.APP, 30L));
        assertThat(TestTables.rows(table())).hasSize(62);
    }

    private static Path checksumFile(Path table, long version) {
        return table.resolve("_delta_log").resolve(String.format("%020d.crc", version));
    }
}
