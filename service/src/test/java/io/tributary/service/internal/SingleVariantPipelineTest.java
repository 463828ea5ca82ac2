package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.expressions.Transform;
import io.tributary.schema.Schema;
import io.tributary.schema.Topics;
import io.tributary.schema.TributaryException;
import io.tributary.schema.VariantValue;
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
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
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
        PipelineSpec spec = spec("");
        List<JsonNode> letters;
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            pipeline.run(spec.trigger(), p -> { });
            letters = TopicTail.json(pipeline.clientProps(), Topics.deadLetter("singlevariant"));
        }

        assertThat(JSON.readTree(schemaString(dir.resolve("out")))).isEqualTo(JSON.readTree(golden("json-schema.json").get(0)));
        Transform query = Transform.compile(Schema.parseWithVariant("v VARIANT"), null, List.of("to_json(v)", "schema_of_variant(v)"));
        List<String> rows = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(dir.resolve("out").toString())) {
            Object[] q = query.apply(r);
            VariantValue v = (VariantValue) r[0];
            rows.add(String.join("\t", String.valueOf(q[0]).replace("\t", "\\t").replace("\n", "\\n"), String.valueOf(q[1]),
                    HexFormat.of().formatHex(v.value()), HexFormat.of().formatHex(v.metadata())));
        }
        rows.sort(null);
        List<String> spark = golden("json.tsv");
        assertThat(rows).isEqualTo(spark.stream().filter(l -> !l.startsWith("NULL\t")).toList());
        assertThat(letters).extracting(l -> l.path("file").asText() + ":" + l.path("line").asLong())
                .containsExactlyInAnyOrder("a.json:6", "a.json:7")
                .hasSize((int) spark.stream().filter(l -> l.startsWith("NULL\t")).count());

        String keep = System.getProperty("tributary.variant.keep"); // for compat/spark's SparkSingleVariantColumn read
        if (keep != null) {
            Path target = Path.of(keep).resolve("single-variant-table");
            if (Files.exists(target)) {
                try (var old = Files.walk(target)) {
                    old.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
            Folders.copy(dir.resolve("out"), target);
        }
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
        Path specFile = dir.resolve("pipeline.yaml");
        Files.writeString(specFile, """
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
        return PipelineSpec.load(specFile, Map.of(), Map.of());
    }

    /** The schemaString of the table's first commit's metaData. */
    private static String schemaString(Path table) throws IOException {
        for (String line : Files.readAllLines(table.resolve("_delta_log").resolve(String.format("%020d.json", 0)))) {
            JsonNode action = JSON.readTree(line);
            if (action.has("metaData")) {
                return action.get("metaData").get("schemaString").asText();
            }
        }
        throw new AssertionError("no metaData in the table's first commit");
    }

    private static List<String> golden(String name) throws IOException {
        try (InputStream in = SingleVariantPipelineTest.class.getResourceAsStream("/golden/variant/single-variant/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
