package io.tributary.sink.internal;

import static io.tributary.sink.internal.CopyOnWriteUpsertTest.SCHEMA;
import static io.tributary.sink.internal.CopyOnWriteUpsertTest.r;
import static io.tributary.sink.internal.UpsertTables.batch;
import static io.tributary.sink.internal.UpsertTables.tombstone;
import static io.tributary.sink.internal.UpsertTables.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.maintenance.SparkTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Spark changes rows of the table while the upsert sink writes a batch: Spark's own {@code DELETE},
 * {@code UPDATE}, {@code MERGE} and {@code OPTIMIZE} commits (recorded by compat/spark's
 * SparkConcurrentCommits, on tables with deletion vectors and without) land between the sink's plan and
 * its commit. The table must then equal the serial result: Spark's change, then the batch.
 *
 * <p>Each table holds ids 1..20 in two files (A: 1..10, B: 11..20) at version 2; Spark's commit is version 3.
 * The batch updates 2 and 5 (in A; Spark's DELETE removes 5), 15 (in B), inserts 30 and deletes 7.
 */
class SparkConcurrentChangesTest {
    @TempDir
    Path dir;

    private final Engine engine = KernelEngines.create();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"delete-dv", "delete-copy", "update-dv", "update-copy", "merge-dv", "merge-copy", "optimize-dv", "optimize-copy"})
    void sparksCommitAtTheSinksCommitPointGivesTheSerialResult(String fixture) {
        Map<Integer, String> serial = sparkResult(fixture);
        serial.put(2, "ours/2.5");
        serial.put(5, "ours/5.5");
        serial.put(15, "ours/15.5");
        serial.put(30, "ours/30.5");
        serial.remove(7);

        Path table = SparkTables.copy("concurrent/" + fixture, dir.resolve("race"));
        CommitResult result = write(upsert(table, attempt -> {
            if (attempt == 1) {
                sparkCommits(fixture, table);
            }
        }), 0, changes());

        assertThat(result.version()).isEqualTo(4);
        assertThat(result.metrics()).containsEntry("replans", 1);
        assertThat(rows(table)).as("the table after Spark's %s and the batch", fixture).isEqualTo(serial);
    }

    /** The table after Spark's commit alone, as id -> "user/amt". */
    private Map<Integer, String> sparkResult(String fixture) {
        Path table = SparkTables.copy("concurrent/" + fixture, dir.resolve("serial"));
        sparkCommits(fixture, table);
        assertThat(DeltaTables.latestVersion(table.toString())).isEqualTo(3);
        return rows(table);
    }

    private static io.tributary.sink.internal.TopicBatch changes() {
        return batch(r(2, "ours", 2.5), r(5, "ours", 5.5), r(15, "ours", 15.5), r(30, "ours", 30.5), tombstone("[7]"));
    }

    private CopyOnWriteUpsert upsert(Path table, RewriteCommitter.BeforeCommit beforeCommit) {
        DeltaTableWriter w = new DeltaTableWriter(engine, table.toString(), SCHEMA, Map.of());
        return new CopyOnWriteUpsert(w, new RewriteCommitter(w, beforeCommit), new KeyColumns(SCHEMA, List.of("id")), null, 100);
    }

    /** Spark's recorded commit 3 lands in the table's log, as Spark's own commit would. */
    private static void sparkCommits(String fixture, Path table) {
        try {
            Files.copy(SparkTables.resource("concurrent/" + fixture + ".commit.json"),
                    table.resolve("_delta_log").resolve(String.format("%020d.json", 3)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every row by id; a key held twice fails. */
    private static Map<Integer, String> rows(Path table) {
        Map<Integer, String> out = new TreeMap<>();
        List<Integer> twice = new ArrayList<>();
        for (Object[] row : DeltaTables.readRows(table.toString())) {
            if (out.put((Integer) row[0], row[1] + "/" + row[2]) != null) {
                twice.add((Integer) row[0]);
            }
        }
        assertThat(twice).as("keys held twice in %s", table).isEmpty();
        return out;
    }
}
