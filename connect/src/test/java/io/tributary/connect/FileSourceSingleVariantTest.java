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
 * The file source connector's {@code options.singleVariantColumn}: each whole JSON line one VARIANT column, as Spark's
 * option and the spec's {@code source.files.options.singleVariantColumn} read it, published as the connector's task publishes
 * a file (the stage's {@link InputFiles}, on real files); a line cut short a bad line of its file; a schema beside the option
 * other than its one column, or neither, refused by the REST API's validation on the key {@code schema}.
 */
class FileSourceSingleVariantTest {
    @TempDir
    Path dir;

    private Map<String, String> config() {
        Map<String, String> c = new HashMap<>();
        c.put("connector.class", FileSourceConnector.class.getName());
        c.put("name", "events-files");
        c.put("path", dir.resolve("in").toString());
        c.put("options.singleVariantColumn", "v");
        c.put("topic", "events");
        return c;
    }

    private static Map<String, List<String>> errors(Map<String, String> config) {
        return ValidationErrors.of(new FileSourceConnector(), config);
    }

    @Test
    void eachWholeLineIsOneVariantColumnAndALineCutShortIsABadLineOfItsFile() throws Exception {
        io.tributary.testing.InputFiles.place(dir.resolve("in"), "a.json", "{\"id\": 1, \"customer\": {\"name\": \"Ann\"}}",
                "[1, \"two\"]", "{\"id\": 3, \"customer\": ", "42");
        Map<String, String> c = config();
        c.put("select", "v:id::int AS id, v:customer.name::string AS name, to_json(v) AS raw");
        IngestConfig ingest = new FileSourceConfig(c).ingestConfig("events-files");
        assertThat(ingest.outputSchema().toDdl()).isEqualTo("id INT, name STRING, raw STRING");
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

        assertThat(rows).containsExactly("{\"id\":1,\"name\":\"Ann\",\"raw\":\"{\\\"customer\\\":{\\\"name\\\":\\\"Ann\\\"},\\\"id\\\":1}\"}",
                "{\"id\":null,\"name\":null,\"raw\":\"[1,\\\"two\\\"]\"}", "{\"id\":null,\"name\":null,\"raw\":\"42\"}");
        assertThat(letters).singleElement().asString().contains("\"file\":\"a.json\"").contains("\"line\":3");
    }

    @Test
    void theRowsAreTheOneVariantColumnWithoutASchemaOrWithExactlyThatOne() {
        assertThat(errors(config())).isEmpty();
        assertThat(new FileSourceConfig(config()).ingestConfig("events-files").outputSchema().toDdl()).isEqualTo("v VARIANT");
        Map<String, String> c = config();
        c.put("schema", "v VARIANT");
        assertThat(errors(c)).isEmpty();
        c.put("schema", "id INT, v VARIANT");
        assertThat(errors(c)).containsOnlyKeys("schema");
        assertThat(errors(c).get("schema")).singleElement().asString().contains("INVALID_SINGLE_VARIANT_COLUMN");
        c.remove("schema");
        c.remove("options.singleVariantColumn");
        assertThat(errors(c)).containsOnlyKeys("schema");
        assertThat(errors(c).get("schema")).singleElement().asString().contains("options.singleVariantColumn");
    }
}
