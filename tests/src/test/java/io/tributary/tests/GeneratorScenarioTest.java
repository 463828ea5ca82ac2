package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.sink.DeltaTables;
import io.tributary.testing.CommittedRecords;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files whose lines hold JSON arrays and maps, exploded by a {@code sql:} query's LATERAL VIEWs (or table functions of FROM)
 * into a Delta table: the table
 * holds Spark 4.2's rows of the same query ({@code golden/generators}), the ingest's numInputRows counts the lines read and
 * the sink the rows made; a row whose exploded element fails a cast goes to the dead-letter topic, and the others flow.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(300)
class GeneratorScenarioTest {
    @TempDir
    Path dir;
    @RegisterExtension
    final PipelineBroker kafka = new PipelineBroker();

    private static String golden(String name) throws IOException {
        try (InputStream in = GeneratorScenarioTest.class.getClassLoader().getResourceAsStream("golden/generators/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static List<String> lines(String name) throws IOException {
        return Arrays.stream(golden(name).split("\n")).filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
    }

    /** The query of golden case {@code c} and Spark's rows of it, without the case number. */
    private static String query(int c) throws IOException {
        String[] f = lines("cases.txt").get(c).split("\t");
        assertThat(f[0]).isEqualTo("sql");
        return f[1];
    }

    private static List<String> sparkRows(int c) throws IOException {
        return lines("spark.tsv").stream().filter(l -> l.startsWith(c + "\t")).map(l -> l.substring(l.indexOf('\t') + 1)).toList();
    }

    private Workspace workspace(int c) throws IOException {
        String schema = new com.fasterxml.jackson.databind.ObjectMapper().readTree(golden("case.json")).get("schema").asText();
        Workspace ws = kafka.workspace(dir, """
                name: lines
                source:
                  files:
                    path: in/
                    format: json
                    schema: "%s"
                sql: "%s"
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """.formatted(schema, query(c)));
        List<String> rows = lines("rows.jsonl");
        ws.addFile("a.json", rows.subList(0, 3).toArray(String[]::new));
        ws.addFile("b.json", rows.subList(3, rows.size()).toArray(String[]::new));
        return ws;
    }

    private List<String> table() {
        return DeltaTables.readRows(dir.resolve("out").toString()).stream()
                .map(r -> Arrays.stream(r).map(v -> v == null ? "\\N" : v.toString()).collect(Collectors.joining("\t"))).toList();
    }

    @Test
    void twoLateralViewsOfJsonArraysAndMapsGiveSparksTable() throws IOException {
        int c = 25; // SELECT id, tag, k, v FROM source LATERAL VIEW explode(tags) t AS tag LATERAL VIEW explode(props) p AS k, v
        Workspace.Result run = workspace(c).tributary("run").assertOk();

        List<String> spark = sparkRows(c);
        assertThat(spark).hasSize(9);
        assertThat(table()).containsExactlyInAnyOrderElementsOf(spark);
        assertThat(run.summary().get("numInputRows").asLong()).as("the lines read, those whose arrays are empty or null too").isEqualTo(5);
        long published = run.progress("lines/ingest").stream().map(p -> p.path("sink").path("numOutputRows")).filter(JsonNode::isNumber)
                .mapToLong(JsonNode::asLong).sum();
        assertThat(published).as("the rows the lines made").isEqualTo(9);
    }

    @Test
    void twoTableFunctionsOfFromGiveSparksTable() throws IOException {
        int c = 92; // SELECT id * 10 AS ten, upper(t.col) AS u, cast(c.col AS INT) + 1 AS n FROM source, LATERAL explode(tags) t, ...
        assertThat(query(c)).contains("LATERAL explode(tags) t, LATERAL explode(codes) c");
        workspace(c).tributary("run").assertOk();

        List<String> spark = sparkRows(c);
        assertThat(spark).hasSize(5);
        assertThat(table()).containsExactlyInAnyOrderElementsOf(spark);
    }

    @Test
    void anElementThatFailsItsCastSendsItsLineToTheDeadLetterTopic() throws IOException {
        int c = 33; // SELECT id, cast(c AS INT) AS n FROM source LATERAL VIEW explode(codes) t AS c
        assertThat(sparkRows(c)).containsExactly("!CAST_INVALID_INPUT"); // Spark fails the query
        workspace(c).tributary("run").assertOk();

        assertThat(table()).containsExactlyInAnyOrder("1\t1", "1\t2", "5\t-3");
        List<String> dead = CommittedRecords.read(kafka.client(), "tributary.lines.deadletter").stream()
                .map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList();
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0)).contains("b.json").contains("\"line\":1").contains("CAST_INVALID_INPUT");
    }
}
