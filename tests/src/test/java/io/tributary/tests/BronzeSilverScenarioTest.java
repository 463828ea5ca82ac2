package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.sink.DeltaTables;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Reading a Delta table as a stream: a bronze table written by Tributary feeds a silver one. */
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

    @Test
    void anUpsertUpstreamStopsTheStreamUnlessSkippedAndCompactionIsIgnored() {
        Workspace bronze = new Workspace(dir.resolve("bronze"), UpsertScenarioTest.SPEC.replace("name: upserts", "name: bronze")
                .replace("path: tgt/", "path: out/"));
        Workspace silver = new Workspace(dir.resolve("silver"), SILVER);
        String silverTable = dir.resolve("silver/out").toString();

        bronze.addFile("a.json",
                "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}");
        bronze.tributary("run").assertOk();
        silver.tributary("run").assertOk();
        assertThat(DeltaTables.readRows(silverTable)).hasSize(2);

        bronze.addFile("b.json", "{\"id\": 1, \"user\": \"a\", \"amt\": 50.0, \"ts\": \"2026-01-01T11:00:00Z\"}");
        bronze.tributary("run").assertOk(); // rewrites the file that held id 1: a change commit, version 1
        Workspace.Result stopped = silver.tributary("run");
        assertThat(stopped.exitCode()).isEqualTo(1);
        assertThat(stopped.err()).contains("DELTA_SOURCE_TABLE_IGNORE_CHANGES").contains("version 1").contains("skipChangeCommits");

        bronze.addFile("c.json", "{\"id\": 3, \"user\": \"c\", \"amt\": 1.0, \"ts\": \"2026-01-01T11:05:00Z\"}");
        bronze.tributary("run").assertOk();
        silver.tributary("run", "--set", "source.delta.skipChangeCommits=true").assertOk();
        assertThat(UpsertScenarioTest.amountsById(silverTable)).as("the change commit skipped entirely, the append after it flows")
                .containsExactlyInAnyOrderEntriesOf(java.util.Map.of(1, 5.0, 2, 7.0, 3, 1.0));

        Workspace.Result optimize = new Workspace(dir.resolve("upkeep"), "").tributaryRaw("optimize", dir.resolve("bronze/out").toString());
        optimize.assertOk();
        Workspace.Result after = silver.tributary("run", "--set", "source.delta.skipChangeCommits=true").assertOk();
        assertThat(after.summary().get("numInputRows").asLong()).as("a compaction (dataChange=false) re-emits nothing").isZero();
        assertThat(DeltaTables.readRows(silverTable)).hasSize(3);
    }

    @Test
    void columnsAddedUpstreamReachTheSilverTableWithMergeSchema() {
        Workspace bronze = new Workspace(dir.resolve("bronze"), SchemaEvolutionScenarioTest.spec("addNewColumns", "    mergeSchema: true")
                .replace("name: evolving", "name: bronze"));
        Workspace silver = new Workspace(dir.resolve("silver"), SILVER.replace("    path: out/", "    path: out/\n    mergeSchema: true"));
        String silverTable = dir.resolve("silver/out").toString();

        bronze.addFile("a.json", "{\"id\": 1, \"user\": \"a\"}");
        bronze.tributary("run").assertOk();
        silver.tributary("run").assertOk();
        assertThat(DeltaTables.schema(silverTable).orElseThrow().toDdl()).isEqualTo("id INT, user STRING");

        bronze.addFile("b.json", "{\"id\": 2, \"user\": \"b\", \"country\": \"NL\"}");
        bronze.tributary("run").assertOk(); // the bronze table gains country
        silver.tributary("run").assertOk();
        assertThat(DeltaTables.schema(silverTable).orElseThrow().toDdl()).isEqualTo("id INT, user STRING, country STRING");
        assertThat(DeltaTables.readRows(silverTable)).extracting(r -> r[0] + "|" + r[1] + "|" + r[2])
                .containsExactlyInAnyOrder("1|a|null", "2|b|NL");
    }
}
