package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.BadRecordException;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.schema.TimeTexts;
import io.tributary.schema.VariantValue;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A JSON input's VARIANT fields read as Spark 4.2's JSON reader reads them, against its recordings (compat/spark's
 * {@code SparkVariants} and {@code SparkVariantSources}): {@code golden/variant/json-source.tsv} (a top-level field over
 * objects, arrays and scalars) and {@code golden/variant/json-source-cases.tsv} (nested in a struct, an array and a map,
 * missing fields, JSON nulls, lenient JSON, numbers past BIGINT and DECIMAL(38), and the lines Spark's PERMISSIVE mode
 * keeps in {@code _corrupt_record}, which are bad records here).
 */
class JsonInputVariantsTest {
    private static final Schema PAYLOAD = Schema.parseWithVariant("id INT, payload VARIANT");
    private static final Schema CASES = Schema.parseWithVariant("id INT, payload VARIANT, s STRUCT<v: VARIANT, n: INT>, arr ARRAY<VARIANT>, "
            + "m MAP<STRING, VARIANT>");

    private static RowJson input(Schema schema) {
        return new RowJson(schema, TimeTexts.of(ZoneOffset.UTC), JsonInputVariants.INSTANCE);
    }

    @Test
    void aVariantFieldIsTheVariantOfItsJsonAsSparksJsonReaderMakesIt() throws IOException {
        List<String> cases = golden("cases.txt");
        Transform query = Transform.compile(PAYLOAD, null, List.of("id", "to_json(payload)", "schema_of_variant(payload)"));
        Transform parsed = Transform.compile(Schema.parse("raw STRING"), null, List.of("parse_json(raw) AS v"));
        List<String> got = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            Object[] row = input(PAYLOAD).parse("{\"id\": " + (i + 1) + ", \"payload\": " + cases.get(i) + "}");
            got.add(tsv(query.apply(row)));
            assertThat(row[1]).as("the same bytes as parse_json's").isEqualTo(parsed.apply(new Object[] {cases.get(i)})[0]);
        }
        assertThat(got).isEqualTo(golden("json-source.tsv"));
    }

    @Test
    void nestedMissingNullAndMalformedValuesReadAsSparksRows() throws IOException {
        List<String> lines = golden("json-source-cases.txt");
        List<String> spark = golden("json-source-cases.tsv");
        Transform query = Transform.compile(CASES, null, List.of("id", "to_json(payload)", "schema_of_variant(payload)", "to_json(s)",
                "to_json(arr)", "to_json(m)"));
        List<String> good = new ArrayList<>();
        List<String> bad = new ArrayList<>();
        for (String line : lines) {
            try {
                good.add(tsv(query.apply(input(CASES).parse(line))) + "\tNULL");
            } catch (BadRecordException e) {
                bad.add(line);
            }
        }
        List<String> sparkGood = spark.stream().filter(l -> l.endsWith("\tNULL")).toList();
        List<String> sparkBad = spark.stream().filter(l -> !l.endsWith("\tNULL"))
                .map(l -> l.substring(l.lastIndexOf('\t') + 1)).toList();
        assertThat(good).isEqualTo(sparkGood);
        assertThat(bad).as("Spark's _corrupt_record lines").containsExactlyInAnyOrderElementsOf(sparkBad);
    }

    @Test
    void aKeyTwiceIsABadRecordNamingTheFieldAndSparksErrorClass() {
        assertThatThrownBy(() -> input(CASES).parse("{\"id\": 1, \"s\": {\"v\": [{\"k\": 1, \"k\": 2}]}}"))
                .isInstanceOf(BadRecordException.class)
                .hasMessageContaining("s.v").hasMessageContaining("VARIANT_DUPLICATE_KEY").hasMessageContaining("'k'");
        assertThat(input(CASES).parse("{\"id\": 1, \"payload\": {\"k\": {\"k\": 1}, \"j\": {\"k\": 2}}}")[1])
                .as("one key in two objects").isInstanceOf(VariantValue.class);
    }

    @Test
    void theTopicsCanonicalFormIsUnchanged() {
        Object[] row = input(PAYLOAD).parse("{\"id\": 1, \"payload\": {\"a\": 1}}");
        RowJson topic = new RowJson(PAYLOAD);
        assertThat(topic.parse(topic.write(row))).isEqualTo(row);
        assertThat(new String(topic.write(row), StandardCharsets.UTF_8)).contains("\"payload\":{\"value\":");
    }

    private static String tsv(Object[] row) {
        List<String> cells = new ArrayList<>();
        for (Object v : row) {
            cells.add(v == null ? "NULL" : String.valueOf(v));
        }
        return String.join("\t", cells);
    }

    private static List<String> golden(String name) throws IOException {
        try (InputStream in = JsonInputVariantsTest.class.getClassLoader().getResourceAsStream("golden/variant/" + name)) {
            if (in == null) {
                throw new IllegalStateException("no golden/variant/" + name + " on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
