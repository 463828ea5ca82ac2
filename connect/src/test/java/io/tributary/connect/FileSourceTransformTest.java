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
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file source connector's {@code where} and {@code select}: a file's rows are filtered and selected as the
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
        Map<String, List<String>> out = new HashMap<>();
        for (ConfigValue v : new FileSourceConnector().validate(config).configValues()) {
            if (!v.errorMessages().isEmpty()) {
                out.put(v.name(), v.errorMessages());
            }
        }
        return out;
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
}
