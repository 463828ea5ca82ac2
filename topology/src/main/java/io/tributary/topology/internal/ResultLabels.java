package io.tributary.topology.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.schema.Timestamps;
import io.tributary.topology.Aggregate;
import io.tributary.topology.AggregateSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An aggregation's result rows as a user reads them in an error: the columns by name, the hidden aggregates (those only
 * HAVING or the select list's expressions read) by their calls.
 */
final class ResultLabels {
    private final Schema rows;
    private final Map<String, String> labels = new LinkedHashMap<>();

    ResultLabels(AggregateSpec spec) {
        this.rows = spec.resultSchema();
        for (Field f : rows.fields()) {
            labels.put(f.name(), f.name());
        }
        for (Aggregate a : spec.aggregates()) {
            if (a.name().startsWith(io.tributary.expressions.Having.HIDDEN_PREFIX)) {
                labels.put(a.name(), a.expression());
            }
        }
    }

    /** {@code text} with the hidden aggregates as their calls and the columns without quotes, as the user wrote them. */
    String readable(String text) {
        String out = text;
        for (Map.Entry<String, String> e : labels.entrySet()) {
            if (!e.getKey().equals(e.getValue()) || e.getKey().matches("[A-Za-z_][A-Za-z0-9_]*")) {
                out = out.replace("`" + e.getKey() + "`", e.getValue());
            }
        }
        return out;
    }

    /** The group and its aggregates: {@code window {2026-01-01T10:00:00Z, 2026-01-01T10:10:00Z}, user a, t 17.0, count(*) 1}. */
    String group(Object[] row) {
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
}
