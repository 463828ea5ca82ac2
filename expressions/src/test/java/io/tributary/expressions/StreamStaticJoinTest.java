package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.expressions.StreamStaticJoin.Type;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Spark's stream-static joins: inner, left, left_semi, left_anti, hashed on equi-keys or compared row by row. */
class StreamStaticJoinTest {
    static final Schema STREAM = Schema.parse("id INT, user STRING, amt DOUBLE");
    static final Schema USERS = Schema.parse("user STRING, segment STRING, limit DOUBLE");
    static final List<Object[]> ROWS = List.of(new Object[] {"ann", "gold", 10.0}, new Object[] {"bob", "silver", 1.0},
            new Object[] {"bob", "bronze", 100.0}, new Object[] {null, "none", 0.0});

    static StreamStaticJoin join(String on, Type type) {
        StreamStaticJoin j = StreamStaticJoin.compile(STREAM, names(STREAM), USERS, "u", on, type, 1000);
        j.load(ROWS);
        return j;
    }

    static List<String> names(Schema s) {
        return s.fields().stream().map(f -> f.name()).toList();
    }

    static List<String> show(List<Object[]> rows, int width) {
        return rows.stream().map(r -> Arrays.toString(Arrays.copyOf(r, width))).toList();
    }

    @Test
    void innerJoinOnAnEquiKeyIsHashedAndGivesTheStreamColumnsThenTheTables() {
        StreamStaticJoin j = join("user = u.user", Type.INNER);
        assertThat(j.hashed()).isTrue();
        assertThat(j.output().toDdl()).isEqualTo("id INT, user STRING, amt DOUBLE, segment STRING, limit DOUBLE, "
                + "u STRUCT<user: STRING, segment: STRING, limit: DOUBLE>");
        assertThat(j.visible()).containsExactly("id", "user", "amt", "segment", "limit");
        assertThat(show(j.apply(new Object[] {1, "ann", 5.0}), 5)).containsExactly("[1, ann, 5.0, gold, 10.0]");
        assertThat(show(j.apply(new Object[] {2, "bob", 5.0}), 5)).containsExactly("[2, bob, 5.0, silver, 1.0]", "[2, bob, 5.0, bronze, 100.0]");
        assertThat(j.apply(new Object[] {3, "cy", 5.0})).isEmpty();
        assertThat(j.apply(new Object[] {4, null, 5.0})).as("null = null is not true").isEmpty();
    }

    /** NOT IN's null-aware anti join, hashed on x = v where v's condition is the table's alone, keeps the rows row by row keeps. */
    @Test
    void notInsNullAwareAntiJoinIsHashedAndKeepsWhatComparingRowByRowKeeps() {
        List<Object[]> stream = List.of(new Object[] {1, "ann", 5.0}, new Object[] {2, "bob", 50.0}, new Object[] {3, "cy", 5.0},
                new Object[] {4, null, 5.0});
        for (String cond : List.of("", " AND (u.limit > 5)", " AND (u.limit > 500)", " AND (u.segment <> 'none')")) {
            for (String v : List.of("u.user", "nullif(u.user, 'ann')")) {
                String on = "((user) = (" + v + ") OR ((user) = (" + v + ")) IS NULL)" + cond;
                StreamStaticJoin hashed = join(on, Type.LEFT_ANTI);
                StreamStaticJoin rowByRow = join(on + " AND amt = amt", Type.LEFT_ANTI);
                assertThat(hashed.hashed()).as(on).isTrue();
                assertThat(rowByRow.hashed()).as(on).isFalse();
                for (Object[] row : stream) {
                    assertThat(hashed.apply(row)).as(on + " " + Arrays.toString(row)).hasSameSizeAs(rowByRow.apply(row));
                }
            }
        }
        StreamStaticJoin join = join("((user) = (u.user) OR ((user) = (u.user)) IS NULL) AND (u.segment <> 'none')", Type.LEFT_ANTI);
        assertThat(stream.stream().filter(r -> !join.apply(r).isEmpty()).map(r -> r[0])).containsExactly(3);
        StreamStaticJoin empty = join("((user) = (u.user) OR ((user) = (u.user)) IS NULL) AND (u.limit > 500)", Type.LEFT_ANTI);
        assertThat(stream.stream().filter(r -> !empty.apply(r).isEmpty()).map(r -> r[0])).as("no value: every row, NULL too").containsExactly(1, 2, 3, 4);
        StreamStaticJoin aNull = join("((user) = (u.user) OR ((user) = (u.user)) IS NULL)", Type.LEFT_ANTI);
        assertThat(stream.stream().filter(r -> !aNull.apply(r).isEmpty())).as("a NULL value: no row").isEmpty();
    }

    @Test
    void leftJoinFillsNullsAndAResidualConditionIsChecked() {
        StreamStaticJoin j = join("user = u.user AND amt < u.limit", Type.LEFT);
        assertThat(j.hashed()).isTrue();
        assertThat(show(j.apply(new Object[] {2, "bob", 5.0}), 5)).containsExactly("[2, bob, 5.0, bronze, 100.0]");
        assertThat(show(j.apply(new Object[] {1, "ann", 50.0}), 6)).containsExactly("[1, ann, 50.0, null, null, null]");
        assertThat(show(j.apply(new Object[] {4, null, 5.0}), 6)).containsExactly("[4, null, 5.0, null, null, null]");
    }

