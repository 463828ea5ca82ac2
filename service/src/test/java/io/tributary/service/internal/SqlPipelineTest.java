package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkTables;
import io.tributary.sink.TopicTail;
import io.tributary.schema.Topics;
import io.tributary.testing.InputFiles;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Queries of {@code golden/sql/} pasted into {@code sql:} of a pipeline and run as a user runs it (availableNow, a real broker,
 * the join's table a real Delta table named by a path relative to the spec, the rows read from a folder): the table written has
 * the columns, types and rows Spark 4.2 wrote for the same query.
 */
@Tag("integration")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class SqlPipelineTest {
    @TempDir
    Path dir;
    /** The dead letters of the last {@link #run}. */
    private List<com.fasterxml.jackson.databind.JsonNode> letters;

    private static String golden(String name) throws IOException {
        try (InputStream in = SqlPipelineTest.class.getClassLoader().getResourceAsStream("golden/sql/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The case whose query starts {@code prefix}: its number and query (line breaks restored). */
    private static Map.Entry<Integer, String> query(String prefix) throws IOException {
        List<String> queries = golden("cases.txt").lines().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        for (int n = 0; n < queries.size(); n++) {
            if (queries.get(n).startsWith(prefix)) {
                return Map.entry(n, queries.get(n).replace("\\n", "\n"));
            }
        }
        throw new AssertionError("no golden/sql case starts " + prefix);
    }

    private static List<String> spark(int n) throws IOException {
        return golden("spark.tsv").lines().filter(l -> l.startsWith(n + "\t")).toList();
    }

    /** Runs {@code sql:} (as a {@code |} block) over the golden rows, joined tables at dims/users; the table as Spark's lines. */
    private List<String> run(int n, String query) throws Exception {
        var c = new com.fasterxml.jackson.databind.ObjectMapper().readTree(golden("case.json"));
        Schema tableSchema = Schema.parse(c.get("tableSchema").asText());
        RowJson json = new RowJson(tableSchema);
        new SinkTables(dir.resolve("dims/users").toString(), tableSchema, List.of(), "dims")
                .commit(golden("table.jsonl").lines().filter(l -> !l.isBlank()).map(json::parse).toList());
        InputFiles.place(dir.resolve("in"), "rows.json", golden("rows.jsonl").lines().filter(l -> !l.isBlank()).toArray(String[]::new));
        String sql = query.replace("delta.`T`", "delta.`dims/users`").indent(2);
        Path f = dir.resolve("pipeline.yaml");
        Files.writeString(f, "name: q" + n + "\nsource:\n  files:\n    path: in/\n    schema: \"" + c.get("schema").asText().replace("\"", "\\\"")
                + "\"\nsql: |\n" + sql + "sink:\n  delta:\n    path: out/\ntrigger: availableNow\n");
        PipelineSpec spec = PipelineSpec.load(f, Map.of(), Map.of());
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            pipeline.run(spec.trigger(), p -> { });
            letters = TopicTail.json(pipeline.clientProps(), Topics.deadLetter("q" + n));
        }
        Schema out = DeltaTables.schema(dir.resolve("out").toString()).orElseThrow();
        List<String> lines = new ArrayList<>();
        lines.add(n + "\t:" + String.join(",", out.fields().stream().map(x -> (x.name().matches("[A-Za-z_][A-Za-z0-9_]*") ? x.name()
                : "`" + x.name() + "`") + " " + x.type().ddl()).toList()));
        List<String> rows = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(dir.resolve("out").toString())) {
            List<String> values = new ArrayList<>();
            for (int i = 0; i < r.length; i++) {
                values.add(text(r[i], out.field(i).type().kind()));
            }
            rows.add(n + "\t" + String.join("\t", values));
        }
        rows.sort(null);
        lines.addAll(rows);
        return lines;
    }

    private static String text(Object v, io.tributary.schema.DataType.Kind kind) {
        if (v == null) {
            return "\\N";
        }
        return switch (kind) {
            case DECIMAL -> ((BigDecimal) v).toPlainString();
            case DATE -> LocalDate.ofEpochDay((Integer) v).toString();
            case TIMESTAMP -> Instant.ofEpochSecond(Math.floorDiv((Long) v, 1_000_000L), Math.floorMod((Long) v, 1_000_000L) * 1000).toString();
            default -> String.valueOf(v);
        };
    }

    @Test
    void aQueryWithCommentsLineBreaksAndATrailingSemicolonWritesSparksTable() throws Exception {
        Map.Entry<Integer, String> q = query("SELECT id -- the row's id");
        assertThat(run(q.getKey(), q.getValue() + ";")).isEqualTo(spark(q.getKey())).hasSizeGreaterThan(1);
    }

    @Test
    void aJoinToATableByARelativePathWritesSparksTable() throws Exception {
        Map.Entry<Integer, String> q = query("SELECT s.id, u.segment FROM source s JOIN delta.`T` u ON");
        assertThat(run(q.getKey(), q.getValue())).isEqualTo(spark(q.getKey())).hasSizeGreaterThan(1);
    }

    @Test
    void starOverALeftJoinUsingAColumnGivesItFirstAsSparkDoes() throws Exception {
        Map.Entry<Integer, String> q = query("SELECT * FROM source s LEFT JOIN delta.`T` u USING (user)");
        assertThat(run(q.getKey(), q.getValue())).isEqualTo(spark(q.getKey())).hasSizeGreaterThan(1);
    }

    @Test
    void aDeltaTableWrittenBeforeTheStreamGivesItsColumnsFirstAsSparkDoes() throws Exception {
        Map.Entry<Integer, String> q = query("SELECT * FROM delta.`T` u RIGHT JOIN source s USING (user)");
        assertThat(run(q.getKey(), q.getValue())).isEqualTo(spark(q.getKey())).hasSizeGreaterThan(1);
    }

    @Test
    void aNullSelectItemInAUnionAllTakesTheOtherQuerysTypeAsSparkDoes() throws Exception {
        Map.Entry<Integer, String> q = query("SELECT id, NULL AS n FROM source UNION ALL SELECT id, user FROM source");
        assertThat(run(q.getKey(), q.getValue())).isEqualTo(spark(q.getKey())).hasSizeGreaterThan(1);
    }

    @Test
    void aCommonTableExpressionJoinedToADeltaTableWritesSparksTable() throws Exception {
        Map.Entry<Integer, String> q = query("WITH clean AS (SELECT id, lower(trim(user)) AS user, amt, ts FROM source WHERE amt > 0)");
        assertThat(q.getValue()).contains("\n");
        assertThat(run(q.getKey(), q.getValue())).isEqualTo(spark(q.getKey())).hasSizeGreaterThan(1);
    }

    @Test
    void aTableListedInFromIsSparksCrossJoinFilteredByWhere() throws Exception {
        Map.Entry<Integer, String> q = query("SELECT s.id, u.segment FROM source s, delta.`T` u WHERE s.user = u.user");
        assertThat(run(q.getKey(), q.getValue())).isEqualTo(spark(q.getKey())).hasSizeGreaterThan(1);
    }

    @Test
    void notInASubqueryOfADeltaTableDropsANullValueAsSparksNullAwareAntiJoinDoes() throws Exception {
        Map.Entry<Integer, String> q = query("SELECT id, user FROM source WHERE user NOT IN (SELECT u.user FROM delta.`T` u)");
        int n = q.getKey();
        assertThat(run(n, q.getValue())).isEqualTo(spark(n)).hasSizeGreaterThan(1).noneMatch(l -> l.endsWith("\\N"));
        assertThat(letters).isEmpty();
    }

    @Test
    void aUnionAllOfAQueryAndAJoinedQueryWritesBothQueriesRowsAsSparkDoes() throws Exception {
        Map.Entry<Integer, String> q = query("SELECT id, user AS name FROM source WHERE amt > 5 UNION ALL SELECT s.id, u.segment");
        assertThat(run(q.getKey(), q.getValue())).isEqualTo(spark(q.getKey())).hasSizeGreaterThan(4);
        assertThat(letters).isEmpty();
    }

    @Test
    void aRowOneQueryOfAUnionAllFailsOnIsDeadLetteredAndTheOtherQuerysRowsArePublished() throws Exception {
        Map.Entry<Integer, String> q = query("SELECT user AS x FROM source UNION ALL SELECT id FROM source");
        assertThat(spark(q.getKey())).singleElement().asString().contains("CAST_INVALID_INPUT"); // Spark fails the query
        int n = q.getKey();
        // STRING and INT meet as BIGINT: the first query's 'ann', 'bob', 'cy' fail their cast, its NULL does not
        assertThat(run(n, q.getValue())).containsExactly(n + "\t:x BIGINT", n + "\t1", n + "\t2", n + "\t3", n + "\t4", n + "\t\\N");
        assertThat(letters).extracting(l -> l.path("file").asText() + ":" + l.path("line").asLong())
                .containsExactly("rows.json:1", "rows.json:2", "rows.json:3");
        assertThat(letters).allSatisfy(l -> assertThat(l.toString()).contains("CAST_INVALID_INPUT"));
    }
}
