package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.expressions.Transform;
import io.tributary.schema.Schema;
import io.tributary.schema.Topics;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.TopicTail;
import io.tributary.testing.Folders;
import io.tributary.testing.InputFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
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
        Path specFile = dir.resolve("pipeline.yaml");
        Files.writeString(specFile, """
                name: variantsource
                source:
                  files:
                    path: in/
                    schema: "%s"
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """.formatted(SCHEMA));
        PipelineSpec spec = PipelineSpec.load(specFile, Map.of(), Map.of());
        List<JsonNode> letters;
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            pipeline.run(spec.trigger(), p -> { });
            letters = TopicTail.json(pipeline.clientProps(), Topics.deadLetter("variantsource"));
        }

        String table = dir.resolve("out").toString();
        assertThat(DeltaTables.schema(table).orElseThrow().toDdl()).isEqualTo(SCHEMA);
        Transform query = Transform.compile(Schema.parseWithVariant(SCHEMA), null, List.of("id", "to_json(payload)",
                "schema_of_variant(payload)", "to_json(s)", "to_json(arr)", "to_json(m)"));
        List<String> rows = DeltaTables.readRows(table).stream().sorted(Comparator.comparing(r -> (Integer) r[0]))
                .map(r -> tsv(query.apply(r)) + "\tNULL").toList();
        assertThat(rows).isEqualTo(spark.stream().filter(l -> l.endsWith("\tNULL")).toList());

        List<String> corrupt = spark.stream().filter(l -> !l.endsWith("\tNULL")).map(l -> l.substring(l.lastIndexOf('\t') + 1)).toList();
        List<String> expectedLetters = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (corrupt.contains(lines.get(i))) {
                expectedLetters.add("a.json:" + (i + 1));
            }
        }
        assertThat(letters).extracting(l -> l.path("file").asText() + ":" + l.path("line").asLong())
                .containsExactlyInAnyOrderElementsOf(expectedLetters);

        JsonNode expected = JSON.readTree(golden("json-source-stats.json").get(0));
        JsonNode got = JSON.readTree(addStats(dir.resolve("out")));
        assertThat(got.get("numRecords")).isEqualTo(expected.get("numRecords"));
        assertThat(got.get("nullCount").get("payload")).isEqualTo(expected.get("nullCount").get("payload"));
        assertThat(got.get("nullCount").get("s")).isEqualTo(expected.get("nullCount").get("s"));

        String keep = System.getProperty("tributary.variant.keep"); // for compat/spark's SparkVariantSources read
        if (keep != null) {
            Path target = Path.of(keep).resolve("json-source-table");
            if (Files.exists(target)) {
                try (var old = Files.walk(target)) {
                    old.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
            Folders.copy(dir.resolve("out"), target);
        }
    }

    /** The stats of the table's one add action. */
    private static String addStats(Path table) throws IOException {
        List<String> stats = new ArrayList<>();
        try (var files = Files.list(table.resolve("_delta_log"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                for (String line : Files.readAllLines(f)) {
                    JsonNode action = JSON.readTree(line);
                    if (action.has("add")) {
                        stats.add(action.get("add").get("stats").asText());
                    }
                }
            }
        }
        assertThat(stats).hasSize(1);
        return stats.get(0);
    }

    private static String tsv(Object[] row) {
        List<String> cells = new ArrayList<>();
        for (Object v : row) {
            cells.add(v == null ? "NULL" : String.valueOf(v));
        }
        return String.join("\t", cells);
    }

    private static List<String> golden(String name) throws IOException {
        try (InputStream in = VariantSourcePipelineTest.class.getResourceAsStream("/golden/variant/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
