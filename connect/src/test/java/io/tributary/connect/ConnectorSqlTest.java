package io.tributary.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.expressions.RowTransform;
import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.InputFiles;
import io.tributary.schema.Schema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connectors' {@code sql} (a pipeline's {@code sql:} query), the Delta sink connector's join, where and select, and the
 * file source connector's refusal of dropDuplicates: rows through the stages' own transform on real files and real Delta
 * tables, and each refusal on its key as the REST API's validation gives it.
 */
class ConnectorSqlTest {
    @TempDir
    Path dir;

    private Map<String, String> source() {
        Map<String, String> c = new HashMap<>();
        c.put("connector.class", FileSourceConnector.class.getName());
        c.put("name", "orders-files");
        c.put("path", dir.resolve("in").toString());
        c.put("schema", "id INT, user STRING, amt DOUBLE");
        c.put("topic", "orders");
        return c;
    }

    private Map<String, String> sink() {
        Map<String, String> c = new HashMap<>();
        c.put("connector.class", DeltaSinkConnector.class.getName());
        c.put("name", "orders-delta");
        c.put("topics", "orders");
        c.put("delta.path", dir.resolve("table").toString());
        c.put("schema", "id INT, user STRING, amt DOUBLE");
        return c;
    }

    private static Map<String, List<String>> sourceErrors(Map<String, String> c) {
        return ValidationErrors.of(new FileSourceConnector(), c);
    }

    private static Map<String, List<String>> sinkErrors(Map<String, String> c) {
        return ValidationErrors.of(new DeltaSinkConnector(), c);
    }

    private List<String> published(IngestConfig ingest, String name, String... lines) throws Exception {
        io.tributary.testing.InputFiles.place(dir.resolve("in"), name, lines);
        InputFiles files = new InputFiles(ingest);
        ingest.joins().refresh();
        List<String> rows = new ArrayList<>();
        InputFiles.InputFile file = files.list(Long.MAX_VALUE).stream().filter(f -> f.relPath().equals(name)).findFirst().orElseThrow();
        files.read(file, 0, new InputFiles.Out() {
            @Override
            public void rows(byte[] value, Long timestampMs) {
                rows.add(new String(value, StandardCharsets.UTF_8).strip());
            }

            @Override
            public void deadLetter(byte[] key, byte[] value) {
            }
        });
        return rows;
    }

    @Test
    void theFileSourcesQueryJoinsFiltersAndSelectsAsThePipelinesDoes() throws Exception {
        Path users = dir.resolve("users");
        FileSourceTransformTest.dims(users, new Object[] {"ann", "gold"});
        Map<String, String> c = source();
        c.put("sql", "SELECT s.id, lower(s.user) AS user, u.segment\nFROM source s LEFT JOIN delta.`" + users + "` u\n"
                + "  ON lower(s.user) = u.user\nWHERE s.amt > 0");
        assertThat(sourceErrors(c)).isEmpty();
        IngestConfig ingest = new FileSourceConfig(c).ingestConfig("orders-files");
        assertThat(ingest.outputSchema().toDdl()).isEqualTo("id INT, user STRING, segment STRING");
        assertThat(published(ingest, "a.json", "{\"id\": 1, \"user\": \"Ann\", \"amt\": 5}", "{\"id\": 2, \"user\": \"Bob\", \"amt\": 1}",
                "{\"id\": 3, \"user\": \"Ann\", \"amt\": -1}"))
                .containsExactly("{\"id\":1,\"user\":\"ann\",\"segment\":\"gold\"}", "{\"id\":2,\"user\":\"bob\",\"segment\":null}");
    }

