package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import io.tributary.sink.DeltaTables;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Auto Loader's schema evolution modes against the golden cases of {@code golden/evolution/<mode>/}:
 * the case's files are dropped run by run ({@code case.json}'s {@code runs}) into a pipeline with
 * the case's schema and mode, each run a {@code tributary run} on a real broker into a real Delta
 * table. The table must hold what Spark 4.2's batch reader read from all the files with the
 * resulting schema ({@code spark.jsonl}; its corrupt records are dead letters), or, where Spark has
 * no equivalent (rescue, failOnNewColumns), Auto Loader's documented result ({@code expected.jsonl},
 * {@code error}).
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(600)
class GoldenEvolutionScenarioTest {
    private static final Path GOLDEN = Path.of("..", "golden", "evolution");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    static Stream<String> cases() throws IOException {
        try (Stream<Path> s = Files.list(GOLDEN)) {
            return s.filter(p -> Files.exists(p.resolve("case.json"))).map(p -> p.getFileName().toString()).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void theTableHoldsWhatSparkOrAutoLoaderGives(String name) throws IOException {
        Path golden = GOLDEN.resolve(name);
        JsonNode spec = JSON.readTree(golden.resolve("case.json").toFile());
        String mode = spec.get("mode").asText();
        Workspace w = new Workspace(dir, """
                name: evolving
                source:
                  files:
                    path: in/
                    format: %s
                    schema: "%s"
                    schemaEvolution: %s
                sink:
                  delta:
                    path: out/
                    mergeSchema: %s
                trigger: availableNow
                """.formatted(spec.get("format").asText(), spec.get("specSchema").asText(), mode, "addNewColumns".equals(mode)));
        List<JsonNode> runs = new ArrayList<>();
        spec.get("runs").forEach(runs::add);
        Workspace.Result last = null;
        for (int i = 0; i < runs.size(); i++) {
            for (JsonNode file : runs.get(i)) {
                w.addFile(file.asText(), Files.readAllLines(golden.resolve("in").resolve(file.asText())).toArray(String[]::new));
            }
            last = w.tributary("run");
            if (i < runs.size() - 1 || !spec.has("error")) {
                last.assertOk();
            }
        }
        String table = dir.resolve("out").toString();
        if (spec.has("error")) {
            assertThat(last.exitCode()).as("the last run fails").isEqualTo(1);
            for (JsonNode part : spec.get("error")) {
                assertThat(last.err()).contains(part.asText());
            }
        }
        Schema schema = DeltaTables.schema(table).orElseThrow();
        assertThat(schema.toDdl()).isEqualTo(spec.has("tableSchema") ? spec.get("tableSchema").asText() : spec.get("schema").asText());

        List<JsonNode> expected = new ArrayList<>();
        long corrupt = 0;
        boolean autoLoader = Files.exists(golden.resolve("expected.jsonl"));
        for (String line : Files.readAllLines(golden.resolve(autoLoader ? "expected.jsonl" : "spark.jsonl"))) {
            JsonNode n = JSON.readTree(line);
            if (n.has("corrupt")) {
                corrupt++;
            } else {
                expected.add(n);
            }
        }
        List<JsonNode> actual = new ArrayList<>();
        for (Object[] row : DeltaTables.readRows(table)) {
            actual.add(JSON.readTree("{\"row\":" + canonical(schema, row) + "}"));
        }
        assertThat(actual).as("case %s", name).containsExactlyInAnyOrderElementsOf(expected);
        if (!autoLoader) {
            assertThat(last.summary().path("stages").path("evolving/ingest").path("lastSinkMetrics").path("numDeadLetterRows").asLong())
                    .as("Spark's corrupt records are dead letters").isEqualTo(corrupt);
        }
    }

    /** A Delta row as Spark's to_json writes it; {@code _rescued_data} as its JSON, {@code _file_path} reduced to the file's name. */
    private static String canonical(Schema schema, Object[] row) throws IOException {
        ObjectNode out = JSON.createObjectNode();
        for (int i = 0; i < schema.size(); i++) {
            String column = schema.field(i).name();
            JsonNode v = JSON.readTree(json(schema.field(i).type(), row[i]));
            if ("_rescued_data".equals(column) && v.isTextual()) {
                ObjectNode rescued = (ObjectNode) JSON.readTree(v.textValue());
                rescued.put("_file_path", Path.of(rescued.path("_file_path").asText()).getFileName().toString());
                v = rescued;
            }
            out.set(column, v);
        }
        return JSON.writeValueAsString(out);
    }

    private static String json(DataType t, Object v) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = JSON.getFactory().createGenerator(w)) {
            write(g, t, v);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    private static void write(JsonGenerator g, DataType t, Object v) throws IOException {
        if (v == null) {
            g.writeNull();
            return;
        }
        switch (t.kind()) {
            case BYTE, SHORT, INT, LONG -> g.writeNumber(((Number) v).longValue());
            case FLOAT, DOUBLE -> g.writeNumber(((Number) v).doubleValue());
            case STRING -> g.writeString((String) v);
            case BOOLEAN -> g.writeBoolean((Boolean) v);
            case STRUCT -> {
                g.writeStartObject();
                Object[] fields = (Object[]) v;
                for (int i = 0; i < t.struct().size(); i++) {
                    g.writeFieldName(t.struct().field(i).name());
                    write(g, t.struct().field(i).type(), fields[i]);
                }
                g.writeEndObject();
            }
            case ARRAY -> {
                g.writeStartArray();
                for (Object e : (List<?>) v) {
                    write(g, t.element(), e);
                }
                g.writeEndArray();
            }
            case MAP -> {
                g.writeStartObject();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    g.writeFieldName((String) e.getKey());
                    write(g, t.valueType(), e.getValue());
                }
                g.writeEndObject();
            }
            default -> g.writeString(String.valueOf(v));
        }
    }
}
