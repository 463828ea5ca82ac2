package io.tributary.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.InputFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file source connector's {@code where}, {@code select} and column steps ({@code withColumns} ...): a file's rows are filtered and selected as the
 * connector's task publishes them (the stage's {@link InputFiles}, on real files), a row an expression fails on
 * is a bad line of its file, and an expression that names no column is refused by the REST API's validation on its key.
 */
class FileSourceTransformTest {
    @TempDir
    Path dir;

    private Map<String, String> config() {
        Map<String, String> c = new HashMap<>();
        c.put("connector.class", FileSourceConnector.class.getName());
        c.put("name", "orders-files");
        c.put("path", dir.resolve("in").toString());
        c.put("schema", "id INT, user STRING, amt STRING");
        c.put("topic", "orders");
        c.put("where", "cast(amt AS DOUBLE) > 0");
        c.put("select", "id, lower(user) AS user, cast(amt AS DOUBLE) AS amt");
        return c;
    }

    private static Map<String, List<String>> errors(Map<String, String> config) {
        return ValidationErrors.of(new FileSourceConnector(), config);
    }

    @Test
    void aFilesRowsAreFilteredAndSelectedAndARowAnExpressionFailsOnIsABadLineOfItsFile() throws Exception {
        io.tributary.testing.InputFiles.place(dir.resolve("in"), "a.json", "{\"id\": 1, \"user\": \"Ann\", \"amt\": \"5\"}",
                "{\"id\": 2, \"user\": \"Bob\", \"amt\": \"x\"}", "{\"id\": 3, \"user\": \"Cy\", \"amt\": \"-1\"}",
                "{\"id\": 4, \"user\": \"Dee\", \"amt\": \"2\"}");
        IngestConfig ingest = new FileSourceConfig(config()).ingestConfig("orders-files");
        assertThat(ingest.outputSchema().toDdl()).isEqualTo("id INT, user STRING, amt DOUBLE");
        InputFiles files = new InputFiles(ingest);
        List<String> rows = new ArrayList<>();
        List<String> letters = new ArrayList<>();

        files.read(files.list(Long.MAX_VALUE).get(0), 0, new InputFiles.Out() {
            @Override
            public void rows(byte[] value, Long timestampMs) {
                rows.add(new String(value, StandardCharsets.UTF_8).strip());
            }

            @Override
            public void deadLetter(byte[] key, byte[] value) {
                letters.add(new String(value, StandardCharsets.UTF_8));
            }
        });

        assertThat(rows).containsExactly("{\"id\":1,\"user\":\"ann\",\"amt\":5.0}", "{\"id\":4,\"user\":\"dee\",\"amt\":2.0}");
        assertThat(letters).singleElement().asString().contains("\"file\":\"a.json\"").contains("\"line\":2")
                .contains("expression \\\"cast(amt AS DOUBLE)\\\" fails: CAST_INVALID_INPUT");
    }

    @Test
    void anExpressionNamingNoColumnIsRefusedOnItsKeyAndKeysAreColumnsOfTheSelect() {
        Map<String, String> c = config();
        assertThat(errors(c)).isEmpty();
        c.put("select", "id, lower(usr) AS user");
        assertThat(errors(c)).containsOnlyKeys("select");
        assertThat(errors(c).get("select")).singleElement().asString().contains("no column 'usr'");
        c.put("select", "id, lower(user) AS who");
        c.put("keys", "who");
        assertThat(errors(c)).isEmpty();
        c.put("keys", "user");
        assertThat(errors(c)).containsOnlyKeys("keys");
    }

    /** A Delta table of {@code rows} at {@code path} (a version more when it is there), written by the Delta sink's own writer. */
    static void dims(Path path, Object[]... rows) {
        io.tributary.sink.PartitionSink sink = new io.tributary.sink.PartitionSink(path.toString(),
                io.tributary.schema.Schema.parse("user STRING, segment STRING"), List.of(), 1 << 20, Map.of(), "dims");
        io.tributary.sink.PartitionSink.Batch batch = sink.begin();
        for (Object[] r : rows) {
            batch.add(r);
        }
        batch.commit(Map.of(), Map.of());
    }

