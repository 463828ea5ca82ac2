package io.tributary.ingest.internal.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.ingest.FileFormat;
import io.tributary.schema.BadRecordException;
import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each format's reader against Spark's own reader on the same files: {@code golden/formats/<case>/}
 * holds the input ({@code in/}), the format, schema and options ({@code case.json}) and what Spark
 * 4.2 read ({@code spark.jsonl}, written by {@code compat/spark}'s {@code SparkFormats}). The rows
 * Spark read whole are the rows Tributary publishes; the records Spark marks corrupt (its
 * PERMISSIVE mode) are Tributary's bad records, with the same text.
 */
class GoldenFormatsTest {
    private static final Path GOLDEN = Path.of("..", "golden", "formats");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter NTZ = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS").withZone(ZoneOffset.UTC);

    static Stream<String> cases() throws IOException {
        try (Stream<Path> s = Files.list(GOLDEN)) {
            return s.filter(p -> Files.exists(p.resolve("spark.jsonl"))).map(p -> p.getFileName().toString()).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void readsWhatSparkReads(String name) throws IOException {
        Path dir = GOLDEN.resolve(name);
        JsonNode spec = JSON.readTree(dir.resolve("case.json").toFile());
        Map<String, String> options = new HashMap<>();
        spec.path("options").fields().forEachRemaining(e -> options.put(e.getKey(), e.getValue().asText()));
        FileFormat format = FileFormat.of(spec.get("format").asText(), options);
        Schema schema = Schema.parse(spec.get("schema").asText());
        List<JsonNode> actual = read(dir.resolve("in"), format, schema);
        List<JsonNode> expected = expected(dir.resolve("spark.jsonl"));
        if (format.kind() == FileFormat.Kind.JSON && format.flag("multiline", false)) {
            // Spark gives one corrupt row per object it could parse in a bad document; Tributary one bad record per file
            expected = new ArrayList<>(new LinkedHashSet<>(expected));
        }
        assertThat(actual).as("case %s", name).containsExactlyInAnyOrderElementsOf(expected);
    }

    /** Spark's lines of a golden {@code spark.jsonl}. */
    static List<JsonNode> expected(Path sparkJsonl) throws IOException {
        List<JsonNode> expected = new ArrayList<>();
        for (String line : Files.readAllLines(sparkJsonl)) {
            expected.add(JSON.readTree(line));
        }
        return expected;
    }

    /** What Tributary's reader reads from the files of {@code in}, as the golden lines: rows and corrupt records. */
    static List<JsonNode> read(Path in, FileFormat format, Schema schema) throws IOException {
        RecordReaders readers = new RecordReaders(format, schema, ZoneOffset.UTC, 1 << 20);

        List<String> ours = new ArrayList<>();
        try (Stream<Path> files = Files.list(in)) {
            for (Path f : files.filter(p -> !p.getFileName().toString().startsWith(".")).sorted().toList()) {
                try (RawInput raw = new RawInput(Files.newInputStream(f));
                     RecordReader records = readers.open(f.getFileName().toString(), raw, f)) {
                    while (records.next()) {
                        try {
                            ours.add("{\"row\":" + canonical(schema, records.row()) + "}");
                        } catch (BadRecordException e) {
                            ours.add(JSON.writeValueAsString(Map.of("corrupt", records.text(1 << 20).text())));
                        }
                    }
                    raw.drain();
                    assertThat(raw.count()).as("every byte of %s read", f).isEqualTo(Files.size(f));
                }
            }
        }
        List<JsonNode> actual = new ArrayList<>();
        for (String line : ours) {
            actual.add(JSON.readTree(line));
        }
        return actual;
    }

    /** A row as Spark's to_json writes it for the golden files (nulls kept, six fraction digits). */
    static String canonical(Schema schema, Object[] row) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = JSON.getFactory().createGenerator(w)) {
            writeStruct(g, schema, row);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    private static void writeStruct(JsonGenerator g, Schema schema, Object[] row) throws IOException {
        g.writeStartObject();
        for (int i = 0; i < schema.size(); i++) {
            g.writeFieldName(schema.field(i).name());
            write(g, schema.field(i).type(), row[i]);
        }
        g.writeEndObject();
    }

    private static void write(JsonGenerator g, DataType t, Object v) throws IOException {
        if (v == null) {
            g.writeNull();
            return;
        }
        switch (t.kind()) {
            case BYTE, SHORT, INT, LONG -> g.writeNumber(((Number) v).longValue());
            case FLOAT, DOUBLE -> {
                double d = ((Number) v).doubleValue();
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    g.writeString(Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
                } else if (t.kind() == DataType.Kind.FLOAT) {
                    g.writeNumber((Float) v);
                } else {
                    g.writeNumber(d);
                }
            }
            case DECIMAL -> g.writeNumber((BigDecimal) v);
            case STRING -> g.writeString((String) v);
            case BOOLEAN -> g.writeBoolean((Boolean) v);
            case DATE -> g.writeString(LocalDate.ofEpochDay((Integer) v).toString());
            case TIMESTAMP -> g.writeString(TS.format(instant((Long) v)));
            case TIMESTAMP_NTZ -> g.writeString(NTZ.format(instant((Long) v)));
            case BINARY -> g.writeString(Base64.getEncoder().encodeToString((byte[]) v));
            case STRUCT -> writeStruct(g, t.struct(), (Object[]) v);
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
                    g.writeFieldName(key(t.keyType(), e.getKey()));
                    write(g, t.valueType(), e.getValue());
                }
                g.writeEndObject();
            }
        }
    }

    /** A map key as Spark's to_json writes it: the text of its internal value (a DATE's days, a TIMESTAMP's microseconds). */
    private static String key(DataType t, Object k) {
        return t.kind() == DataType.Kind.DECIMAL ? ((BigDecimal) k).toPlainString() : k.toString();
    }

    private static Instant instant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
    }
}
