package io.tributary.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.tributary.schema.Schema;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * listagg and string_agg: the values joined in the order they arrived, or sorted by WITHIN GROUP's keys with ties in that order,
 * nulls skipped, NULL for a group of nulls only, BINARY joined as bytes, other types cast to STRING, and Spark's refusals at start.
 */
class ListAggTest {
    private static final Schema INPUT = Schema.parse("id INT, s STRING, amt DOUBLE, b BINARY, ts TIMESTAMP, tags ARRAY<STRING>");
    private static final List<Object[]> ROWS = List.of(
            new Object[] {1, "b", 4.0, bytes("62"), 10L, null}, new Object[] {2, "é", 1.5, bytes("c3a9"), 20L, null},
            new Object[] {3, null, 2.0, null, 30L, null}, new Object[] {4, "", 4.0, bytes("2c"), 40L, null},
            new Object[] {5, "日本", null, bytes("00ff"), 50L, null}, new Object[] {6, "b", 1.5, bytes("62"), 60L, null});

    @Test
    void withoutWithinGroupTheValuesJoinInTheOrderTheyArrived() {
        assertThat(value("listagg(s, ', ')")).as("null skipped, the empty string kept").isEqualTo("b, é, , 日本, b");
        assertThat(value("string_agg(s)")).as("no delimiter: empty").isEqualTo("bé日本b");
        assertThat(value("listagg(s, NULL)")).isEqualTo("bé日本b");
        assertThat(value("listagg(id, '+')")).as("cast to STRING as Spark casts").isEqualTo("1+2+3+4+5+6");
        assertThat(value("string_agg(amt, 1)")).as("a DOUBLE as Spark writes it, the delimiter 1 as '1'").isEqualTo("4.011.512.014.011.5");
    }

    @Test
    void withinGroupSortsByTheKeysTiesInArrivalOrder() {
        assertThat(value("listagg(s, ',') WITHIN GROUP (ORDER BY amt)")).as("NULLS FIRST ascending, ties as they came")
                .isEqualTo("日本,é,b,b,");
        assertThat(value("listagg(s, ',') WITHIN GROUP (ORDER BY amt DESC)")).as("NULLS LAST descending").isEqualTo("b,,é,b,日本");
        assertThat(value("listagg(s, ',') WITHIN GROUP (ORDER BY amt DESC NULLS FIRST, id DESC)")).isEqualTo("日本,,b,b,é");
        assertThat(value("listagg(s, ',') WITHIN GROUP (ORDER BY amt ASC NULLS LAST, ts DESC)")).isEqualTo("b,é,,b,日本");
        assertThat(value("string_agg(s, '|') WITHIN GROUP (ORDER BY s DESC)")).as("strings by code point").isEqualTo("日本|é|b|b|");
    }

    @Test
    void binaryValuesJoinAsBytes() {
        assertThat(HexFormat.of().formatHex((byte[]) value("listagg(b, X'2D2D')"))).isEqualTo("622d2dc3a92d2d2c2d2d00ff2d2d62");
        assertThat(HexFormat.of().formatHex((byte[]) value("string_agg(b) WITHIN GROUP (ORDER BY b DESC)"))).as("bytes unsigned")
                .isEqualTo("c3a962622c00ff");
    }

    @Test
    void aGroupOfNullsOnlyIsNull() {
        Accumulator acc = Accumulators.of(AggregateParser.parse("aggregate.select.x", "x", "listagg(s, ',')", INPUT));
        Object state = acc.add(acc.zero(), new Object[] {1, null, 1.0, null, 0L, null});
        assertThat(acc.result(state)).isNull();
        assertThat(acc.result(acc.zero())).isNull();
    }

    @Test
    void aStateIsAValueThatLaterRowsLeaveAsItWas() {
        Accumulator acc = Accumulators.of(AggregateParser.parse("aggregate.select.x", "x", "listagg(s, ',')", INPUT));
        Object one = acc.add(acc.zero(), ROWS.get(0));
        Object two = acc.add(one, ROWS.get(1));
        Object other = acc.add(one, ROWS.get(5));
        Object three = acc.add(two, ROWS.get(3));
        assertThat(List.of(acc.result(one), acc.result(two), acc.result(other), acc.result(three))).containsExactly("b", "b,é", "b,b", "b,é,");
        assertThat(acc.result(acc.merge(two, other))).isEqualTo("b,é,b,b");
    }

    /** What docs/transform.md says a row costs in the state: its UTF-8 bytes and 5 bytes, and 9 for a DOUBLE key (1 for NULL). */
    @Test
    void theStateHoldsEachValueWithItsKeys() {
        int text = 1 + 2 + 0 + 6 + 1; // b, é, '', 日本, b in UTF-8; the NULL not kept
        assertThat(stateBytes("listagg(s, ',')")).isEqualTo(4 + text + 5 * 5);
        assertThat(stateBytes("listagg(s, ',') WITHIN GROUP (ORDER BY amt)")).as("日本's NULL amt in 1 byte")
                .isEqualTo(4 + text + 5 * 5 + 4 * 9 + 1);
    }

    private static int stateBytes(String call) {
        Accumulator acc = Accumulators.of(AggregateParser.parse("aggregate.select.x", "x", call, INPUT));
        Object state = acc.zero();
        for (Object[] row : ROWS) {
            state = acc.add(state, row);
        }
        return bytesOf(acc, state).length;
    }

    @Test
    void sparksRefusalsAtStart() {
        assertThat(refusal("listagg(tags)")).contains("listagg(tags) reads ARRAY<STRING> values", "UNEXPECTED_INPUT_TYPE");
        assertThat(refusal("listagg(s, s)")).contains("the delimiter s of listagg(s, s) must be a constant", "NON_FOLDABLE_INPUT");
        assertThat(refusal("listagg(s, `s`)")).as("a column that reads as a function over no columns").contains("must be a constant");
        assertThat(refusal("listagg(s, amt * 2)")).contains("must be a constant");
        assertThat(refusal("listagg(s, X'2C')")).contains("the delimiter X'2C' of listagg(s, X'2C') must be a STRING");
        assertThat(refusal("listagg(b, ',')")).contains("must be a BINARY");
        assertThat(refusal("listagg(b, 1)")).contains("must be a BINARY", "DATA_DIFF_TYPES");
        assertThat(refusal("listagg(s, ',', '-')")).contains("listagg is not written as Spark takes it");
        assertThat(refusal("listagg(nope)")).contains("nope");
    }

    private static Object value(String call) {
        Accumulator acc = Accumulators.of(AggregateParser.parse("aggregate.select.x", "x", call, INPUT));
        Object state = acc.zero();
        List<Object> each = new ArrayList<>();
        for (Object[] row : ROWS) {
            state = acc.read(new ByteSource(bytesOf(acc, state), 0));
            state = acc.add(state, row);
            each.add(acc.result(state));
        }
        return each.get(each.size() - 1);
    }

    private static byte[] bytesOf(Accumulator acc, Object state) {
        ByteSink out = new ByteSink(16);
        acc.write(out, state);
        return out.toByteArray();
    }

    private static String refusal(String call) {
        return catchThrowable(() -> AggregateParser.parse("aggregate.select.x", "x", call, INPUT)).getMessage();
    }

    private static byte[] bytes(String hex) {
        return HexFormat.of().parseHex(hex);
    }
}
