package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.sink.DeltaTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark's stream-static join in the spec ({@code transform.join}): each row read is joined with a Delta
 * table (made here by Tributary's own sink, in a pipeline of its own) before where and select; the table
 * is read again at the start of a batch when it has a new version, so a second run sees the table as it is then.
 * The same written as one query ({@code sql:}) makes the same table, and Spark's rows.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(300)
class JoinScenarioTest {
    static final String USERS = """
            name: users
            source:
              files:
                path: in/
                format: json
                schema: "user STRING, segment STRING"
            sink:
              delta:
                path: users/
                mode: upsert
                keys: [user]
            trigger: availableNow
            """;

    static final String ORDERS = """
            name: silver
            source:
              files:
                path: in/
                format: json
                schema: "id INT, user STRING, amt DOUBLE"
            transform:
              join:
                - table: ../dims/users
                  as: u
                  on: "lower(user) = u.user"
                  type: left
              select:
                - id
                - user
                - "u.segment AS segment"
            sink:
              delta:
                path: out/
            trigger: availableNow
            """;

    @TempDir
    Path dir;
    @RegisterExtension
    final PipelineBroker kafka = new PipelineBroker();

    private Workspace workspace(String sub, String spec) {
        return kafka.workspace(dir.resolve(sub), spec);
    }

    private static java.util.List<String> rows(Path table) {
        return DeltaTables.readRows(table.toString()).stream()
                .map(r -> java.util.Arrays.stream(r).map(v -> Objects.toString(v)).collect(java.util.stream.Collectors.joining("|"))).toList();
    }

    @Test
    void aLeftJoinFillsNullsAndTheSecondRunReadsTheTablesNewVersion() {
        Workspace users = workspace("dims", USERS);
        users.addFile("users-1.json", "{\"user\": \"ann\", \"segment\": \"gold\"}", "{\"user\": \"bob\", \"segment\": \"silver\"}");
        users.tributary("run").assertOk();
        Workspace orders = workspace("silver", ORDERS);
        orders.addFile("orders-1.json", "{\"id\": 1, \"user\": \"Ann\", \"amt\": 5.0}", "{\"id\": 2, \"user\": \"bob\", \"amt\": 7.0}",
                "{\"id\": 3, \"user\": \"cy\", \"amt\": 1.0}");

        orders.tributary("run").assertOk();

        Path out = dir.resolve("silver/out");
        assertThat(DeltaTables.schema(out.toString()).orElseThrow().toDdl()).isEqualTo("id INT, user STRING, segment STRING");
        assertThat(rows(out)).containsExactlyInAnyOrder("1|Ann|gold", "2|bob|silver", "3|cy|null");

        // the dimension table changes: bob moves up, cy arrives
        long before = DeltaTables.latestVersion(dir.resolve("dims/users").toString());
        users.addFile("users-2.json", "{\"user\": \"bob\", \"segment\": \"platinum\"}", "{\"user\": \"cy\", \"segment\": \"new\"}");
        users.tributary("run").assertOk();
        assertThat(DeltaTables.latestVersion(dir.resolve("dims/users").toString())).isGreaterThan(before);
        orders.addFile("orders-2.json", "{\"id\": 4, \"user\": \"bob\", \"amt\": 2.0}", "{\"id\": 5, \"user\": \"cy\", \"amt\": 3.0}");

        orders.tributary("run").assertOk();

        assertThat(rows(out)).as("rows joined before keep what they were joined with; new rows see the new version")
                .containsExactlyInAnyOrder("1|Ann|gold", "2|bob|silver", "3|cy|null", "4|bob|platinum", "5|cy|new");
    }

    @Test
    void anInnerJoinThenWhereAndStarGiveTheStreamColumnsThenTheTables() {
        Workspace users = workspace("dims", USERS);
        users.addFile("users-1.json", "{\"user\": \"ann\", \"segment\": \"gold\"}", "{\"user\": \"bob\", \"segment\": \"silver\"}");
        users.tributary("run").assertOk();
        Workspace orders = workspace("silver", ORDERS.replace("type: left", "type: inner")
                .replace("  select:\n    - id\n    - user\n    - \"u.segment AS segment\"\n", "  where: \"u.segment <> 'silver'\"\n"));
        orders.addFile("orders-1.json", "{\"id\": 1, \"user\": \"ann\", \"amt\": 5.0}", "{\"id\": 2, \"user\": \"bob\", \"amt\": 7.0}",
                "{\"id\": 3, \"user\": \"cy\", \"amt\": 1.0}");

        orders.tributary("run").assertOk();

        Path out = dir.resolve("silver/out");
        assertThat(DeltaTables.schema(out.toString()).orElseThrow().toDdl()).isEqualTo("id INT, user STRING, amt DOUBLE, segment STRING");
        assertThat(rows(out)).containsExactly("1|ann|5.0|gold");
    }

    @Test
    void aRowMatchingSeveralTableRowsMakesOneRowEach() {
        Workspace users = workspace("dims", USERS);
        users.addFile("users-1.json", "{\"user\": \"ann\", \"segment\": \"gold\"}", "{\"user\": \"bob\", \"segment\": \"silver\"}");
        users.tributary("run").assertOk();
        Workspace orders = workspace("silver", ORDERS.replace("type: left", "type: inner").replace("lower(user) = u.user", "amt > 2")
                .replace("  select:\n    - id\n    - user\n    - \"u.segment AS segment\"\n", "  where: \"id <> 3\"\n  select: [id, u.user AS who, segment]\n"));
        orders.addFile("orders-1.json", "{\"id\": 1, \"user\": \"ann\", \"amt\": 5.0}", "{\"id\": 2, \"user\": \"bob\", \"amt\": 1.0}",
                "{\"id\": 3, \"user\": \"cy\", \"amt\": 9.0}", "{\"id\": 4, \"user\": \"dee\", \"amt\": 3.0}");

        Workspace.Result run = orders.tributary("run").assertOk();

        assertThat(rows(dir.resolve("silver/out"))).containsExactlyInAnyOrder("1|ann|gold", "1|bob|silver", "4|ann|gold", "4|bob|silver");
        assertThat(run.summary().get("numInputRows").asLong()).as("the rows published").isEqualTo(4);
    }

    static final String GOLDEN_USERS = """
            name: users
            source:
              files:
                path: in/
                format: json
                schema: "name STRING, segment STRING, lim DOUBLE, since DATE"
            sink:
              delta:
                path: users/
            trigger: availableNow
            """;

    static final String GOLDEN_STREAM = """
            name: silver
            source:
              files:
                path: in/
                format: json
                schema: "id INT, user STRING, amt DOUBLE, day DATE"
            sink:
              delta:
                path: out/
            trigger: availableNow
            """;

    private static String golden(String file) {
        try (java.io.InputStream in = JoinScenarioTest.class.getClassLoader().getResourceAsStream("golden/joins/" + file)) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String[] lines(String file) {
        return golden(file).lines().filter(l -> !l.isBlank()).toArray(String[]::new);
    }

    /** The table's rows as golden/joins/spark.tsv writes them: values by tabs, null as \N. */
    private static java.util.List<String> tsv(Path table) {
        return DeltaTables.readRows(table.toString()).stream()
                .map(r -> java.util.Arrays.stream(r).map(v -> v == null ? "\\N" : v.toString()).collect(java.util.stream.Collectors.joining("\t")))
                .toList();
    }

    @Test
    void aSqlQueryMakesTheTableOfTheSameTransformBlockAndSparksRows() {
        Workspace users = workspace("dims", GOLDEN_USERS);
        users.addFile("users.json", lines("table.jsonl"));
        users.tributary("run").assertOk();
        Workspace query = workspace("query", GOLDEN_STREAM.replace("sink:", """
                sql: |
                  SELECT s.id, u.name, segment
                  FROM source AS s LEFT OUTER JOIN delta.`../dims/users` u ON s.user = u.name
                  WHERE u.segment IS NULL OR u.lim > 50
                sink:"""));
        Workspace block = workspace("block", GOLDEN_STREAM.replace("name: silver", "name: block").replace("sink:", """
                transform:
                  join: { table: ../dims/users, as: u, on: "user = u.name", type: left }
                  where: "u.segment IS NULL OR u.lim > 50"
                  select: [id, u.name, segment]
                sink:"""));
        query.addFile("rows.json", lines("rows.jsonl"));
        block.addFile("rows.json", lines("rows.jsonl"));

        query.tributary("run").assertOk();
        block.tributary("run").assertOk();

        // case 6 of golden/joins: left, on user = u.name, where u.segment IS NULL OR u.lim > 50, select id, name, segment
        java.util.List<String> spark = java.util.Arrays.stream(lines("spark.tsv")).filter(l -> l.startsWith("6\t"))
                .map(l -> l.substring(2)).toList();
        assertThat(spark).hasSize(7);
        Path sqlTable = dir.resolve("query/out");
        assertThat(DeltaTables.schema(sqlTable.toString()).orElseThrow().toDdl()).isEqualTo("id INT, name STRING, segment STRING")
                .isEqualTo(DeltaTables.schema(dir.resolve("block/out").toString()).orElseThrow().toDdl());
        assertThat(tsv(sqlTable)).as("Spark's rows").containsExactlyInAnyOrderElementsOf(spark)
                .as("the transform block's table").containsExactlyInAnyOrderElementsOf(tsv(dir.resolve("block/out")));

        Workspace.Result badColumn = workspace("bad", GOLDEN_STREAM.replace("name: silver", "name: bad").replace("sink:", """
                sql: |
                  SELECT s.id FROM source s
                  WHERE s.amt > 0 AND s.usr IS NOT NULL
                sink:""")).tributary("run");
        assertThat(badColumn.exitCode()).isNotZero();
        assertThat(badColumn.err()).contains("pipeline.yaml line 7: sql (WHERE at line 2, column 7 of the query): expression"
                + " \"s.amt > 0 AND s.usr IS NOT NULL\" at position 15: no column 'usr'");
    }

    @Test
    void aMissingTableABadOnAndAnUnknownTypeAreRefusedAtStartNamingTheKey() {
        Workspace.Result missing = workspace("silver", ORDERS).tributary("run");
        assertThat(missing.exitCode()).isNotZero();
        assertThat(missing.err()).contains("pipeline.yaml line 9").contains("transform.join.0.table").contains("no Delta table");

        Workspace users = workspace("dims", USERS);
        users.addFile("users-1.json", "{\"user\": \"ann\", \"segment\": \"gold\"}");
        users.tributary("run").assertOk();

        Workspace.Result badOn = workspace("silver", ORDERS.replace("u.user\"", "u.usr\"")).tributary("run");
        assertThat(badOn.exitCode()).isNotZero();
        assertThat(badOn.err()).contains("pipeline.yaml line 11").contains("transform.join.0.on").contains("'usr'");

        Workspace.Result badType = workspace("silver", ORDERS.replace("type: left", "type: full")).tributary("run");
        assertThat(badType.exitCode()).isNotZero();
        assertThat(badType.err()).contains("pipeline.yaml line 12").contains("transform.join.0.type").contains("unknown join type 'full'");
        assertThat(Files.exists(dir.resolve("silver/out/_delta_log"))).isFalse();
    }
}
