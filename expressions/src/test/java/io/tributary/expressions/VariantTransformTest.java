package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Schema;
import io.tributary.schema.VariantValue;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A bronze job's VARIANT over rows: JSON text parsed once, its parts read as typed columns, a VARIANT column kept as its bytes. */
class VariantTransformTest {
    private static final Schema RAW = Schema.parse("id INT, raw STRING");

    @Test
    void partsOfTheParsedJsonBecomeTypedColumns() {
        Transform t = Transform.compile(RAW, "variant_get(parse_json(raw), '$.a.b', 'int') > 0", List.of("id",
                "variant_get(parse_json(raw), '$.a.b', 'int') AS b", "parse_json(raw):a.c[1]::string AS c",
                "to_json(parse_json(raw):a) AS a", "schema_of_variant(parse_json(raw)) AS s",
                "try_variant_get(parse_json(raw), '$.a.c', 'array<int>') AS nums"));
        assertThat(t.output().toDdl()).isEqualTo("id INT, b INT, c STRING, a STRING, s STRING, nums ARRAY<INT>");
        Object[] out = t.apply(new Object[] {1, "{\"a\": {\"b\": 5, \"c\": [1, \"x\"]}}"});
        assertThat(out).containsExactly(1, 5, "x", "{\"b\":5,\"c\":[1,\"x\"]}", "OBJECT<a: OBJECT<b: BIGINT, c: ARRAY<VARIANT>>>",
                java.util.Arrays.asList(1, null));
        assertThat(t.apply(new Object[] {2, "{\"a\": {\"b\": -1}}"})).as("filtered out").isNull();
        assertThat(t.apply(new Object[] {3, "{\"a\": {}}"})).as("no b: null is not true").isNull();
    }

    @Test
    void theColonPathReadsInASqlQueryToo() {
        SqlQuery q = SqlQuery.parse("SELECT id, parse_json(raw):a.b::int AS b, parse_json(raw):a['c d'][0]::string c FROM source"
                + " WHERE parse_json(raw):a.b::int > 0");
        assertThat(q.select()).extracting(SqlQuery.Part::text)
                .containsExactly("id", "parse_json(raw):a.b::int AS b", "parse_json(raw):a['c d'][0]::string c");
        Transform t = Transform.compile(RAW, q.where().text(), q.select().stream().map(SqlQuery.Part::text).toList());
        assertThat(t.apply(new Object[] {1, "{\"a\": {\"b\": 2, \"c d\": [\"x\"]}}"})).containsExactly(1, 2, "x");
        assertThat(t.apply(new Object[] {2, "{\"a\": {\"b\": 0}}"})).isNull();
    }

    @Test
    void textThatIsNotJsonFailsTheRowWithSparksCondition() {
        Transform t = Transform.compile(RAW, null, List.of("id", "variant_get(parse_json(raw), '$.a', 'int') AS a",
                "variant_get(try_parse_json(raw), '$.a', 'int') AS b"));
        assertThatThrownBy(() -> t.apply(new Object[] {1, "{\"a\": 1"})).isInstanceOf(ExpressionException.class)
                .satisfies(e -> assertThat(((ExpressionException) e).condition()).isEqualTo("MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION"));
        assertThatThrownBy(() -> t.apply(new Object[] {1, "{\"a\": 1, \"a\": 2}"}))
                .satisfies(e -> assertThat(((ExpressionException) e).condition()).isEqualTo("VARIANT_DUPLICATE_KEY"))
                .hasMessageContaining("'a'");
        assertThatThrownBy(() -> t.apply(new Object[] {1, "{\"a\": \"x\"}"}))
                .satisfies(e -> assertThat(((ExpressionException) e).condition()).isEqualTo("INVALID_VARIANT_CAST"));
        Transform tolerant = Transform.compile(RAW, null, List.of("variant_get(try_parse_json(raw), '$.a', 'int') AS b"));
        assertThat(tolerant.apply(new Object[] {1, "{\"a\": 1"})).containsExactly((Object) null);
    }

    @Test
    void aVariantColumnLeavesAsItsBytesAndComesBackAsAVariant() {
        Transform t = Transform.compile(RAW, null, List.of("id", "parse_json(raw) AS payload", "array(parse_json(raw)) AS payloads"));
        assertThat(t.output().toDdl()).isEqualTo("id INT, payload VARIANT, payloads ARRAY<VARIANT>");
        Object[] out = t.apply(new Object[] {1, "{\"a\": {\"b\": 5}}"});
        assertThat(out[1]).isInstanceOf(VariantValue.class);
        assertThat(((List<?>) out[2]).get(0)).isEqualTo(out[1]);
        Transform next = Transform.compile(t.output(), "payload:a.b::int > 0", List.of("to_json(payload) AS j", "payloads[0]:a.b::int AS b"));
        assertThat(next.apply(out)).containsExactly("{\"a\":{\"b\":5}}", 5);
        // an expression over the rows (a filter, an aggregate's input) reads the bytes as a variant too
        assertThat(Expression.compile(t.output(), "payload:a.b::int + 1").eval(out)).isEqualTo(6);
        assertThat(Expression.compile(t.output(), "payloads[0]").eval(out)).isEqualTo(out[1]);
        assertThatThrownBy(() -> Transform.compile(RAW, "parse_json(raw) = parse_json(raw)", null))
                .hasMessageContaining("INVALID_ORDERING_TYPE");
        assertThatThrownBy(() -> Transform.compile(RAW, null, List.of("variant_get(parse_json(raw), '$.a', 'map<int, int>') AS m")))
                .hasMessageContaining("variant_get");
    }
}
