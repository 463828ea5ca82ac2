package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.schema.Topics;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.TopicTail;
import io.tributary.testing.InputFiles;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code source.files.format: xml} without a schema, as Spark 4.2's {@code readStream.format("xml").option("rowTag", "book")}
 * with {@code spark.sql.streaming.schemaInference} reads {@code golden/xml/books/in/} (attributes, nested and repeated
 * elements, spaces around values, empty elements, a namespace prefix, timestamps and dates, a gzip file, a malformed record)
 * into a Delta table: Tributary's table has Spark's columns and types (less Spark's {@code _corrupt_record}) and Spark's rows
 * ({@code spark-schema.txt}, {@code spark.jsonl}, recorded by compat/spark's {@code SparkXmlSource}), and the record Spark
 * marked corrupt is a dead letter of its file and line, with Spark's corrupt-record text.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class XmlSourcePipelineTest {
    private static final Path GOLDEN = Path.of("..", "golden", "xml", "books");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX").withZone(ZoneOffset.UTC);

    @TempDir
    Path dir;

    @Test
    void xmlFilesLandAsSparksStreamWroteThem() throws Exception {
        Files.createDirectories(dir.resolve("in"));
        try (Stream<Path> files = Files.list(GOLDEN.resolve("in"))) {
            for (Path f : files.toList()) {
                InputFiles.place(dir.resolve("in"), f.getFileName().toString(), Files.readAllBytes(f));
            }
        }
        Path specFile = dir.resolve("pipeline.yaml");
        Files.writeString(specFile, """
                name: xmlbooks
                source:
                  files:
                    path: in/
                    format: xml
                    options:
                      rowTag: book
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """);
        PipelineSpec spec = PipelineSpec.load(specFile, Map.of(), Map.of());
        List<JsonNode> letters;
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            pipeline.run(spec.trigger(), p -> { });
            letters = TopicTail.json(pipeline.clientProps(), Topics.deadLetter("xmlbooks"));
        }

        String table = dir.resolve("out").toString();
        Schema schema = DeltaTables.schema(table).orElseThrow();
        List<String> columns = new ArrayList<>();
        for (Field f : schema.fields()) {
            columns.add(f.name() + " " + f.type().ddl());
        }
        assertThat(String.join(", ", columns))
                .isEqualTo(Files.readString(GOLDEN.resolve("spark-schema.txt")).strip().replace("_corrupt_record STRING, ", ""));

        List<JsonNode> rows = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(table)) {
            rows.add(tree(JSON.writeValueAsString(JSON.createObjectNode().set("row", struct(schema, r))))); // numbers as read back
        }
        List<JsonNode> spark = Files.readAllLines(GOLDEN.resolve("spark.jsonl")).stream().map(XmlSourcePipelineTest::tree).toList();
        assertThat(rows).containsExactlyInAnyOrderElementsOf(spark.stream().filter(n -> n.has("row")).toList());

        List<JsonNode> corrupt = spark.stream().filter(n -> n.has("corrupt")).toList();
        assertThat(letters).extracting(l -> l.path("file").asText() + ":" + l.path("line").asLong()).containsExactly("c.xml:3");
        assertThat(letters).extracting(l -> l.path("text").asText()).containsExactlyElementsOf(corrupt.stream().map(n -> n.get("corrupt").asText()).toList());
    }

    /**
     * {@code singleVariantColumn: v}: each record of {@code golden/xml/variant/in/} lands as the one VARIANT column of Spark's
     * table, {@code to_json(v)} and {@code schema_of_variant(v)} as Spark's ({@code spark-variant.tsv}).
     */
    @Test
    void eachXmlRecordLandsAsOneVariantAsInSpark() throws Exception {
        Path golden = GOLDEN.resolveSibling("variant");
        Files.createDirectories(dir.resolve("in"));
        InputFiles.place(dir.resolve("in"), "a.xml", Files.readAllBytes(golden.resolve("in").resolve("a.xml")));
        Path specFile = dir.resolve("pipeline.yaml");
        Files.writeString(specFile, """
                name: xmlvariant
                source:
                  files:
                    path: in/
                    format: xml
                    options:
                      rowTag: book
                      singleVariantColumn: v
                      nullValue: n/a
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """);
        PipelineSpec spec = PipelineSpec.load(specFile, Map.of(), Map.of());
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            pipeline.run(spec.trigger(), p -> { });
        }
        String table = dir.resolve("out").toString();
        Schema schema = DeltaTables.schema(table).orElseThrow();
        assertThat(schema.toDdl()).isEqualTo(Files.readString(golden.resolve("spark-schema.txt")).strip());
        io.tributary.expressions.Transform query = io.tributary.expressions.Transform.compile(schema, null,
                List.of("to_json(v)", "schema_of_variant(v)"));
        List<String> rows = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(table)) {
            Object[] q = query.apply(r);
            rows.add(q[0] + "\t" + q[1]);
        }
        rows.sort(null);
        assertThat(rows).isEqualTo(Files.readAllLines(golden.resolve("spark-variant.tsv")));
    }

    private static JsonNode tree(String line) {
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new AssertionError(line, e);
        }
    }

    /** A row as Spark's {@code to_json} wrote the golden rows: nulls kept, timestamps with six fraction digits in UTC. */
    private static ObjectNode struct(Schema schema, Object[] row) {
        ObjectNode n = JSON.createObjectNode();
        for (int i = 0; i < schema.size(); i++) {
            n.set(schema.field(i).name(), value(schema.field(i).type(), row[i]));
        }
        return n;
    }

    private static JsonNode value(DataType t, Object v) {
        if (v == null) {
            return JSON.nullNode();
        }
        return switch (t.kind()) {
            case BYTE, SHORT, INT, LONG -> JSON.getNodeFactory().numberNode(((Number) v).longValue());
            case FLOAT, DOUBLE -> JSON.getNodeFactory().numberNode(((Number) v).doubleValue());
            case DECIMAL -> JSON.getNodeFactory().numberNode((BigDecimal) v);
            case BOOLEAN -> JSON.getNodeFactory().booleanNode((Boolean) v);
            case DATE -> JSON.getNodeFactory().textNode(LocalDate.ofEpochDay(((Number) v).longValue()).toString());
            case TIMESTAMP -> {
                long micros = (Long) v;
                yield JSON.getNodeFactory().textNode(TS.format(Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
                        Math.floorMod(micros, 1_000_000L) * 1000L)));
            }
            case STRUCT -> struct(t.struct(), (Object[]) v);
            case ARRAY -> {
                ArrayNode a = JSON.createArrayNode();
                for (Object e : (List<?>) v) {
                    a.add(value(t.element(), e));
                }
                yield a;
            }
            default -> JSON.getNodeFactory().textNode(String.valueOf(v));
        };
    }
}
