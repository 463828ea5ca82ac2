package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.sink.DeltaTables;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The seed's "Reading a Delta table as a stream": a bronze table written by Tributary feeds a silver one. */
@Tag("integration")
@Timeout(300)
class BronzeSilverScenarioTest {
    static final String SILVER = """
            name: silver
            source:
              delta:
                path: ../bronze/out/
            sink:
              delta:
                path: out/
            trigger: availableNow
            """;

    @TempDir
    Path dir;

    @Test
    void eachNewBronzeCommitFlowsToSilverOnce() {
        Workspace bronze = new Workspace(dir.resolve("bronze"), QuickstartScenarios.SPEC.replace("quickstart", "bronze"));
        Workspace silver = new Workspace(dir.resolve("silver"), SILVER);
        String silverTable = dir.resolve("silver/out").toString();

        bronze.addFile("a.json",
                "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}");
        bronze.tributary("run").assertOk();
        Workspace.Result first = silver.tributary("run").assertOk();
        assertThat(first.summary().get("numInputRows").asLong()).isEqualTo(2);
        assertThat(DeltaTables.readRows(silverTable)).hasSize(2);

        bronze.addFile("b.json", "{\"id\": 3, \"user\": \"c\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:20:00Z\"}");
        bronze.tributary("run").assertOk();
        silver.tributary("run").assertOk();
        silver.tributary("run").assertOk();
        assertThat(DeltaTables.readRows(silverTable)).extracting(r -> r[0]).containsExactlyInAnyOrder(1, 2, 3);
        assertThat(DeltaTables.schema(silverTable).orElseThrow().toDdl()).isEqualTo("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");
    }
}
