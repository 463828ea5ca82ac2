package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.sink.DeltaTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pipeline whose input types grow (INT to BIGINT, FLOAT to DOUBLE, DATE to TIMESTAMP_NTZ) writes
 * into its table only with Delta's type widening opted in; any other type change stops the run.
 */
@Tag("integration")
@Timeout(600)
class TypeWideningScenarioTest {
    static final String NARROW = "id INT, amt FLOAT, day DATE, name STRING";
    static final String WIDE = "id BIGINT, amt DOUBLE, day TIMESTAMP_NTZ, name STRING";

    static String spec(String schema, boolean widening) {
        return """
                name: widening
                source:
                  files:
                    path: in/
                    schema: "%s"
                sink:
                  delta:
                    path: out/
                    mergeSchema: true
                %s
                trigger: availableNow
                """.formatted(schema, widening ? "    properties:\n      delta.enableTypeWidening: \"true\"" : "");
    }

    @TempDir
    Path dir;

    @Test
    void theTableWidensItsColumnsKeepsEveryRowAndRefusesAnyOtherChange() throws IOException {
        String table = dir.resolve("out").toString();
        Workspace narrow = new Workspace(dir, spec(NARROW, true));
        narrow.addFile("a.json", "{\"id\": 1, \"amt\": 1.5, \"day\": \"2026-01-01\", \"name\": \"a\"}",
                "{\"id\": 2, \"amt\": 2.25, \"day\": \"2026-01-02\", \"name\": \"b\"}");
        narrow.tributary("run").assertOk();
        assertThat(DeltaTables.schema(table).orElseThrow().toDdl()).isEqualTo(NARROW);

        Workspace wide = new Workspace(dir, spec(WIDE, true));
        wide.addFile("b.json", "{\"id\": 3000000000, \"amt\": 0.1, \"day\": \"2026-01-03T10:30:00\", \"name\": \"c\"}");
        wide.tributary("run").assertOk();
        assertThat(DeltaTables.schema(table).orElseThrow().toDdl()).isEqualTo(WIDE);
        assertThat(DeltaTables.history(table)).as("the types changed in the commit of the first rows that carry them").hasSize(2);
        String widened = Files.readString(dir.resolve("out/_delta_log/00000000000000000001.json"));
        assertThat(widened).as("the commit adds the timestampNtz feature TIMESTAMP_NTZ needs, as Spark asks")
                .containsPattern("\"protocol\":\\{[^}]*\"readerFeatures\":\\[[^]]*\"timestampNtz\"");
        List<Object[]> rows = DeltaTables.readRows(table).stream().sorted(Comparator.comparing(r -> (Long) r[0])).toList();
        assertThat(rows).hasSize(3);
        assertThat(rows.get(0)).containsExactly(1L, 1.5, 1767225600000000L, "a"); // 2026-01-01T00:00, the date's midnight
        assertThat(rows.get(1)).containsExactly(2L, 2.25, 1767312000000000L, "b");
        assertThat(rows.get(2)).containsExactly(3000000000L, 0.1, 1767436200000000L, "c");

        Workspace changed = new Workspace(dir, spec(WIDE.replace("id BIGINT", "id STRING"), true));
        changed.addFile("c.json", "{\"id\": \"x4\", \"amt\": 1, \"day\": \"2026-01-04T00:00:00\", \"name\": \"d\"}");
        Workspace.Result refused = changed.tributary("run");
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.err()).contains("column id BIGINT, the pipeline writes STRING")
                .contains("Delta does not change a column to that type").contains("table: " + WIDE);
        assertThat(DeltaTables.readRows(table)).hasSize(3);
    }

    @Test
    void withoutTheTableFeatureAWideningIsRefusedNamingTheSetting() {
        String table = dir.resolve("out").toString();
        Workspace narrow = new Workspace(dir, spec(NARROW, false));
        narrow.addFile("a.json", "{\"id\": 1, \"amt\": 1.5, \"day\": \"2026-01-01\", \"name\": \"a\"}");
        narrow.tributary("run").assertOk();
        Workspace wide = new Workspace(dir, spec(WIDE, false));
        wide.addFile("b.json", "{\"id\": 3000000000, \"amt\": 0.1, \"day\": \"2026-01-03T10:30:00\", \"name\": \"c\"}");
        Workspace.Result refused = wide.tributary("run");
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.err()).contains("column id INT, the pipeline writes BIGINT").contains("delta.enableTypeWidening=true");
        assertThat(DeltaTables.schema(table).orElseThrow().toDdl()).isEqualTo(NARROW);
    }
}
