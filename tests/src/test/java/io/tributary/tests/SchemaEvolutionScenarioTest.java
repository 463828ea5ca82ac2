package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.sink.DeltaTables;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Auto Loader's schema evolution modes on a folder of JSON files whose fields grow: addNewColumns,
 * rescue, failOnNewColumns (none is the plain file source's behaviour, covered elsewhere).
 */
@Tag("integration")
@Timeout(300)
class SchemaEvolutionScenarioTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static String spec(String mode, String extra) {
        return """
                name: evolving
                source:
                  files:
                    path: in/
                    schema: "id INT, user STRING"
                    schemaEvolution: %s
                sink:
                  delta:
                    path: out/
                %s
                trigger: availableNow
                """.formatted(mode, extra);
    }

    @TempDir
    Path dir;

    @Test
    void addNewColumnsGrowsTheSchemaRecordsItAndTheTableGainsTheColumnsWithTheFirstRows() {
        Workspace w = new Workspace(dir, spec("addNewColumns", "    mergeSchema: true"));
        String table = dir.resolve("out").toString();
        w.addFile("a.json", "{\"id\": 1, \"user\": \"a\"}");
        w.tributary("run").assertOk();
        assertThat(DeltaTables.schema(table).orElseThrow().toDdl()).isEqualTo("id INT, user STRING");

        w.addFile("b.json", "{\"id\": 2, \"user\": \"b\"}", "{\"id\": 3, \"user\": \"c\", \"country\": \"NL\", \"score\": 1.5}",
                "{\"id\": 4, \"user\": \"d\", \"score\": 2, \"tags\": [\"x\"], \"geo\": {\"lat\": 52.1, \"lon\": 5}}");
        Workspace.Result grew = w.tributary("run").assertOk();
        assertThat(grew.summary().get("numInputRows").asLong()).isEqualTo(3);
        String grown = "id INT, user STRING, country STRING, score DOUBLE, tags ARRAY<STRING>, geo STRUCT<lat: DOUBLE, lon: BIGINT>";
        assertThat(DeltaTables.schema(table).orElseThrow().toDdl()).isEqualTo(grown);
        assertThat(DeltaTables.history(table)).as("the schema changed in the commit of the first rows that carry it").hasSize(2);
        List<Object[]> rows = sorted(DeltaTables.readRows(table));
        assertThat(rows.get(0)).containsExactly(1, "a", null, null, null, null);
        assertThat(rows.get(1)).containsExactly(2, "b", null, null, null, null);
        assertThat(rows.get(2)).containsExactly(3, "c", "NL", 1.5, null, null);
        assertThat(rows.get(3)[3]).isEqualTo(2.0);
        assertThat((Object[]) rows.get(3)[5]).containsExactly(52.1, 5L);

        Workspace.Result show = w.tributary("checkpoint show").assertOk();
        assertThat(show.out()).contains("schema " + grown);

        // the next run reads with the recorded schema from its first file
        w.addFile("c.json", "{\"id\": 5, \"user\": \"e\", \"country\": \"BE\"}");
        w.tributary("run").assertOk();
        Object[] fifth = sorted(DeltaTables.readRows(table)).get(4);
        assertThat(fifth).containsExactly(5, "e", "BE", null, null, null);
    }

    @Test
    void rescueKeepsUnknownFieldsAndWrongTypesInRescuedDataWithTheFilePath() throws IOException {
        Workspace w = new Workspace(dir, spec("rescue", ""));
        Path file = w.addFile("a.json", "{\"id\": 1, \"user\": \"a\", \"extra\": {\"k\": [1, 2]}}", "{\"id\": \"two\", \"user\": \"b\"}",
                "{\"id\": 3, \"user\": \"c\"}", "{\"id\": 4, \"user\": \"d\"");
        Workspace.Result run = w.tributary("run").assertOk();
        assertThat(run.summary().get("numInputRows").asLong()).isEqualTo(3);
        String table = dir.resolve("out").toString();
        assertThat(DeltaTables.schema(table).orElseThrow().toDdl()).isEqualTo("id INT, user STRING, _rescued_data STRING");
        List<Object[]> rows = DeltaTables.readRows(table).stream().sorted(Comparator.comparing(r -> (String) r[1])).toList();
        JsonNode first = JSON.readTree((String) rows.get(0)[2]);
        assertThat(first.get("extra").toString()).isEqualTo("{\"k\":[1,2]}");
        assertThat(first.get("_file_path").asText()).isEqualTo(file.toString());
        assertThat(rows.get(1)[0]).isNull();
        assertThat(JSON.readTree((String) rows.get(1)[2]).get("id").asText()).isEqualTo("two");
        assertThat(rows.get(2)[2]).isNull();
        // malformed JSON is still a bad record (dead-lettered)
        assertThat(run.summary().path("stages").path("evolving/ingest").path("lastSinkMetrics").path("numDeadLetterRows").asLong()).isEqualTo(1);
    }

    @Test
    void failOnNewColumnsStopsNamingTheFieldFileAndLineAndPublishesNothing() {
        Workspace w = new Workspace(dir, spec("failOnNewColumns", ""));
        w.addFile("a.json", "{\"id\": 1, \"user\": \"a\"}", "{\"id\": 2, \"user\": \"b\", \"country\": \"NL\"}");
        Workspace.Result run = w.tributary("run");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("a.json line 2").contains("'country'").contains("failOnNewColumns");
        assertThat(DeltaTables.exists(dir.resolve("out").toString())).isFalse();
    }

    @Test
    void addNewColumnsWithoutMergeSchemaIsRefusedAtStart() {
        Workspace w = new Workspace(dir, spec("addNewColumns", ""));
        Workspace.Result run = w.tributary("run");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("sink.delta.mergeSchema: true");
    }

    private static List<Object[]> sorted(List<Object[]> rows) {
        return rows.stream().sorted(Comparator.comparing(r -> (Integer) r[0])).toList();
    }
}
