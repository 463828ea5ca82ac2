package io.tributary.sink.internal;

import io.delta.kernel.expressions.AlwaysTrue;
import io.delta.kernel.expressions.Column;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.expressions.Predicate;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * The Kernel scan filter that finds the files which may hold some of a batch's keys, through the
 * files' min/max and null-count statistics (Kernel's data skipping has no IN). Up to
 * {@link #EQUALITY_LIMIT} keys: an OR of per-key equalities (exact skipping); more: per key
 * column, the range of the batch's values. Key columns without statistics (BOOLEAN, BINARY) do
 * not filter; a STRUCT column filters on its fields' statistics ({@code window.start}, ...).
 */
final class KeyPredicates {
    static final int EQUALITY_LIMIT = 256;

    /** A key column, or a field of a STRUCT key column, that has min/max statistics. */
    private record Leaf(Column column, DataType type, int keyIndex, int[] fieldPath) {
        Object value(Key key) {
            Object v = key.values()[keyIndex];
            for (int f : fieldPath) {
                if (v == null) {
                    return null;
                }
                v = ((Object[]) v)[f];
            }
            return v;
        }
    }

    private KeyPredicates() {
    }

    static Predicate forKeys(Schema keySchema, Collection<Key> keys) {
        List<Leaf> leaves = new ArrayList<>();
        for (int i = 0; i < keySchema.size(); i++) {
            Field f = keySchema.field(i);
            addLeaves(leaves, new String[] {f.name()}, f.type(), i, new int[0]);
        }
        if (leaves.isEmpty() || keys.isEmpty()) {
            return AlwaysTrue.ALWAYS_TRUE;
        }
        return keys.size() <= EQUALITY_LIMIT ? equalities(leaves, new ArrayList<>(keys)) : ranges(leaves, keys);
    }

    private static void addLeaves(List<Leaf> out, String[] path, DataType type, int keyIndex, int[] fieldPath) {
        if (type.kind() == DataType.Kind.STRUCT) {
            Schema s = type.struct();
            for (int c = 0; c < s.size(); c++) {
                String[] p = Arrays.copyOf(path, path.length + 1);
                p[path.length] = s.field(c).name();
                int[] fp = Arrays.copyOf(fieldPath, fieldPath.length + 1);
                fp[fieldPath.length] = c;
                addLeaves(out, p, s.field(c).type(), keyIndex, fp);
            }
        } else if (type.kind() != DataType.Kind.BOOLEAN && type.kind() != DataType.Kind.BINARY) {
            out.add(new Leaf(new Column(path), type, keyIndex, fieldPath));
        }
    }

    private static Predicate equalities(List<Leaf> leaves, List<Key> keys) {
        List<Predicate> perKey = new ArrayList<>(keys.size());
        for (Key k : keys) {
            List<Predicate> parts = new ArrayList<>();
            for (Leaf leaf : leaves) {
                Object v = leaf.value(k);
                parts.add(v == null ? new Predicate("IS_NULL", leaf.column()) : new Predicate("=", leaf.column(), literal(leaf.type(), v)));
            }
            perKey.add(balanced("AND", parts));
        }
        return balanced("OR", perKey);
    }

    private static Predicate ranges(List<Leaf> leaves, Collection<Key> keys) {
        List<Predicate> parts = new ArrayList<>();
        for (Leaf leaf : leaves) {
            Comparator<Object> order = KeyColumns.valueOrder(leaf.type());
            Object min = null;
            Object max = null;
            boolean nulls = false;
            for (Key k : keys) {
                Object v = leaf.value(k);
                if (v == null) {
                    nulls = true;
                    continue;
                }
                min = min == null || order.compare(v, min) < 0 ? v : min;
                max = max == null || order.compare(v, max) > 0 ? v : max;
            }
            Predicate isNull = new Predicate("IS_NULL", leaf.column());
            if (min == null) {
                parts.add(isNull);
                continue;
            }
            Predicate range = new Predicate("AND", new Predicate(">=", leaf.column(), literal(leaf.type(), min)),
                    new Predicate("<=", leaf.column(), literal(leaf.type(), max)));
            parts.add(nulls ? new Predicate("OR", range, isNull) : range);
        }
        return balanced("AND", parts);
    }

    /** {@code op} over the predicates as a balanced tree (a deep chain would overflow Kernel's recursive evaluation). */
    private static Predicate balanced(String op, List<Predicate> ps) {
        if (ps.size() == 1) {
            return ps.get(0);
        }
        int mid = ps.size() / 2;
        return new Predicate(op, balanced(op, ps.subList(0, mid)), balanced(op, ps.subList(mid, ps.size())));
    }

    static Literal literal(DataType type, Object v) {
        return switch (type.kind()) {
            case BYTE -> Literal.ofByte(((Number) v).byteValue());
            case SHORT -> Literal.ofShort(((Number) v).shortValue());
            case INT -> Literal.ofInt(((Number) v).intValue());
            case LONG -> Literal.ofLong(((Number) v).longValue());
            case FLOAT -> Literal.ofFloat(((Number) v).floatValue());
            case DOUBLE -> Literal.ofDouble(((Number) v).doubleValue());
            case DECIMAL -> Literal.ofDecimal((BigDecimal) v, type.precision(), type.scale());
            case STRING -> Literal.ofString((String) v);
            case DATE -> Literal.ofDate(((Number) v).intValue());
            case TIMESTAMP -> Literal.ofTimestamp(((Number) v).longValue());
            case TIMESTAMP_NTZ -> Literal.ofTimestampNtz(((Number) v).longValue());
            default -> throw new IllegalArgumentException("no statistics for " + type);
        };
    }
}
