package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.sink.DeltaTables;
import io.tributary.sink.TableCommit;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A pipeline whose spec gained columns writes into its existing table only with sink.delta.mergeSchema. */
@Tag("integration")
@Timeout(300)
class MergeSchemaScenarioTest {
    @TempDir
    Path dir;

    @Test
    void newColumnsAreRefusedWithBothSchemasThenAddedWithMergeSchema() {
        Workspace w = new Workspace(dir, QuickstartScenarios.SPEC);
        String table = dir.resolve("out").toString();
        w.addFile("a.json", "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}");
        w.tributary("run").assertOk();

        Workspace grown = new Workspace(dir, QuickstartScenarios.SPEC.replace("ts TIMESTAMP", "ts TIMESTAMP, country STRING, tags ARRAY<STRING>"));
        grown.addFile("b.json", "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\", \"country\": \"NL\", \"tags\": [\"x\"]}");
        Workspace.Result refused = grown.tributary("run");
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.err()).contains("lacks the pipeline's columns country, tags")
                .contains("table: id INT, user STRING, amt DOUBLE, ts TIMESTAMP;")
                .contains("pipeline: id INT, user STRING, amt DOUBLE, ts TIMESTAMP, country STRING, tags ARRAY<STRING>")
                .contains("sink.delta.mergeSchema: true");
        assertThat(DeltaTables.schema(table).orElseThrow().toDdl()).isEqualTo("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");

        grown.tributary("run", "--set", "sink.delta.mergeSchema=true").assertOk();
        assertThat(DeltaTables.schema(table).orElseThrow().toDdl())
                .isEqualTo("id INT, user STRING, amt DOUBLE, ts TIMESTAMP, country STRING, tags ARRAY<STRING>");
        List<Object[]> rows = DeltaTables.readRows(table).stream().sorted(Comparator.comparing(r -> (Integer) r[0])).toList();
        assertThat(rows.get(0)).containsExactly(1, "a", 5.0, 1767261660000000L, null, null);
        assertThat(rows.get(1)).containsExactly(2, "b", 7.0, 1767261900000000L, "NL", List.of("x"));
        List<TableCommit> history = DeltaTables.history(table);
        assertThat(history).hasSize(2); // the schema changed in the commit of the first rows that carry it

        // the old spec writes on: the table's extra columns are null for its rows, as Spark writes a narrower frame
        w = new Workspace(dir, QuickstartScenarios.SPEC);
        w.addFile("c.json", "{\"id\": 3, \"user\": \"c\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:07:00Z\", \"country\": \"BE\"}");
        w.tributary("run").assertOk();
        Object[] third = DeltaTables.readRows(table).stream().filter(r -> (Integer) r[0] == 3).findFirst().orElseThrow();
        assertThat(third).containsExactly(3, "c", 1.0, 1767262020000000L, null, null);
    }

    @Test
    void aChangedTypeIsRefusedEvenWithMergeSchema() {
        Workspace w = new Workspace(dir, QuickstartScenarios.SPEC);
        w.addFile("a.json", "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}");
        w.tributary("run").assertOk();
        Workspace changed = new Workspace(dir, QuickstartScenarios.SPEC.replace("amt DOUBLE", "amt STRING"));
        changed.addFile("b.json", "{\"id\": 2, \"user\": \"b\", \"amt\": \"7\", \"ts\": \"2026-01-01T10:05:00Z\"}");
        Workspace.Result refused = changed.tributary("run", "--set", "sink.delta.mergeSchema=true");
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.err()).contains("column amt DOUBLE, the pipeline writes STRING").contains("table: ").contains("pipeline: ");
    }
}
