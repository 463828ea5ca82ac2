package io.tributary.ingest.internal.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.expressions.Transform;
import io.tributary.ingest.IngestConfig;
import io.tributary.schema.BadRecordException;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code format: debezium-json} files with a VARIANT column: Debezium writes a JSON column ({@code io.debezium.data.Json})
 * as a string holding the JSON, which reads as the variant Spark's {@code parse_json} makes of it
 * ({@code golden/variant/debezium.tsv}: Spark's {@code from_json} and {@code parse_json(after.doc)} over the same events);
 * under the JSON converter's schema wrapper alike; a text {@code parse_json} fails on is a bad record naming
 * {@code after.doc} and Spark's error class ({@code debezium-failing.tsv}).
 */
class DebeziumVariantTest {
    private static final Schema SCHEMA = Schema.parseWithVariant("id INT, doc VARIANT");

    @TempDir
    Path tmp;

    @Test
    void aJsonColumnDeclaredVariantIsParseJsonOfItsText() throws IOException {
        assertThat(read("a.json", golden("debezium-cases.txt"))).isEqualTo(golden("debezium.tsv"));
    }

    @Test
    void underTheConvertersSchemaWrapperTheJsonColumnReadsAlike() throws IOException {
        String schema = "{\"type\":\"struct\",\"fields\":[{\"type\":\"struct\",\"optional\":true,\"field\":\"after\",\"fields\":["
                + "{\"type\":\"int32\",\"optional\":false,\"field\":\"id\"},"
                + "{\"type\":\"string\",\"optional\":true,\"name\":\"io.debezium.data.Json\",\"version\":1,\"field\":\"doc\"}]}],"
                + "\"name\":\"pg.public.docs.Envelope\"}";
        List<String> wrapped = golden("debezium-cases.txt").stream().limit(2).map(e -> "{\"schema\":" + schema + ",\"payload\":" + e + "}").toList();
        assertThat(read("w.json", wrapped)).isEqualTo(golden("debezium.tsv").subList(0, 2));
    }

    @Test
    void aTextParseJsonFailsOnIsABadRecordNamingTheFieldAndSparksClass() throws IOException {
        List<String> spark = golden("debezium-failing.tsv");
        List<String> got = read("bad.json", golden("debezium-failing.txt"));
        assertThat(got).hasSize(spark.size());
        for (int i = 0; i < spark.size(); i++) {
            String condition = spark.get(i).substring("ERROR ".length(), spark.get(i).indexOf(':'));
            assertThat(got.get(i)).startsWith("bad line " + (i + 1) + " after.doc: " + condition + ": ");
        }
    }

    private List<String> read(String name, List<String> lines) throws IOException {
        Path file = tmp.resolve(name);
        Files.write(file, lines);
        IngestConfig config = IngestConfig.builder("variants", tmp, SCHEMA).format("debezium-json").build();
        Transform query = Transform.compile(config.schema(), null, List.of("id", "to_json(doc)", "schema_of_variant(doc)", "op", "lsn"));
        List<String> out = new ArrayList<>();
        try (RawInput raw = new RawInput(Files.newInputStream(file));
             RecordReader records = new RecordReaders(config).open(name, raw, file)) {
            while (records.next()) {
                try {
                    List<String> cells = new ArrayList<>();
                    for (Object v : query.apply(records.row())) {
                        cells.add(v == null ? "NULL" : String.valueOf(v));
                    }
                    out.add(String.join("\t", cells));
                } catch (BadRecordException e) {
                    out.add("bad line " + records.line() + " " + e.field() + ": " + e.reason());
                }
            }
        }
        return out;
    }

    private static List<String> golden(String name) throws IOException {
        try (InputStream in = DebeziumVariantTest.class.getClassLoader().getResourceAsStream("golden/variant/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
