package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.sink.DeltaTables;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Spark's upserts with foreachBatch, without the boilerplate: the sink MERGEs by key. */
@Tag("integration")
@Timeout(300)
class UpsertScenarioTest {
    static final String SPEC = QuickstartScenarios.SPEC.replace("name: quickstart", "name: upserts")
            .replace("    path: out/", "    path: tgt/\n    mode: upsert\n    keys: [id]");
    static final String[] SIX_ROWS = {
        "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
        "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:02:00Z\"}",
        "{\"id\": 3, \"user\": \"c\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:03:00Z\"}",
        "{\"id\": 3, \"user\": \"c\", \"amt\": 2.0, \"ts\": \"2026-01-01T10:04:00Z\"}",
        "{\"id\": 4, \"user\": \"d\", \"amt\": 3.0, \"ts\": \"2026-01-01T10:05:00Z\"}",
        "{\"id\": 5, \"user\": \"e\", \"amt\": 4.0, \"ts\": \"2026-01-01T10:06:00Z\"}"};

    @TempDir
    Path dir;

    @Test
    void theMergeIsIdempotentAndCollapsesDuplicateKeys() throws Exception {
        Workspace ws = new Workspace(dir, SPEC);
        String table = dir.resolve("tgt").toString();
        ws.addFile("batch-1.json", SIX_ROWS);
        ws.tributary("run").assertOk();
        assertThat(amountsById(table)).containsExactlyInAnyOrderEntriesOf(Map.of(1, 5.0, 2, 7.0, 3, 2.0, 4, 3.0, 5, 4.0));
        ws.tributary("run").assertOk();
        assertThat(DeltaTables.readRows(table)).hasSize(5);

        SeedWindowsScenarioTest.deleteTree(dir.resolve(".tributary")); // the checkpoint deleted: every row again
        ws.tributary("run", "--reprocess").assertOk();
        assertThat(DeltaTables.readRows(table)).as("MERGE by key is idempotent: still 5").hasSize(5);

        ws.addFile("batch-2.json",
                "{\"id\": 2, \"user\": \"b\", \"amt\": 70.0, \"ts\": \"2026-01-01T11:00:00Z\"}",
                "{\"id\": 6, \"user\": \"f\", \"amt\": 6.0, \"ts\": \"2026-01-01T11:01:00Z\"}",
                "{\"id\": 6, \"user\": \"f\", \"amt\": 60.0, \"ts\": \"2026-01-01T11:02:00Z\"}");
        ws.tributary("run").assertOk();
        assertThat(amountsById(table)).as("an update in place, a new key inserted once (the last of its two rows)")
                .containsExactlyInAnyOrderEntriesOf(Map.of(1, 5.0, 2, 70.0, 3, 2.0, 4, 3.0, 5, 4.0, 6, 60.0));
    }

    @Test
    void thePlainAppendSinkKeepsTheDuplicate() {
        Workspace ws = new Workspace(dir, QuickstartScenarios.SPEC);
        ws.addFile("batch-1.json", SIX_ROWS);
        ws.tributary("run").assertOk();
        assertThat(DeltaTables.readRows(dir.resolve("out").toString())).hasSize(6);
    }

    @Test
    void updateAndCompleteOutputModesUpsertByWindowAndGroup() {
        for (String mode : List.of("update", "complete")) {
            Workspace ws = new Workspace(dir.resolve(mode), SeedWindowsScenarioTest.SPEC.replace("outputMode: append", "outputMode: " + mode));
            String table = dir.resolve(mode).resolve("agg").toString();
            ws.addFile("events-1.json",
                    "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                    "{\"id\": 3, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}",
                    "{\"id\": 5, \"user\": \"c\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:20:00Z\"}");
            ws.tributary("run").assertOk();
            assertThat(GoldenWindowsScenarioTest.table(table)).as(mode).containsExactlyInAnyOrder(
                    "{2026-01-01 10:00:00, 2026-01-01 10:10:00}|a|5.0",
                    "{2026-01-01 10:00:00, 2026-01-01 10:10:00}|b|7.0",
                    "{2026-01-01 10:20:00, 2026-01-01 10:30:00}|c|1.0");
            ws.addFile("events-2.json",
                    "{\"id\": 6, \"user\": \"c\", \"amt\": 2.0, \"ts\": \"2026-01-01T10:22:00Z\"}",
                    "{\"id\": 7, \"user\": \"a\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:24:00Z\"}");
            ws.tributary("run").assertOk();
            assertThat(GoldenWindowsScenarioTest.table(table)).as(mode + ": the changed row in place, the new one added")
                    .containsExactlyInAnyOrder(
                            "{2026-01-01 10:00:00, 2026-01-01 10:10:00}|a|5.0",
                            "{2026-01-01 10:00:00, 2026-01-01 10:10:00}|b|7.0",
                            "{2026-01-01 10:20:00, 2026-01-01 10:30:00}|c|3.0",
                            "{2026-01-01 10:20:00, 2026-01-01 10:30:00}|a|1.0");
        }
    }

    static Map<Object, Object> amountsById(String table) {
        return DeltaTables.readRows(table).stream().collect(Collectors.toMap(r -> r[0], r -> r[2]));
    }
}
