package io.tributary.sink.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.sink.DeltaTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Vacuum on tables Spark 4.2 + Delta 4.4 wrote with deletion vectors, whose oldest commits are gone
 * so that what they did is known only from the checkpoint: a V2 checkpoint with a sidecar, and a
 * classic checkpoint in two parts (src/test/resources/spark-tables, made by compat/spark's
 * SparkFixtures). Version 6 holds file A with deletion vector DV2 (ids 1, 4, 6..10) and file C
 * (ids 21..25); A's first deletion vector DV1 (v3) and file B (v5, every row deleted) are only in
 * removes; Spark also left one deletion vector that no action names.
 */
class VacuumSparkTablesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<Integer> IDS = List.of(1, 4, 6, 7, 8, 9, 10, 21, 22, 23, 24, 25);

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"dv-v2-checkpoint", "dv-multipart-checkpoint"})
    void referencedFilesAndDeletionVectorsAreKeptAndOnlyUnreferencedOnesGo(String fixture) throws IOException {
        Path table = SparkTables.copy(fixture, dir);
        Fixture f = Fixture.read(SparkTables.actions(fixture));
        long created = createdTime(table);
        assertThat(f.firstRemoval - created).as("the fixture's first DELETE came after its CREATE").isGreaterThan(1_000);
        for (Path p : files(table)) {
            Files.setLastModifiedTime(p, FileTime.fromMillis(created)); // written long ago, right after the table was created
        }
        List<String> before = names(table);
        String sparkOrphanDv = before.stream().filter(n -> n.startsWith("deletion_vector_") && !n.equals(f.dv1) && !n.equals(f.dv2))
                .findFirst().orElseThrow();
        assertThat(before).contains(f.a, f.b, f.c, f.dv1, f.dv2).hasSize(6);
        Path orphan = table.resolve("part-00000-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d-c000.snappy.parquet"); // a failed Spark task's
        Files.copy(table.resolve(f.c), orphan);
        Files.setLastModifiedTime(orphan, FileTime.fromMillis(created));
        Path notes = table.resolve("notes.txt");
        Files.writeString(notes, "not the table's");
        Files.setLastModifiedTime(notes, FileTime.fromMillis(created));
        assertThat(readIds(table)).isEqualTo(IDS);

        // every remove is within the retention (the cutoff falls between the CREATE and the first DELETE): only the files no action names go
        Duration sinceCreation = Duration.ofMillis(System.currentTimeMillis() - (created + f.firstRemoval) / 2);
        VacuumResult kept = new Vacuum(table.toString()).run(sinceCreation, false, true);

        assertThat(kept.files()).containsExactlyInAnyOrder(sparkOrphanDv, orphan.getFileName().toString());
        assertThat(kept.leftAlone()).containsExactly("notes.txt");
        assertThat(names(table)).containsExactlyInAnyOrder(f.a, f.b, f.c, f.dv1, f.dv2, "notes.txt");
        assertThat(readIds(table)).isEqualTo(IDS);

        // no retention: B (removed at v5) and DV1 (replaced at v4) go too; A, its DV2 and C stay
        VacuumResult all = new Vacuum(table.toString()).run(Duration.ZERO, false, true);

        assertThat(all.files()).containsExactlyInAnyOrder(f.b, f.dv1);
        assertThat(all.filesKept()).isEqualTo(2);
        assertThat(names(table)).containsExactlyInAnyOrder(f.a, f.c, f.dv2, "notes.txt");
        assertThat(readIds(table)).isEqualTo(IDS);
    }

    /**
     * The parts the fixture's files play, from the actions SparkFixtures wrote down before deleting
     * the commits: A (v1), B (v2, removed whole at v5), C (v6), A's deletion vectors DV1 (v3) and DV2 (v4).
     */
    private record Fixture(String a, String b, String c, String dv1, String dv2, long firstRemoval) {
        static Fixture read(Path actions) throws IOException {
            String a = null;
            String b = null;
            String c = null;
            String dv1 = null;
            String dv2 = null;
            long firstRemoval = Long.MAX_VALUE;
            for (String line : Files.readAllLines(actions)) {
                String[] w = line.split(" ");
                String at = w[0] + " " + w[1];
                switch (at) {
                    case "v1 add" -> a = w[2];
                    case "v2 add" -> b = w[2];
                    case "v6 add" -> c = w[2];
                    case "v3 add" -> dv1 = w[3];
                    case "v4 add" -> dv2 = w[3];
                    default -> { }
                }
                if (w[1].equals("remove")) {
                    firstRemoval = Math.min(firstRemoval, Long.parseLong(w[4]));
                }
            }
            return new Fixture(a, b, c, dv1, dv2, firstRemoval);
        }
    }

    private static List<Integer> readIds(Path table) {
        return DeltaTables.readRows(table.toString()).stream().map(r -> (Integer) r[0]).sorted().toList();
    }

    /** The names of the files in the table's root (its data files and deletion vectors). */
    private static List<String> names(Path table) {
        return files(table).stream().map(p -> p.getFileName().toString()).sorted().toList();
    }

    private static List<Path> files(Path table) {
        try (Stream<Path> s = Files.list(table)) {
            return s.filter(Files::isRegularFile).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The checksum of the latest version holds the table's metadata, its creation time included. */
    private static long createdTime(Path table) throws IOException {
        return JSON.readTree(table.resolve("_delta_log/00000000000000000006.crc").toFile()).path("metadata").path("createdTime").asLong();
    }
}