    @Test
    void aQueryTheConnectorsCannotRunIsRefusedOnItsKeyNamingThePlace() {
        for (Map<String, String> c : List.of(source(), sink())) {
            boolean file = c.containsKey("path");
            Map<String, List<String>> e;
            c.put("sql", "SELECT id, lower(usr) AS user FROM source");
            e = file ? sourceErrors(c) : sinkErrors(c);
            assertThat(e).as("an unknown column").containsOnlyKeys("sql");
            assertThat(e.get("sql")).singleElement().asString().contains("no column 'usr'").contains("SELECT at line 1, column 8");
            c.put("sql", "SELECT id FROM source ORDER BY id");
            e = file ? sourceErrors(c) : sinkErrors(c);
            assertThat(e.get("sql")).singleElement().asString().contains("ORDER BY").contains("line 1");
            c.put("sql", "SELECT window(ts, '10 minutes') AS window, count(*) AS n FROM source\nGROUP BY window(ts, '10 minutes')");
            e = file ? sourceErrors(c) : sinkErrors(c);
            assertThat(e.get("sql")).singleElement().asString().contains("GROUP BY (at line 2, column 1 of the query)")
                    .contains("connector does not run").contains("tributary run");
            if (!file) {
                c.remove("schema"); // the records' header gives it: the query is checked as far as it can be without
                assertThat(sinkErrors(c).get("sql")).singleElement().asString().contains("GROUP BY (at line 2, column 1 of the query)");
                c.put("schema", "id INT, user STRING, amt DOUBLE");
            }
            c.put("sql", "SELECT id FROM source");
            c.put("where", "amt > 0");
            e = file ? sourceErrors(c) : sinkErrors(c);
            assertThat(e).containsOnlyKeys("where");
            assertThat(e.get("where")).singleElement().asString().contains("key 'where' and the query of sql both transform the rows");
        }
    }

    @Test
    void theSinksJoinWhereAndSelectMakeTheTablesRowsAndItsKeysAreColumnsOfThem() {
        Path users = dir.resolve("users");
        FileSourceTransformTest.dims(users, new Object[] {"ann", "gold"});
        Map<String, String> c = sink();
        c.put("join.table", users.toString());
        c.put("join.as", "u");
        c.put("join.on", "lower(user) = u.user");
        c.put("join.type", "left");
        c.put("where", "amt > 0");
        c.put("select", "id, lower(user) AS user, u.segment");
        c.put("mode", "upsert");
        c.put("keys", "segment");
        assertThat(sinkErrors(c)).isEmpty();
        c.put("keys", "amt");
        assertThat(sinkErrors(c)).containsOnlyKeys("keys");
        c.put("keys", "id");
        RowTransform t = new DeltaSinkConfig(c).transform(Schema.parse(c.get("schema")));
        assertThat(t.output().toDdl()).isEqualTo("id INT, user STRING, segment STRING");
        t.refresh();
        assertThat(t.apply(new Object[] {1, "Ann", 5.0}).stream().map(Arrays::toString)).containsExactly("[1, ann, gold]");
        assertThat(t.apply(new Object[] {2, "Bob", 5.0}).stream().map(Arrays::toString)).containsExactly("[2, bob, null]");
        assertThat(t.apply(new Object[] {3, "Ann", -1.0})).isEmpty();
        c.put("join.on", "lower(user) = u.usr");
        assertThat(sinkErrors(c)).containsOnlyKeys("join");
        assertThat(sinkErrors(c).get("join")).singleElement().asString().contains("join.on").contains("usr");
    }

    @Test
    void dropDuplicatesInTheFileSourceIsRefusedSayingWhyAndPointingToTheSinks() {
        Map<String, String> c = source();
        c.put("dropDuplicates.keys", "id");
        assertThat(sourceErrors(c)).containsOnlyKeys("dropDuplicates");
        assertThat(sourceErrors(c).get("dropDuplicates")).singleElement().asString().contains("two tasks could both publish a key")
                .contains("the Delta sink connector's dropDuplicates.keys");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new FileSourceConnector().start(c))
                .hasMessageContaining("dropDuplicates is not taken by the file source connector");
    }
}