    private List<String> read(IngestConfig ingest, String name, String... lines) throws Exception {
        io.tributary.testing.InputFiles.place(dir.resolve("in"), name, lines);
        InputFiles files = new InputFiles(ingest);
        List<String> rows = new ArrayList<>();
        ingest.joins().refresh();
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
    void rowsAreJoinedWithADeltaTableReadAgainWhenItHasANewVersion() throws Exception {
        Path table = dir.resolve("dims");
        dims(table, new Object[] {"ann", "gold"});
        Map<String, String> c = config();
        c.remove("where");
        c.put("select", "id, user, u.segment");
        c.put("join.table", table.toString());
        c.put("join.as", "u");
        c.put("join.on", "lower(user) = u.user");
        c.put("join.type", "left");
        assertThat(errors(c)).isEmpty();
        IngestConfig ingest = new FileSourceConfig(c).ingestConfig("orders-files");
        assertThat(ingest.outputSchema().toDdl()).isEqualTo("id INT, user STRING, segment STRING");

        assertThat(read(ingest, "a.json", "{\"id\": 1, \"user\": \"Ann\", \"amt\": \"5\"}", "{\"id\": 2, \"user\": \"Bob\", \"amt\": \"1\"}"))
                .containsExactly("{\"id\":1,\"user\":\"Ann\",\"segment\":\"gold\"}", "{\"id\":2,\"user\":\"Bob\",\"segment\":null}");
        dims(table, new Object[] {"bob", "silver"});
        assertThat(read(ingest, "b.json", "{\"id\": 3, \"user\": \"BOB\", \"amt\": \"1\"}"))
                .containsExactly("{\"id\":3,\"user\":\"BOB\",\"segment\":\"silver\"}");
    }

    @Test
    void aJoinWithNoTableOrAnUnknownColumnOrTooManyRowsIsRefusedOnItsKey() {
        Path table = dir.resolve("dims");
        Map<String, String> c = config();
        c.put("join.table", table.toString());
        c.put("join.as", "u");
        c.put("join.on", "user = u.user");
        assertThat(errors(c)).containsOnlyKeys("join");
        assertThat(errors(c).get("join")).singleElement().asString().contains("join.table").contains(table.toString());
        dims(table, new Object[] {"ann", "gold"}, new Object[] {"bob", "silver"});
        assertThat(errors(c)).isEmpty();
        c.put("join.on", "user = u.usr");
        assertThat(errors(c).get("join")).singleElement().asString().contains("join.on").contains("usr");
        c.put("join.on", "user = u.user");
        c.put("joinMaxRows", "1");
        IngestConfig ingest = new FileSourceConfig(c).ingestConfig("orders-files");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ingest.joins().refresh()).hasMessageContaining("join.table")
                .hasMessageContaining("2");
    }

    @Test
    void aLateralViewWithoutANameOrOverAColumnThatIsNoArrayIsRefusedOnItsKey() {
        Map<String, String> c = config();
        c.put("schema", "id INT, user STRING, amt STRING, tags ARRAY<STRING>");
        c.put("lateralView.generator", "explode(tags)");
        assertThat(errors(c)).containsOnlyKeys("lateralView");
        assertThat(errors(c).get("lateralView")).singleElement().asString().contains("lateralView.as: a lateral view needs a name");
        c.put("lateralView.as", "t");
        c.put("lateralView.columns", "tag");
        c.put("where", "t.tag <> 'x'");
        c.put("select", "id, t.tag");
        assertThat(errors(c)).isEmpty();
        assertThat(new FileSourceConfig(c).ingestConfig("orders-files").outputSchema().toDdl()).isEqualTo("id INT, tag STRING");
        c.put("lateralView.generator", "explode(user)");
        assertThat(errors(c).get("lateralView")).singleElement().asString().contains("lateralView: expression")
                .contains("'user' is STRING, and explode takes an ARRAY or a MAP");
    }

    @Test
    void theColumnStepsFollowTheSelectAndABadOneIsRefusedNamingItsKey() {
        Map<String, String> c = config();
        c.remove("where");
        c.remove("select");
        c.put("withColumns.user", "lower(user)");
        c.put("withColumns.big", "cast(amt AS DOUBLE) > 3");
        c.put("withColumnsRenamed.amt", "amount");
        c.put("drop", "id, absent");
        assertThat(errors(c)).isEmpty();
        assertThat(new FileSourceConfig(c).ingestConfig("orders-files").outputSchema().toDdl())
                .isEqualTo("user STRING, amount STRING, big BOOLEAN");

        c.put("withColumns.big", "cast(amount AS DOUBLE) > 3");
        assertThat(errors(c).values()).flatMap(l -> l).singleElement().asString()
                .contains("withColumns.big: expression \"cast(amount AS DOUBLE) > 3 AS `big`\"").contains("no column 'amount'");
    }
}
