package io.tributary.topology.internal;

import io.tributary.expressions.Expression;
import io.tributary.expressions.ExpressionException;
import io.tributary.expressions.Having;
import io.tributary.expressions.SelectItems;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.topology.AggregateSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Spark's select list after an aggregation: each column of the table an expression over the aggregation's result row (the
 * window, the group-by columns, the aggregates, the hidden aggregates only expressions read), evaluated where the row is
 * written, after HAVING. Checked when the aggregation is built (errors name the spec key); for one task, the projection of
 * its result rows.
 */
public final class ProjectionColumns {
    /** The spec key of the aggregates and the expressions over them, as errors name it. */
    public static final String SELECT_KEY = "aggregate.select";
    private final Expression[] columns;
    private final String[] keys;
    private final ResultLabels labels;

    private ProjectionColumns(AggregateSpec spec) {
        List<String> texts = spec.projection();
        this.columns = new Expression[texts.size()];
        this.keys = new String[texts.size()];
        for (int i = 0; i < columns.length; i++) {
            keys[i] = spec.projectionKey(i);
            columns[i] = HavingColumns.compile(keys[i], texts.get(i), spec.resultSchema());
        }
        this.labels = new ResultLabels(spec);
    }

    /** The projection of {@code spec}'s result rows, or null when they are written as they are (the window, groups, aggregates). */
    static ProjectionColumns of(AggregateSpec spec) {
        return spec.projection() == null ? null : new ProjectionColumns(spec);
    }

    /** The row as written; a column that fails as Spark's ANSI mode fails stops the aggregation, naming it and the group. */
    Object[] project(Object[] row, Supplier<String> where) {
        Object[] out = new Object[columns.length];
        for (int i = 0; i < columns.length; i++) {
            try {
                out[i] = columns[i].eval(row);
            } catch (RuntimeException e) {
                String failure = e instanceof ExpressionException x
                        ? x.condition() + ": " + x.reason() + " in " + labels.readable(x.expression()) : String.valueOf(e.getMessage());
                throw TopologyErrors.columnFailed(keys[i], labels.readable(columns[i].text()), labels.group(row), failure, where.get(), e);
            }
        }
        return out;
    }

    /**
     * The table's columns: {@code names} made by {@code texts} over {@code rows} (each checked and typed as Spark types it);
     * {@code keys} name each one's spec key in errors.
     */
    public static Schema schema(List<String> names, List<String> texts, List<String> keys, Schema rows) {
        List<Field> fields = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < names.size(); i++) {
            if (!seen.add(names.get(i).toLowerCase(Locale.ROOT))) {
                throw TopologyErrors.columnNameTaken(keys.get(i), names.get(i));
            }
            Expression e = HavingColumns.compile(keys.get(i), texts.get(i), rows);
            if (e.type() == null) {
                throw TopologyErrors.columnWithoutType(keys.get(i), names.get(i));
            }
            fields.add(new Field(names.get(i), e.type(), true));
        }
        return new Schema(fields);
    }

    /**
     * The select list as names, expressions over the result rows and spec keys, added to {@code names}, {@code texts} and
     * {@code keys}: {@code columns} ({@code aggregate.columns}) as given, else the columns {@code plain} (the window, the group-by
     * columns) and {@code select}'s entries (an aggregate, one of {@code calls}, by its name; an expression as written).
     */
    public static void selectList(List<String> columns, List<String> plain, Map<String, String> select, Set<String> calls,
                                  List<String> names, List<String> texts, List<String> keys) {
        if (columns != null) {
            for (String item : columns) {
                names.add(SelectItems.name(item));
                texts.add(SelectItems.expression(item));
                keys.add(AggregateSpec.COLUMNS_KEY);
            }
            return;
        }
        for (String c : plain) {
            names.add(c);
            texts.add(quoted(c));
            keys.add(SELECT_KEY);
        }
        select.forEach((name, text) -> {
            names.add(name);
            texts.add(calls.contains(name) ? quoted(name) : text);
            keys.add(SELECT_KEY + "." + name);
        });
    }

    private static String quoted(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    /**
     * HAVING ({@code predicate}, null for none) and the select list's {@code texts} with their aggregate calls as columns: those
     * {@code calls} makes, and hidden ones shared by all; a refusal names the key of the text it is in.
     */
    public static Having.Rewritten rewrite(String havingKey, String predicate, List<String> keys, List<String> texts, Map<String, String> calls) {
        if (predicate != null) {
            HavingColumns.of(havingKey, predicate, calls);
        }
        for (int i = 0; i < texts.size(); i++) {
            HavingColumns.of(keys.get(i), texts.get(i), calls);
        }
        return Having.ofAll(predicate, texts, calls);
    }

    /**
     * The table's key in update and complete mode: the names of the columns of the select list ({@code names}, {@code texts};
     * null: the result's own) that hold {@code columns} (the window, the group-by columns) as they are; one that none holds is refused.
     */
    public static List<String> tableKeys(List<String> columns, List<String> names, List<String> texts, String mode) {
        List<String> keys = new ArrayList<>();
        for (String column : columns) {
            String name = texts == null ? column : selecting(column, names, texts);
            if (name == null) {
                throw TopologyErrors.keyNotSelected(column, mode);
            }
            keys.add(name);
        }
        return List.copyOf(keys);
    }

    /** The name of the column that selects {@code column} of the result rows as it is ({@code user}, {@code `w`}), or null for none. */
    public static String selecting(String column, List<String> names, List<String> texts) {
        for (int i = 0; i < texts.size(); i++) {
            String t = texts.get(i).strip();
            if (t.length() > 1 && t.startsWith("`") && t.endsWith("`")) {
                t = t.substring(1, t.length() - 1).replace("``", "`");
            }
            if (t.equalsIgnoreCase(column)) {
                return names.get(i);
            }
        }
        return null;
    }
}
