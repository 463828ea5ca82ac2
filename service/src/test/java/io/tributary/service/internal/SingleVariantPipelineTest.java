package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.schema.TributaryException;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.testing.InputFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code source.files.options.singleVariantColumn: v}: JSON files read as Spark 4.2's {@code readStream.format("json")
 * .option("singleVariantColumn", "v")} reads them, to a Delta table of one VARIANT column. The table's schema is the one
 * Spark's stream wrote ({@code golden/variant/single-variant/json-schema.json}), its rows' VARIANT bytes are Spark's
 * ({@code json.tsv}, recorded by compat/spark's {@code SparkSingleVariantColumn}), and the two lines Spark's PERMISSIVE mode
 * makes NULL (a key twice, a line cut short) are dead letters of their file and line.
 * {@code -Dtributary.variant.keep=DIR} leaves the table in {@code DIR/single-variant-table} for
 * {@code SparkSingleVariantColumn read}.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SingleVariantPipelineTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void wholeJsonRecordsLandAsSparksSingleVariantColumn() throws Exception {
        Files.createDirectories(dir.resolve("in"));
        for (String name : List.of("a.json", "b.json")) {
            InputFiles.place(dir.resolve("in"), name, golden("in/" + name).toArray(String[]::new));
        }
        List<JsonNode> letters = VariantPipelines.runReadingDeadLetters(spec(""));

        Path table = dir.resolve("out");
        String schemaString = VariantPipelines.logActions(table, "metaData").get(0).get("schemaString").asText();
        assertThat(JSON.readTree(schemaString)).isEqualTo(JSON.readTree(golden("json-schema.json").get(0)));
        List<String> spark = golden("json.tsv");
        assertThat(VariantPipelines.variantBytes(table)).isEqualTo(spark.stream().filter(l -> !l.startsWith("NULL\t")).toList());
        assertThat(letters).extracting(l -> l.path("file").asText() + ":" + l.path("line").asLong())
                .containsExactlyInAnyOrder("a.json:6", "a.json:7")
                .hasSize((int) spark.stream().filter(l -> l.startsWith("NULL\t")).count());

        VariantPipelines.keepTable(table, "single-variant-table"); // for compat/spark's SparkSingleVariantColumn read
    }

    @Test
    void aSchemaBesideTheOptionIsRefusedAtStartAsSparkRefusesIt() throws Exception {
        PipelineSpec spec = spec("    schema: \"id INT, v VARIANT\"\n");
        assertThatThrownBy(() -> Pipeline.open(spec, RunOptions.DEFAULT).close())
                .isInstanceOf(TributaryException.class)
                .hasMessageStartingWith("source.files.schema: 'id INT, v VARIANT' is invalid beside "
                        + "source.files.options.singleVariantColumn 'v'")
                .hasMessageContaining("INVALID_SINGLE_VARIANT_COLUMN");
    }

    private PipelineSpec spec(String schemaLine) throws IOException {
        return VariantPipelines.spec(dir, """
                name: singlevariant
                source:
                  files:
                    path: in/
                %s    options:
                      singleVariantColumn: v
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """.formatted(schemaLine));
    }

    private static List<String> golden(String name) throws IOException {
        return VariantPipelines.golden("single-variant/" + name);
    }
}
