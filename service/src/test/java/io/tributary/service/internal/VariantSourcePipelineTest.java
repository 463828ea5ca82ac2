package io.tributary.service.internal;

import static io.tributary.service.internal.VariantPipelines.golden;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.testing.InputFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * JSON files read with VARIANT fields in the source's schema (at the top, in a struct, an array and a map), as Spark 4.2's
 * JSON reader reads them ({@code golden/variant/json-source-cases.tsv}, recorded by compat/spark's {@code SparkVariantSources}),
 * through the events topic to a Delta table of VARIANT columns: the table's rows are Spark's, the lines Spark's PERMISSIVE
 * mode keeps in {@code _corrupt_record} are dead letters of their file and line, and the add action counts each VARIANT
 * column's nulls as Delta 4.4 counted them in Spark's table ({@code json-source-stats.json}).
 * {@code -Dtributary.variant.keep=DIR} leaves the table in {@code DIR/json-source-table} for {@code SparkVariantSources read}.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class VariantSourcePipelineTest {
    private static final String SCHEMA = "id INT, payload VARIANT, s STRUCT<v: VARIANT, n: INT>, arr ARRAY<VARIANT>, m MAP<STRING, VARIANT>";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void jsonFilesWithVariantFieldsLandAsSparksVariantColumns() throws Exception {
        List<String> lines = golden("json-source-cases.txt");
        List<String> spark = golden("json-source-cases.tsv");
        Files.createDirectories(dir.resolve("in"));
        InputFiles.place(dir.resolve("in"), "a.json", lines.toArray(String[]::new));
        List<JsonNode> letters = VariantPipelines.runReadingDeadLetters(VariantPipelines.spec(dir, """
                name: variantsource
                source:
                  files:
                    path: in/
                    schema: "%s"
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """.formatted(SCHEMA)));

        Path table = dir.resolve("out");
        assertThat(VariantPipelines.tableDdl(table)).isEqualTo(SCHEMA);
        List<String> rows = VariantPipelines.tableRows(table, SCHEMA, List.of("id", "to_json(payload)",
                "schema_of_variant(payload)", "to_json(s)", "to_json(arr)", "to_json(m)")).stream().map(r -> r + "\tNULL").toList();
        assertThat(rows).isEqualTo(VariantPipelines.readWhole(spark));

        List<String> corrupt = VariantPipelines.corruptRecords(spark);
        List<String> expectedLetters = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (corrupt.contains(lines.get(i))) {
                expectedLetters.add("a.json:" + (i + 1));
            }
        }
        assertThat(letters).extracting(l -> l.path("file").asText() + ":" + l.path("line").asLong())
                .containsExactlyInAnyOrderElementsOf(expectedLetters);

        JsonNode expected = JSON.readTree(golden("json-source-stats.json").get(0));
        List<JsonNode> adds = VariantPipelines.logActions(table, "add");
        assertThat(adds).hasSize(1);
        JsonNode got = JSON.readTree(adds.get(0).get("stats").asText());
        assertThat(got.get("numRecords")).isEqualTo(expected.get("numRecords"));
        assertThat(got.get("nullCount").get("payload")).isEqualTo(expected.get("nullCount").get("payload"));
        assertThat(got.get("nullCount").get("s")).isEqualTo(expected.get("nullCount").get("s"));

        VariantPipelines.keepTable(table, "json-source-table"); // for compat/spark's SparkVariantSources read
    }
}