    @Test
    void aStructOrArrayKeyIsComparedRowByRowAsSparkComparesStructs() {
        StreamStaticJoin j = join("struct(user, amt) = struct(u.user, u.limit) OR array(user) = array(u.segment)", Type.INNER);
        assertThat(j.hashed()).isFalse();
        assertThat(show(j.apply(new Object[] {1, "bob", 100.0}), 4)).containsExactly("[1, bob, 100.0, bronze]");
        assertThat(show(j.apply(new Object[] {2, "gold", 1.0}), 4)).containsExactly("[2, gold, 1.0, gold]");
        assertThat(j.apply(new Object[] {3, null, 0.0})).as("a struct holding nulls is not null: null fields compare equal").hasSize(1);
    }

    @Test
    void aStructOrArrayEquiKeyIsHashedWithSparksEquality() {
        Schema stream = Schema.parse("id INT, k STRUCT<a: STRING, b: DOUBLE>, tags ARRAY<DOUBLE>");
        Schema table = Schema.parse("key STRUCT<x: STRING, y: DOUBLE>, tags ARRAY<DOUBLE>, name STRING");
        StreamStaticJoin j = StreamStaticJoin.compile(stream, names(stream), table, "t", "k = t.key AND tags = t.tags", Type.INNER, 1000);
        assertThat(j.hashed()).as("fields by position: the names of the struct's fields may differ").isTrue();
        j.load(List.of(new Object[] {new Object[] {"a", 0.0}, List.of(Double.NaN), "zero-nan"},
                new Object[] {new Object[] {null, 1.0}, Arrays.asList(1.0, null), "null-field"},
                new Object[] {new Object[] {"a", 0.0}, List.of(2.0), "zero-two"}));
        assertThat(j.apply(new Object[] {1, new Object[] {"a", -0.0}, List.of(Double.NaN)})).extracting(r -> r[4])
                .as("-0.0 equals 0.0 and NaN equals NaN").containsExactly("zero-nan");
        assertThat(j.apply(new Object[] {2, new Object[] {null, 1.0}, Arrays.asList(1.0, null)})).extracting(r -> r[4])
                .as("a struct's null fields and an array's null elements compare equal").containsExactly("null-field");
        assertThat(j.apply(new Object[] {3, new Object[] {"a", 0.0}, List.of(3.0)})).isEmpty();
        assertThat(j.apply(new Object[] {4, null, List.of(2.0)})).as("a null key matches nothing").isEmpty();
    }

    @Test
    void aNonEquiConditionComparesEveryRow() {
        StreamStaticJoin j = join("amt > u.limit", Type.INNER);
        assertThat(j.hashed()).isFalse();
        assertThat(show(j.apply(new Object[] {1, "x", 5.0}), 4)).containsExactly("[1, x, 5.0, silver]", "[1, x, 5.0, none]");
    }

    @Test
    void semiAndAntiGiveTheStreamRowOnceOrNot() {
        StreamStaticJoin semi = join("user = u.user", Type.LEFT_SEMI);
        assertThat(semi.output()).isEqualTo(STREAM);
        assertThat(semi.visible()).containsExactly("id", "user", "amt");
        assertThat(show(semi.apply(new Object[] {2, "bob", 5.0}), 3)).containsExactly("[2, bob, 5.0]");
        assertThat(semi.apply(new Object[] {3, "cy", 5.0})).isEmpty();
        StreamStaticJoin anti = join("user = u.user", Type.LEFT_ANTI);
        assertThat(anti.apply(new Object[] {2, "bob", 5.0})).isEmpty();
        assertThat(show(anti.apply(new Object[] {3, "cy", 5.0}), 3)).containsExactly("[3, cy, 5.0]");
        assertThat(show(anti.apply(new Object[] {4, null, 5.0}), 3)).as("null keys never match").containsExactly("[4, null, 5.0]");
    }

    @Test
    void whereAndSelectAfterTheJoinReachTheTableByAliasAndADuplicateNameIsTheStreams() {
        StreamStaticJoin j = join("lower(user) = u.user", Type.INNER);
        Transform t = Transform.compile(j.output(), "u.limit > 1", List.of("id", "user", "u.user AS u_user", "segment", "upper(u.segment) AS s"));
        List<String> out = j.apply(new Object[] {7, "BOB", 1.0}).stream().map(t::apply).filter(r -> r != null).map(Arrays::toString).toList();
        assertThat(out).containsExactly("[7, BOB, bob, bronze, BRONZE]");
    }

    @Test
    void refusals() {
        assertThatThrownBy(() -> join("user = u.nosuch", Type.INNER)).isInstanceOf(TributaryException.class).hasMessageContaining("nosuch");
        assertThatThrownBy(() -> join("user = ", Type.INNER)).isInstanceOf(TributaryException.class).hasMessageContaining("does not parse");
        assertThatThrownBy(() -> join("u.limit", Type.INNER)).isInstanceOf(TributaryException.class).hasMessageContaining("BOOLEAN");
        assertThatThrownBy(() -> Type.parse("full")).hasMessageContaining("unknown join type 'full'").hasMessageContaining("left_anti");
        assertThat(Type.parse("LEFT OUTER")).isEqualTo(Type.LEFT);
        StreamStaticJoin small = StreamStaticJoin.compile(STREAM, names(STREAM), USERS, "u", "user = u.user", Type.INNER, 3);
        assertThatThrownBy(() -> small.load(ROWS)).hasMessageContaining("has 4 rows, more than the 3");
    }
}
