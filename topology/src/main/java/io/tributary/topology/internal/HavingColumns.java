package io.tributary.topology.internal;

import io.tributary.expressions.Expression;
import io.tributary.expressions.ExpressionErrors;
import io.tributary.expressions.ExpressionException;
import io.tributary.expressions.Having;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.schema.Timestamps;
import io.tributary.schema.TributaryException;
import io.tributary.topology.Aggregate;
import io.tributary.topology.AggregateSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Spark's HAVING of an aggregation: checked when the aggregation is built (errors name the spec key), and, for one task,
 * the filter of its result rows: a row kept loses the hidden aggregates only HAVING reads, as they are not written.
 */
public final class HavingColumns {
    private final Expression predicate;
    private final int width;
    private final Schema rows;
    /** The result columns as a user reads them: the columns by name, the hidden aggregates by their calls. */
    private final Map<String, String> labels = new LinkedHashMap<>();

    private HavingColumns(AggregateSpec spec) {
        this.rows = spec.resultSchema();
        this.predicate = compile(AggregateSpec.HAVING_KEY, spec.having(), rows);
        this.width = spec.outputSchema().size();
        for (Field f : rows.fields()) {
            labels.put(f.name(), f.name());
        }
        for (Aggregate a : spec.aggregates()) {
            if (rows.indexOf(a.name()) >= width) {
                labels.put(a.name(), a.expression());
            }
        }
    }

    /** The filter of {@code spec}'s result rows, or null when it has no HAVING. */
    static HavingColumns filter(AggregateSpec spec) {
        return spec.having() == null ? null : new HavingColumns(spec);
    }

    /** The row as written when HAVING keeps it (true; false and null drop it, as Spark's filter does), else null. */
    Object[] kept(Object[] row, Supplier<String> where) {
        Object keep;
        try {
            keep = predicate.eval(row);
        } catch (RuntimeException e) {
            String failure = e instanceof ExpressionException x
                    ? x.condition() + ": " + x.reason() + " in " + readable(x.expression()) : String.valueOf(e.getMessage());
            throw TopologyErrors.havingFailed(AggregateSpec.HAVING_KEY, readable(predicate.text()), group(row), failure, where.get(), e);
        }
        if (!Boolean.TRUE.equals(keep)) {
            return null;
        }
        return row.length > width ? Arrays.copyOf(row, width) : row;
    }

    /** {@code text} with the hidden aggregates as their calls and the columns without quotes, as the user wrote them. */
    private String readable(String text) {
        String out = text;
        for (Map.Entry<String, String> e : labels.entrySet()) {
            if (!e.getKey().equals(e.getValue()) || e.getKey().matches("[A-Za-z_][A-Za-z0-9_]*")) {
                out = out.replace("`" + e.getKey() + "`", e.getValue());
            }
        }
        return out;
    }

    /** The group and its aggregates: {@code window {2026-01-01T10:00:00Z, 2026-01-01T10:10:00Z}, user a, t 17.0, count(*) 1}. */
    private String group(Object[] row) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < row.length && i < rows.size(); i++) {
            Field f = rows.field(i);
            s.append(i == 0 ? "" : ", ").append(labels.get(f.name())).append(' ').append(value(f.type(), row[i]));
        }
        return s.toString();
    }

    private static String value(DataType type, Object v) {
        if (v == null) {
            return "null";
        }
        return switch (type.kind()) {
            case TIMESTAMP -> Timestamps.formatMicros((Long) v);
            case TIMESTAMP_NTZ -> Timestamps.formatMicrosNtz((Long) v);
            case DATE -> Timestamps.formatDays((Integer) v);
            case STRUCT -> {
                Object[] values = (Object[]) v;
                List<String> parts = new ArrayList<>();
                for (int i = 0; i < values.length; i++) {
                    parts.add(value(type.struct().field(i).type(), values[i]));
                }
                yield "{" + String.join(", ", parts) + "}";
            }
            default -> v instanceof Object[] a ? Arrays.deepToString(a) : String.valueOf(v);
        };
    }

    /** {@code text} over the select list {@code select}: its calls as columns, the other aggregates hidden ones. */
    public static Having of(String key, String text, Map<String, String> select) {
        try {
            return Having.of(text, select);
        } catch (TributaryException e) {
            throw ExpressionErrors.inSetting(key, e);
        }
    }

    /** {@code predicate} (written as {@code text}) compiled over {@code rows}: it must be a BOOLEAN, as Spark requires. */
    public static String check(String key, String text, String predicate, Schema rows) {
        Expression e = compile(key, predicate, rows);
        if (e.type() != null && e.type().kind() != DataType.Kind.BOOLEAN) {
            throw TopologyErrors.havingNotBoolean(key, text, e.type().ddl());
        }
        return predicate;
    }

    /** The predicate over the aggregation's result rows, compiled for one task. */
    private static Expression compile(String key, String predicate, Schema rows) {
        try {
            return Expression.compile(rows, predicate);
        } catch (TributaryException e) {
            throw ExpressionErrors.inSetting(key, e);
        }
    }
}
