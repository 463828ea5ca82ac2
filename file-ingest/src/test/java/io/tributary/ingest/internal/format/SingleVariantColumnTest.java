package io.tributary.ingest.internal.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.expressions.Transform;
import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.SchemaEvolution;
import io.tributary.schema.BadRecordException;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.schema.VariantValue;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark's JSON option {@code singleVariantColumn}: each whole record is one VARIANT column, with Spark 4.2's bytes
 * ({@code golden/variant/single-variant/json.tsv}, recorded by compat/spark's {@code SparkSingleVariantColumn} from the files
 * of {@code single-variant/in/}): objects, arrays and scalars alike, JSON {@code null} a variant null, blank lines skipped;
 * the lines Spark's PERMISSIVE mode makes a NULL (a key twice, a line cut short) are bad records of their line. A CSV record
 * is one object of its header's names ({@code csv.tsv}), or of Spark's {@code _c0}, {@code _c1} ... without a header
 * ({@code csv-no-header.tsv}).
 */
class SingleVariantColumnTest {
    private static final Schema SCHEMA = Schema.parseWithVariant("v VARIANT");
    private static final Transform QUERY = Transform.compile(SCHEMA, null, List.of("to_json(v)", "schema_of_variant(v)"));

    @TempDir
    Path tmp;

    @Test
    void eachLineIsOneVariantWithSparksBytes() throws IOException {
        List<String> got = new ArrayList<>();
        List<String> bad = new ArrayList<>();
        for (String name : List.of("a.json", "b.json")) {
            read(name, golden("in/" + name), Map.of("singleVariantColumn", "v"), got, bad);
        }
        got.sort(null);
        assertThat(got).isEqualTo(golden("json.tsv").stream().filter(l -> !l.startsWith("NULL\t")).toList());
        assertThat(bad).containsExactly(
                "a.json:6 field 'v': VARIANT_DUPLICATE_KEY: the key 'dup' is written twice in one JSON object, which makes no VARIANT "
                        + "(as in Spark, whose spark.sql.variant.allowDuplicateKeys is false)",
                "a.json:7 malformed JSON: unexpected end of line (truncated record?)");
        assertThat(golden("json.tsv").stream().filter(l -> l.startsWith("NULL\t"))).hasSize(bad.size());
    }

    @Test
    void multiLineReadsEachFilesFirstValueAsSparkDoes() throws IOException {
        List<String> got = new ArrayList<>();
        List<String> bad = new ArrayList<>();
        read("doc.json", List.of("[1,", " {\"a\": null}]", "{\"ignored\": true}"), Map.of("singleVariantColumn", "v", "multiLine", "true"),
                got, bad);
        assertThat(got).hasSize(1).first().asString().startsWith("[1,{\"a\":null}]\tARRAY<VARIANT>\t");
        assertThat(bad).isEmpty();
    }

    @Test
    void aSchemaOtherThanTheOneVariantColumnIsRefusedAsSparkRefusesIt() {
        assertThatThrownBy(() -> IngestConfig.builder("single", tmp, Schema.parseWithVariant("id INT"))
                .formatOptions(Map.of("singleVariantColumn", "v")).build())
                .isInstanceOf(TributaryException.class)
                .hasMessageStartingWith("source.files.schema: 'id INT' is invalid beside source.files.options.singleVariantColumn 'v'")
                .hasMessageContaining("INVALID_SINGLE_VARIANT_COLUMN");
        assertThat(IngestConfig.builder("single", tmp, SCHEMA).formatOptions(Map.of("singleVariantColumn", "v")).build().schema())
                .isEqualTo(SCHEMA);
    }

    @Test
    void schemaEvolutionBesideItIsRefusedInOneLine() {
        assertThatThrownBy(() -> IngestConfig.builder("single", tmp, SCHEMA).formatOptions(Map.of("singleVariantColumn", "v"))
                .schemaEvolution(SchemaEvolution.RESCUE).build())
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("cannot be used with source.files.options.singleVariantColumn, whose one VARIANT column holds "
                        + "every field of a record");
    }

    @Test
    void aCsvRecordIsOneObjectOfItsHeadersNamesAsSparkReadsIt() throws IOException {
        List<String> got = new ArrayList<>();
        List<String> bad = new ArrayList<>();
        read("a.csv", golden("csv/a.csv"), Map.of("singleVariantColumn", "v", "header", "true"), "csv", got, bad);
        got.sort(null);
        assertThat(got).isEqualTo(golden("csv.tsv"));
        assertThat(bad).isEmpty();
    }

    @Test
    void withoutAHeaderTheKeysAreSparksColumnNames() throws IOException {
        List<String> got = new ArrayList<>();
        List<String> bad = new ArrayList<>();
        read("a.csv", golden("csv/a.csv"), Map.of("singleVariantColumn", "v"), "csv", got, bad);
        got.sort(null);
        assertThat(got).isEqualTo(golden("csv-no-header.tsv"));
        assertThat(bad).isEmpty();
    }

    private void read(String name, List<String> lines, Map<String, String> options, List<String> got, List<String> bad) throws IOException {
        read(name, lines, options, "json", got, bad);
    }

    private void read(String name, List<String> lines, Map<String, String> options, String format, List<String> got, List<String> bad)
            throws IOException {
        Path file = tmp.resolve(name);
        Files.write(file, lines);
        IngestConfig config = IngestConfig.builder("single", tmp, SCHEMA).format(format).formatOptions(options).build();
        try (RawInput raw = new RawInput(Files.newInputStream(file));
             RecordReader records = new RecordReaders(config).open(name, raw, file)) {
            while (records.next()) {
                Object[] row;
                try {
                    row = records.row();
                } catch (BadRecordException e) {
                    bad.add(name + ":" + records.line() + " " + e.getMessage());
                    continue;
                }
                List<String> cells = new ArrayList<>();
                for (Object v : QUERY.apply(row)) {
                    cells.add(v == null ? "NULL" : String.valueOf(v).replace("\t", "\\t").replace("\n", "\\n"));
                }
                VariantValue v = (VariantValue) row[0];
                cells.add(HexFormat.of().formatHex(v.value()));
                cells.add(HexFormat.of().formatHex(v.metadata()));
                got.add(String.join("\t", cells));
            }
        }
    }

    private static List<String> golden(String name) throws IOException {
        try (InputStream in = SingleVariantColumnTest.class.getClassLoader().getResourceAsStream("golden/variant/single-variant/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
