package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.sink.DeltaTables;
import io.tributary.testing.CommittedRecords;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Spark job's {@code filter} and {@code selectExpr} in the spec ({@code transform.where},
 * {@code transform.select}): the table gets the rows where the filter holds, with the columns the
 * select makes; a row an expression fails on (Spark's ANSI mode fails the query there) goes to the
 * dead-letter topic naming the file, line, expression and reason, and the other rows flow.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(300)
class TransformScenarioTest {
    static final String SPEC = """
            name: silver
            source:
              files:
                path: in/
                format: json
                schema: "id INT, user STRING, amt STRING, ts TIMESTAMP"
            transform:
              where: "user IS NOT NULL AND cast(amt AS DOUBLE) > 0"
              select:
                - id
                - "lower(trim(user)) AS user"
                - "cast(amt AS DECIMAL(10,2)) AS amt"
                - "to_date(ts) AS day"
            sink:
              delta:
                path: out/
            trigger: availableNow
            """;

    @TempDir
    Path dir;
    @RegisterExtension
    final PipelineBroker kafka = new PipelineBroker();

    private Workspace workspace(String spec) {
        return kafka.workspace(dir, spec);
    }

    private void addInput(Workspace ws) {
        ws.addFile("orders.json",
                "{\"id\": 1, \"user\": \"  Ann \", \"amt\": \"5.5\", \"ts\": \"2026-01-01T10:01:00Z\"}",
                "{\"id\": 2, \"user\": null, \"amt\": \"7\", \"ts\": \"2026-01-01T10:02:00Z\"}",
                "{\"id\": 3, \"user\": \"Bob\", \"amt\": \"-1\", \"ts\": \"2026-01-01T10:03:00Z\"}",
                "{\"id\": 4, \"user\": \"Cy\", \"amt\": \"abc\", \"ts\": \"2026-01-01T10:04:00Z\"}",
                "{\"id\": 5, \"user\": \"DEE\", \"amt\": \"12.345\", \"ts\": \"2024-02-29T23:59:59Z\"}");
    }

    @Test
    void whereAndSelectShapeTheTableAndAFailingRowIsDeadLettered() {
        Workspace ws = workspace(SPEC);
        addInput(ws);

        Workspace.Result run = ws.tributary("run").assertOk();

        String table = dir.resolve("out").toString();
        assertThat(DeltaTables.schema(table).orElseThrow().toDdl()).isEqualTo("id INT, user STRING, amt DECIMAL(10,2), day DATE");
        assertThat(DeltaTables.readRows(table)).extracting(r -> r[0] + "|" + r[1] + "|" + r[2] + "|" + LocalDate.ofEpochDay((Integer) r[3]))
                .containsExactlyInAnyOrder("1|ann|5.50|2026-01-01", "5|dee|12.35|2024-02-29");
        assertThat(run.summary().get("numInputRows").asLong()).as("the rows published; the filtered and the failed are not").isEqualTo(2);

        List<String> dead = CommittedRecords.read(kafka.client(), "tributary.silver.deadletter").stream()
                .map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList();
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0)).contains("orders.json").contains("\"line\":4").contains("cast(amt AS DOUBLE)").contains("CAST_INVALID_INPUT")
                .contains("abc");
    }

    @Test
    void failModeStopsAtTheRowAnExpressionFailsOnNamingFileLineAndExpression() {
        Workspace ws = workspace(SPEC.replace("format: json", "format: json\n    onBadRecord: fail"));
        addInput(ws);

        Workspace.Result run = ws.tributary("run");

        assertThat(run.exitCode()).isNotZero();
        assertThat(run.err()).contains("orders.json:4").contains("cast(amt AS DOUBLE)").contains("CAST_INVALID_INPUT");
        assertThat(Files.exists(dir.resolve("out/_delta_log"))).isFalse();
    }

    @Test
    void aBadExpressionIsRefusedAtStartNamingTheKeyAndWhatIsWrong() {
        Workspace.Result unknownColumn = workspace(SPEC.replace("lower(trim(user)) AS user", "lower(trim(usr)) AS user")).tributary("run");
        assertThat(unknownColumn.exitCode()).isNotZero();
        assertThat(unknownColumn.err()).contains("transform.select").contains("no column 'usr'").contains("id, user, amt, ts");

        Workspace.Result unknownFunction = workspace(SPEC.replace("user IS NOT NULL AND", "nosuch(user) AND")).tributary("run");
        assertThat(unknownFunction.exitCode()).isNotZero();
        assertThat(unknownFunction.err()).contains("transform.where").contains("unknown function 'nosuch'");

        Workspace.Result syntax = workspace(SPEC.replace("cast(amt AS DOUBLE) > 0", "cast(amt AS DOUBLE) >")).tributary("run");
        assertThat(syntax.exitCode()).isNotZero();
        assertThat(syntax.err()).contains("transform.where").contains("does not parse");
        assertThat(Files.exists(dir.resolve("out/_delta_log"))).isFalse();
    }

    @Test
    void anAggregationGroupsByAndSumsWhatExpressionsCompute() {
        Workspace ws = workspace("""
                name: revenue
                source:
                  files:
                    path: in/
                    format: json
                    schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
                transform:
                  where: "amt > 0"
                aggregate:
                  eventTime: ts
                  window: 10 minutes
                  groupBy: ["lower(trim(user)) AS u"]
                  select: { t: "sum(amt * 2)", big: "count_if(amt > 4)" }
                outputMode: complete
                sink:
                  delta:
                    path: agg/
                trigger: availableNow
                """);
        ws.addFile("events.json",
                "{\"id\": 1, \"user\": \" A \", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                "{\"id\": 2, \"user\": \"a\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:04:00Z\"}",
                "{\"id\": 3, \"user\": \"B\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}",
                "{\"id\": 4, \"user\": \"a\", \"amt\": -2.0, \"ts\": \"2026-01-01T10:09:00Z\"}",
                "{\"id\": 5, \"user\": \"c\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:20:00Z\"}");

        ws.tributary("run").assertOk();

        String table = dir.resolve("agg").toString();
        assertThat(DeltaTables.schema(table).orElseThrow().fields()).extracting(f -> f.name()).containsExactly("window", "u", "t", "big");
        assertThat(GoldenWindowsScenarioTest.table(table)).containsExactlyInAnyOrder(NoWatermarkScenarioTest.W1000 + "|a|12.0",
                NoWatermarkScenarioTest.W1000 + "|b|14.0", NoWatermarkScenarioTest.W1020 + "|c|2.0");
        assertThat(DeltaTables.readRows(table)).extracting(r -> r[1] + "|" + r[3]).as("count_if(amt > 4) per group")
                .containsExactlyInAnyOrder("a|1", "b|1", "c|0");
    }

    @Test
    void structSelectItemsLandAsStructColumnsAndStructsCompare() {
        Workspace ws = workspace(SPEC.replace("""
                  where: "user IS NOT NULL AND cast(amt AS DOUBLE) > 0"
                  select:
                    - id
                    - "lower(trim(user)) AS user"
                    - "cast(amt AS DECIMAL(10,2)) AS amt"
                    - "to_date(ts) AS day"
                """, """
                  where: "user IS NOT NULL AND struct(id, user) <> struct(3, 'Bob') AND array(id) NOT IN (array(4))"
                  select:
                    - id
                    - "named_struct('name', lower(trim(user)), 'ids', array(id, id * 10)) AS info"
                    - "struct(id, user).user AS u"
                    - "struct(id, amt) AS s"
                """));
        addInput(ws);

        ws.tributary("run").assertOk();

        String table = dir.resolve("out").toString();
        assertThat(DeltaTables.schema(table).orElseThrow().toDdl())
                .isEqualTo("id INT, info STRUCT<name: STRING, ids: ARRAY<INT> NOT NULL>, u STRING, s STRUCT<id: INT, amt: STRING>");
        assertThat(DeltaTables.readRows(table)).extracting(r -> {
            Object[] info = (Object[]) r[1];
            Object[] s = (Object[]) r[3];
            return r[0] + "|" + info[0] + "|" + info[1] + "|" + r[2] + "|" + s[0] + "|" + s[1];
        }).containsExactlyInAnyOrder("1|ann|[1, 10]|  Ann |1|5.5", "5|dee|[5, 50]|DEE|5|12.345");
    }

    @Test
    void anAggregateOfAnExpressionInsideAnotherAndTheStatisticalAndCollectingFunctionsReachTheTable() {
        Workspace ws = workspace("""
                name: stats
                source:
                  files:
                    path: in/
                    format: json
                    schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
                transform:
                  where: "amt > 0"
                aggregate:
                  eventTime: ts
                  window: 10 minutes
                  groupBy: ["lower(trim(user)) AS u"]
                  select: { avg2: "sum(amt * 2) / count(*)", spread: "max(amt) - min(amt)", ids: "collect_list(id)", sd: "stddev(amt)" }
                outputMode: complete
                sink:
                  delta:
                    path: agg/
                trigger: availableNow
                """);
        ws.addFile("events.json",
                "{\"id\": 1, \"user\": \" A \", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                "{\"id\": 2, \"user\": \"a\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:04:00Z\"}",
                "{\"id\": 3, \"user\": \"B\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}",
                "{\"id\": 4, \"user\": \"a\", \"amt\": -2.0, \"ts\": \"2026-01-01T10:09:00Z\"}",
                "{\"id\": 5, \"user\": \"c\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:20:00Z\"}");

        ws.tributary("run").assertOk();

        String table = dir.resolve("agg").toString();
        assertThat(DeltaTables.schema(table).orElseThrow().toDdl()).isEqualTo("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, u STRING,"
                + " avg2 DOUBLE, spread DOUBLE, ids ARRAY<INT>, sd DOUBLE");
        assertThat(DeltaTables.readRows(table)).extracting(r -> r[1] + "|" + r[2] + "|" + r[3] + "|" + r[4] + "|" + r[5])
                .as("the hidden sum of amt * 2 and count over each group, the arrays and Spark's NULL stddev of one value")
                .containsExactlyInAnyOrder("a|6.0|4.0|[1, 2]|2.8284271247461903", "b|14.0|0.0|[3]|null", "c|2.0|0.0|[5]|null");
    }
}
