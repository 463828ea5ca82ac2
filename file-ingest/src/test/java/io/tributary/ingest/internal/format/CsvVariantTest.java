package io.tributary.ingest.internal.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.expressions.Transform;
import io.tributary.ingest.IngestConfig;
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
 * A VARIANT column of a CSV file reads as Spark 4.2's CSV reader reads it ({@code golden/variant/csv-source.tsv}, recorded by
 * compat/spark's {@code SparkVariantSources}): each value typed by the first of BIGINT, DECIMAL, DATE, TIMESTAMP, BOOLEAN and
 * STRING that reads it, from the type the column's last value took in the same file on.
 */
class CsvVariantTest {
    private static final Schema SCHEMA = Schema.parseWithVariant("id INT, v VARIANT");
    private static final Transform QUERY = Transform.compile(SCHEMA, null, List.of("id", "to_json(v)", "schema_of_variant(v)"));

    @TempDir
    Path tmp;

    @Test
    void aCsvVariantIsTypedAsSparksReaderTypesItInItsFile() throws IOException {
        assertThat(read("csv-source-cases.csv", golden("csv-source-cases.csv"))).isEqualTo(golden("csv-source.tsv"));
    }

    @Test
    void eachFileStartsTheTypesAfresh() throws IOException {
        assertThat(read("b.csv", List.of("1,hello", "2,7"))).containsExactly("1\t\"hello\"\tSTRING", "2\t\"7\"\tSTRING");
        assertThat(read("c.csv", List.of("3,7"))).containsExactly("3\t7\tBIGINT");
    }

    private List<String> read(String name, List<String> lines) throws IOException {
        Path file = tmp.resolve(name);
        Files.write(file, lines);
        IngestConfig config = IngestConfig.builder("variants", tmp, SCHEMA).format("csv").build();
        List<String> out = new ArrayList<>();
        try (RawInput raw = new RawInput(Files.newInputStream(file));
             RecordReader records = new RecordReaders(config).open(name, raw, file)) {
            while (records.next()) {
                List<String> cells = new ArrayList<>();
                for (Object v : QUERY.apply(records.row())) {
                    cells.add(v == null ? "NULL" : String.valueOf(v));
                }
                out.add(String.join("\t", cells));
            }
        }
        return out;
    }

    private static List<String> golden(String name) throws IOException {
        try (InputStream in = CsvVariantTest.class.getClassLoader().getResourceAsStream("golden/variant/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
