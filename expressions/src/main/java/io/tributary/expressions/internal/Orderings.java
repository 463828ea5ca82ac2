package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * How collection functions order and compare elements as Spark does: atomic values by {@link Predicates#ordering}
 * (NaN above every double), arrays element by element with null first and the shorter first, structs field by field;
 * and a key per value for hashing, equal where Spark's sets find values equal (NaN equals NaN, -0.0 equals 0.0).
 */
final class Orderings {
    private Orderings() {
    }

    /** The order of {@code type}'s non-null values; a type error naming the function for a MAP, which has none. */
    static Comparator<Object> of(Analyzer.Call call, DataType type) {
        if (!orderable(type)) {
            throw call.typeError(call.name() + " cannot order values of " + type.ddl());
        }
        return of(type);
    }

    static boolean orderable(DataType type) {
        return switch (type.kind()) {
            case MAP -> false;
            case ARRAY -> orderable(type.element());
            case STRUCT -> type.struct().fields().stream().allMatch(f -> orderable(f.type()));
            default -> !CalendarIntervals.isCalendar(type);
        };
    }

    static Comparator<Object> of(DataType type) {
        if (type.kind() == Kind.ARRAY) {
            Comparator<Object> element = nullsFirst(of(type.element()));
            return (a, b) -> {
                List<?> x = (List<?>) a;
                List<?> y = (List<?>) b;
                for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
                    int c = element.compare(x.get(i), y.get(i));
                    if (c != 0) {
                        return c;
                    }
                }
                return Integer.compare(x.size(), y.size());
            };
        }
        if (type.kind() == Kind.STRUCT) {
            List<Comparator<Object>> fields = type.struct().fields().stream().map(f -> nullsFirst(of(f.type()))).toList();
            return (a, b) -> {
                for (int i = 0; i < fields.size(); i++) {
                    int c = fields.get(i).compare(((Object[]) a)[i], ((Object[]) b)[i]);
                    if (c != 0) {
                        return c;
                    }
                }
                return 0;
            };
        }
        return Predicates.ordering(type);
    }

    static Comparator<Object> nullsFirst(Comparator<Object> order) {
        return (a, b) -> a == null ? (b == null ? 0 : -1) : b == null ? 1 : order.compare(a, b);
    }

    /** A value equal (and hashing alike) to another's exactly when Spark's collection functions take them as one. */
    static Object key(Object v) {
        if (v instanceof byte[] b) {
            return ByteBuffer.wrap(b);
        }
        if (v instanceof Double d && d == 0.0) {
            return 0.0; // -0.0 is 0.0
        }
        if (v instanceof Float f && f == 0.0f) {
            return 0.0f;
        }
        if (v instanceof java.math.BigDecimal d) {
            return d.stripTrailingZeros();
        }
        if (v instanceof List<?> l) {
            List<Object> k = new ArrayList<>(l.size());
            l.forEach(e -> k.add(key(e)));
            return k;
        }
        if (v instanceof Object[] s) {
            List<Object> k = new ArrayList<>(s.length);
            for (Object e : s) {
                k.add(key(e));
            }
            return k;
        }
        return v;
    }
}
