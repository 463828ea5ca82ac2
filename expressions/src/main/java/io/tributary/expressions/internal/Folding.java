package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Spark's foldable expressions: a literal, or a function of literals only, whose value is known before the first row (a
 * format, a pattern, an escape); and Spark's {@code ConstantFolding}, which computes a deterministic constant subtree once
 * when the expression is compiled ({@link #fold}).
 */
final class Folding {
    /**
     * Functions whose value is not a function of their arguments: the batch's time (read anew each batch), and
     * {@code aes_encrypt}, which draws a fresh initialization vector each time (the random functions are {@link RandomFunctions#NAMES}).
     */
    private static final Set<String> UNFOLDABLE = Set.of("aes_encrypt");

    private Folding() {
    }

    static boolean constant(Bound b) {
        return b instanceof Bound.Literal || b instanceof Bound.Apply a && a.args().stream().allMatch(Folding::constant);
    }

    /** The value of a {@link #constant} node. */
    static Object value(Bound b) {
        return Interpreter.eval(b, new Object[0]);
    }

    /**
     * Whether {@code b} reads no column and calls nothing whose value changes from call to call (a random function, the
     * batch's time): Spark's {@code foldable} and {@code deterministic} together. A lambda's parameter is a column, so a
     * higher-order function is never one.
     */
    static boolean deterministicConstant(Bound b) {
        if (b instanceof Bound.Literal) {
            return true;
        }
        if (b instanceof Bound.Apply a) {
            String name = a.name().toLowerCase(Locale.ROOT);
            return !RandomFunctions.NAMES.contains(name) && !BatchTimeFunctions.isBatchTime(name) && !UNFOLDABLE.contains(name)
                    && a.args().stream().allMatch(Folding::deterministicConstant);
        }
        if (b instanceof Bound.Logic l) {
            return deterministicConstant(l.left()) && deterministicConstant(l.right());
        }
        if (b instanceof Bound.Case c) {
            return c.conditions().stream().allMatch(Folding::deterministicConstant) && c.values().stream().allMatch(Folding::deterministicConstant)
                    && (c.otherwise() == null || deterministicConstant(c.otherwise()));
        }
        if (b instanceof Bound.Coalesce c) {
            return c.args().stream().allMatch(Folding::deterministicConstant);
        }
        if (b instanceof Bound.Try t) {
            return deterministicConstant(t.child());
        }
        if (b instanceof Bound.In in) {
            return deterministicConstant(in.value()) && in.list().stream().allMatch(Folding::deterministicConstant);
        }
        return false; // a column, a lambda, a higher-order function
    }

    /**
     * {@code node} computed once, as Spark's {@code ConstantFolding} computes it before the first row, when it is a
     * {@link #deterministicConstant} other than a literal; else null. The value may be an array, a struct, a map or bytes
     * ({@code array(1, 2)}, {@code named_struct('a', 1)}, {@code map(1, 'a')}, {@code unhex('0A')}): functions read it as it is, and
     * where the expression's value may hold it, each row gets its own copy ({@link #sharesValue}, {@link #perRow}), as rows may not
     * share a value a later step could change. A constant that fails
     * ({@code 1 / 0}, a bad cast) is not folded: it fails each row that reaches it, with the same message, as Spark's query
     * fails as it runs.
     */
    static Object[] fold(Bound node) {
        if (node instanceof Bound.Literal || !deterministicConstant(node)) {
            return null;
        }
        Object v;
        try {
            v = value(node);
        } catch (RuntimeException fails) {
            return null;
        }
        return copyable(v) ? new Object[] {v} : null;
    }

    /** A constant's value for one row: the value itself when rows may share it, else a deep copy of it. */
    static Object perRow(Object v) {
        if (immutable(v)) {
            return v;
        }
        if (v instanceof byte[] bytes) {
            return bytes.clone();
        }
        if (v instanceof Object[] struct) {
            Object[] out = new Object[struct.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = perRow(struct[i]);
            }
            return out;
        }
        if (v instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (Object e : list) {
                out.add(perRow(e));
            }
            return out;
        }
        if (v instanceof Map<?, ?> map) {
            Map<Object, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.put(perRow(e.getKey()), perRow(e.getValue()));
            }
            return out;
        }
        return v; // a VARIANT: no step changes one
    }

    /**
     * Whether the value of {@code node} may be, or hold, a constant array, struct, map or bytes (a literal or a folded
     * subtree), which every row would share: its type is one of those, and a constant of such a type is in it.
     */
    static boolean sharesValue(Bound node) {
        return mayHold(node.type()) && holdsConstant(node);
    }

    private static boolean holdsConstant(Bound b) {
        if (b instanceof Bound.Literal l) {
            return !immutable(l.value());
        }
        if (mayHold(b.type()) && deterministicConstant(b)) {
            return true;
        }
        List<Bound> children = new ArrayList<>();
        if (b instanceof Bound.Apply a) {
            children.addAll(a.args());
        } else if (b instanceof Bound.Logic l) {
            children.addAll(List.of(l.left(), l.right()));
        } else if (b instanceof Bound.Case c) {
            children.addAll(c.conditions());
            children.addAll(c.values());
            if (c.otherwise() != null) {
                children.add(c.otherwise());
            }
        } else if (b instanceof Bound.Coalesce c) {
            children.addAll(c.args());
        } else if (b instanceof Bound.Try t) {
            children.add(t.child());
        } else if (b instanceof Bound.Lambda l) {
            children.add(l.body());
        } else if (b instanceof Bound.HigherOrder h) {
            children.addAll(h.args());
            children.addAll(h.lambdas());
        }
        return children.stream().anyMatch(Folding::holdsConstant);
    }

    /** Whether a value of {@code t} may be or hold an array, a struct, a map or bytes (a value rows must not share). */
    private static boolean mayHold(DataType t) {
        return t == null || t.kind() == DataType.Kind.ARRAY || t.kind() == DataType.Kind.STRUCT || t.kind() == DataType.Kind.MAP
                || t.kind() == DataType.Kind.BINARY;
    }

    /** Whether rows may share {@code v} as it is: a number, text, a boolean, a date, a timestamp, an interval or null. */
    static boolean immutable(Object v) {
        return v == null || v instanceof String || v instanceof Boolean || v instanceof Integer || v instanceof Long || v instanceof Double
                || v instanceof Float || v instanceof Short || v instanceof Byte || v instanceof BigDecimal || v instanceof CalendarInterval;
    }

    /** Whether {@link #perRow} copies {@code v}: an immutable value, or bytes, a struct, an array or a map of such values. */
    static boolean copyable(Object v) {
        if (immutable(v) || v instanceof byte[]) {
            return true;
        }
        if (v instanceof Object[] struct) {
            return Arrays.stream(struct).allMatch(Folding::copyable);
        }
        if (v instanceof List<?> list) {
            return list.stream().allMatch(Folding::copyable);
        }
        return v instanceof Map<?, ?> map && map.entrySet().stream().allMatch(e -> copyable(e.getKey()) && copyable(e.getValue()));
    }
}
