package io.tributary.ingest.internal.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.ingest.FileFormat;
import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.SchemaInference;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The xml format against Spark 4.2's streaming XML source: {@code golden/xml/<case>/} holds the files ({@code in/}), the
 * options ({@code case.json}), the schema of the Delta table Spark's stream wrote with the schema it inferred
 * ({@code spark-schema.txt}) and its rows ({@code spark.jsonl}), recorded by compat/spark's {@code SparkXmlSource}. Tributary
 * must infer the same columns, less Spark's {@code _corrupt_record} (a malformed record is a bad record here), and read the
 * same rows; its bad records must be Spark's corrupt ones, with the same text.
 */
class GoldenXmlTest {
    private static final Path GOLDEN = Path.of("..", "golden", "xml");
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<String> cases() throws IOException {
        try (Stream<Path> s = Files.list(GOLDEN)) {
            return s.filter(p -> Files.exists(p.resolve("spark-schema.txt")) && !Files.exists(p.resolve("spark-variant.tsv"))).map(p -> p.getFileName().toString()).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void infersAndReadsWhatSparksStreamWrote(String name) throws IOException {
        Path dir = GOLDEN.resolve(name);
        Map<String, String> options = options(dir);
        IngestConfig config = IngestConfig.builder("golden", dir.resolve("in"), FileFormat.textSchema())
                .format("xml").formatOptions(options).build();
        Schema ours = SchemaInference.infer(config, null);
        String spark = Files.readString(dir.resolve("spark-schema.txt")).strip();
        assertThat(ddl(ours)).as("case %s: the schema", name).isEqualTo(spark.replace("_corrupt_record STRING, ", ""));

        List<JsonNode> rows = GoldenFormatsTest.read(dir.resolve("in"), FileFormat.of("xml", options), ours);
        assertThat(rows).as("case %s: the rows and bad records", name)
                .containsExactlyInAnyOrderElementsOf(GoldenFormatsTest.expected(dir.resolve("spark.jsonl")));
    }

    /**
     * {@code golden/xml/variant}: with {@code singleVariantColumn: v} each record is one VARIANT, as Spark 4.2's XML reader
     * makes it: {@code to_json(v)} and {@code schema_of_variant(v)} of each row are Spark's ({@code spark-variant.tsv}).
     */
    @Test
    void eachRecordAsOneVariantAsSparkReadsIt() throws IOException {
        Path dir = GOLDEN.resolve("variant");
        FileFormat format = FileFormat.of("xml", options(dir));
        Schema schema = format.singleVariantSchema(null);
        RecordReaders readers = new RecordReaders(format, schema, java.time.ZoneOffset.UTC, 1 << 20);
        io.tributary.expressions.Transform query = io.tributary.expressions.Transform.compile(schema, null,
                List.of("to_json(v)", "schema_of_variant(v)"));
        List<String> ours = new ArrayList<>();
        Path file = dir.resolve("in").resolve("a.xml");
        try (RawInput raw = new RawInput(Files.newInputStream(file)); RecordReader records = readers.open("a.xml", raw, file)) {
            while (records.next()) {
                Object[] q = query.apply(records.row());
                ours.add(q[0] + "\t" + q[1]);
            }
        }
        ours.sort(null);
        assertThat(ours).isEqualTo(Files.readAllLines(dir.resolve("spark-variant.tsv")));
    }

    @Test
    void noRowTagIsRefusedAsSparkRefusesIt() throws IOException {
        String spark = Files.readString(GOLDEN.resolve("no-rowtag").resolve("spark-error.txt"));
        Matcher condition = Pattern.compile("\\[(XML_[A-Z_]+)]").matcher(spark);
        assertThat(condition.find()).as("Spark's condition in %s", spark).isTrue();
        assertThatThrownBy(() -> FileFormat.of("xml", options(GOLDEN.resolve("no-rowtag"))))
                .isInstanceOf(TributaryException.class)
                .hasMessageStartingWith("source.files.options.rowTag is not given")
                .hasMessageContaining(condition.group(1));
    }

    @Test
    void sparksModeIsTributarysOnBadRecord() {
        assertThatThrownBy(() -> FileFormat.of("xml", Map.of("rowTag", "book", "mode", "DROPMALFORMED")))
                .isInstanceOf(TributaryException.class)
                .hasMessageStartingWith("source.files.options.mode: 'DROPMALFORMED' is not taken")
                .hasMessageContaining("onBadRecord");
        assertThatThrownBy(() -> FileFormat.of("xml", Map.of("rowTag", "book", "ignoreSurroundingSpaces", "yes")))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("ignoresurroundingspaces is true or false, not 'yes'");
    }

    /** The columns as the recorder writes Spark's: {@code name TYPE, ...}. */
    private static String ddl(Schema schema) {
        List<String> columns = new ArrayList<>();
        for (Field f : schema.fields()) {
            columns.add(f.name() + " " + f.type().ddl());
        }
        return String.join(", ", columns);
    }

    private static Map<String, String> options(Path dir) throws IOException {
        JsonNode spec = JSON.readTree(dir.resolve("case.json").toFile());
        Map<String, String> options = new HashMap<>();
        spec.path("options").fields().forEachRemaining(e -> options.put(e.getKey(), e.getValue().asText()));
        options.computeIfPresent("rowValidationXSDPath", (k, v) -> Path.of("..").resolve(v).toAbsolutePath().toString()); // as from the repository
        return options;
    }
}
