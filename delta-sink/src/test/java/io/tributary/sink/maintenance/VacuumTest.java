package io.tributary.sink.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VacuumTest {
    private static final Duration WEEK = Duration.ofHours(168);

    @TempDir
    Path dir;

    private Path table() {
        return dir.resolve("table");
    }

    private static void age(Path file, Duration by) throws IOException {
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(by)));
    }

    @Test
    void aRetentionShorterThanTheTablesIsRefusedUnlessForced() {
        TestTables.at(table()).commits(2, 5, 1);

        assertThatThrownBy(() -> new Vacuum(table().toString()).run(Duration.ofHours(1), false, false))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("are you sure you would like to vacuum files with such a low retention period (1 hours")
                .hasMessageContaining("delta.deletedFileRetentionDuration of interval 1 week")
                .hasMessageContaining("--force")
                .hasMessageContaining("not less than \"168 hours\"");
        assertThat(new Vacuum(table().toString()).run(Duration.ofHours(1), true, true).files()).isEmpty();
    }

    @Test
    void theTablesOwnRetentionPropertyIsHonoured() {
        new TestTables(table().toString(), List.of(), Map.of("delta.deletedFileRetentionDuration", "interval 2 hours")).commits(1, 5, 1);

        assertThat(new Vacuum(table().toString()).run(Duration.ofHours(2), false, false).files()).isEmpty();
        assertThatThrownBy(() -> new Vacuum(table().toString()).run(Duration.ofHours(1), false, false))
                .hasMessageContaining("not less than \"2 hours\"");
    }

    @Test
    void filesRemovedByOptimizeStayWithinTheRetentionAndGoAfterIt() throws IOException {
        TestTables.at(table()).commits(10, 5, 1);
        List<Path> originals = TestTables.parquetFiles(table());
        for (Path p : originals) {
            age(p, Duration.ofDays(30)); // written long ago; what counts for them is when optimize removed them
        }
        Optimize.run(table().toString(), OptimizeOptions.defaults());
        List<String> rows = TestTables.rows(table());

        VacuumResult kept = new Vacuum(table().toString()).run(WEEK, false, false);
        assertThat(kept.files()).isEmpty();
        assertThat(TestTables.parquetFiles(table())).hasSize(11);

        VacuumResult dry = new Vacuum(table().toString()).run(Duration.ZERO, true, true);
        assertThat(dry.dryRun()).isTrue();
        assertThat(dry.files()).hasSize(10).allMatch(f -> f.endsWith(".parquet"));
        assertThat(TestTables.parquetFiles(table())).hasSize(11);

        VacuumResult done = new Vacuum(table().toString()).run(Duration.ZERO, false, true);
        assertThat(done.files()).isEqualTo(dry.files());
        assertThat(TestTables.parquetFiles(table())).hasSize(1);
        assertThat(TestTables.rows(table())).isEqualTo(rows);
        assertThat(TestTables.commitFile(table(), 0)).exists();
    }

    @Test
    void aFileNeverCommittedIsDeletedOnceOlderThanTheRetention() throws IOException {
        TestTables.at(table()).commits(3, 5, 1);
        TestTables.backdateCreation(table(), Duration.ofDays(60)); // a table in use for two months
        List<String> rows = TestTables.rows(table());
        Path committed = TestTables.parquetFiles(table()).get(0);
        // what a sink attempt that failed before its commit leaves behind: Kernel's <uuid>-000.parquet names
        Path oldOrphan = table().resolve("0b6f7c42-5a59-4d0e-9a47-3f4f2d1c9e01-000.parquet");
        Path newOrphan = table().resolve("7d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6-000.parquet");
        Files.copy(committed, oldOrphan);
        Files.copy(committed, newOrphan);
        age(oldOrphan, Duration.ofDays(8));
        for (Path p : List.of(committed)) {
            age(p, Duration.ofDays(30)); // an old but live file stays
        }
        age(TestTables.commitFile(table(), 0), Duration.ofDays(30)); // the log is never touched

        VacuumResult r = new Vacuum(table().toString()).run(WEEK, false, false);

        assertThat(r.files()).containsExactly(oldOrphan.getFileName().toString());
        assertThat(r.leftAlone()).isEmpty();
        assertThat(oldOrphan).doesNotExist();
        assertThat(newOrphan).exists();
        assertThat(committed).exists();
        assertThat(TestTables.commitFile(table(), 0)).exists();
        assertThat(TestTables.rows(table())).isEqualTo(rows);
    }

    /**
     * A folder that held the user's own files before the table was created there (sink.delta.allowNonEmptyPath):
     * vacuum never deletes them, not even one named like a data file, and says it left them alone.
     */
    @Test
    void filesThatWereInTheFolderBeforeTheTableAreNeverDeleted() throws IOException {
        Files.createDirectories(table().resolve("exports"));
        List<Path> users = List.of(table().resolve("notes.txt"), table().resolve("exports/2024.csv"), table().resolve("data.parquet"),
                table().resolve("part-00000-5e2a8c1d-0f3b-4c6d-9e7f-a1b2c3d4e5f6-c000.snappy.parquet"));
        for (Path p : users) {
            Files.writeString(p, "the user's own " + p.getFileName());
            age(p, Duration.ofDays(30));
        }
        TestTables.at(table()).commits(3, 5, 1);
        Optimize.run(table().toString(), OptimizeOptions.defaults());
        List<String> rows = TestTables.rows(table());

        VacuumResult r = new Vacuum(table().toString()).run(Duration.ZERO, false, true);

        assertThat(r.files()).as("the three files optimize removed").hasSize(3).allMatch(f -> f.endsWith("-000.parquet"));
        for (Path p : users) {
            assertThat(p).exists();
        }
        assertThat(r.leftAlone()).containsExactly("data.parquet", "exports/2024.csv", "notes.txt",
                "part-00000-5e2a8c1d-0f3b-4c6d-9e7f-a1b2c3d4e5f6-c000.snappy.parquet");
        assertThat(r.summary()).contains("4 files the table did not write left alone (data.parquet, exports/2024.csv, notes.txt, ...)");
        assertThat(TestTables.rows(table())).isEqualTo(rows);
    }

    @Test
    void partitionFoldersAreVacuumedToo() throws IOException {
        new TestTables(table().toString(), List.of("date(ts) as day"), Map.of()).commits(3, 4, 2);
        Optimize.run(table().toString(), OptimizeOptions.defaults());
        List<String> rows = TestTables.rows(table());

        VacuumResult r = new Vacuum(table().toString()).run(Duration.ZERO, false, true);

        assertThat(r.files()).hasSize(6).allMatch(f -> f.startsWith("day=2024-05-0"));
        assertThat(TestTables.parquetFiles(table())).hasSize(2);
        assertThat(TestTables.rows(table())).isEqualTo(rows);
    }
}
