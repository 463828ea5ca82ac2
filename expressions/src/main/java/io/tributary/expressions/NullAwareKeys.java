package io.tributary.expressions;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The table's side of Spark's null-aware anti join ({@code x NOT IN (SELECT v FROM t [WHERE cond])}, cond of the table alone),
 * hashed: the values of {@code v} over the rows where {@code cond} holds, whether one is NULL, and whether there is any. A stream
 * row is kept when there is no value, and otherwise only when neither a value nor its {@code x} is NULL and {@code x} is not one
 * of them.
 */
final class NullAwareKeys {
    private final Set<Object> values = new HashSet<>();
    private boolean any;
    private boolean aNull;

    /** Holds {@code v} of each row where {@code cond} is true ({@code v} null: a NULL value; {@code normal} makes keys). */
    NullAwareKeys(List<Object[]> rows, Expression v, Expression cond, Function<Object[], Object[]> probe, Function<Object, Object> normal) {
        for (Object[] r : rows) {
            Object[] row = probe.apply(r);
            if (cond != null && !Boolean.TRUE.equals(cond.eval(row))) {
                continue;
            }
            any = true;
            Object value = v.eval(row);
            if (value == null) {
                aNull = true;
            } else {
                values.add(normal.apply(value));
            }
        }
    }

    /** Whether the stream row whose {@code x} {@code value} gives is kept ({@code x} taken only when the values decide nothing alone). */
    boolean keeps(Supplier<Object> value, Function<Object, Object> normal) {
        if (!any || aNull) {
            return !any;
        }
        Object x = value.get();
        return x != null && !values.contains(normal.apply(x));
    }
}
