package io.tributary.topology.internal;

import io.tributary.expressions.Expression;
import io.tributary.expressions.ExpressionErrors;
import io.tributary.expressions.ExpressionException;
import io.tributary.expressions.Having;
import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.topology.AggregateSpec;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Spark's HAVING of an aggregation: checked when the aggregation is built (errors name the spec key), and, for one task,
 * the filter of its result rows: without a projection ({@link ProjectionColumns}) a row kept loses the hidden aggregates only
 * HAVING reads, as they are not written.
 */
public final class HavingColumns {
    private final Expression predicate;
    private final int width;
    private final ResultLabels labels;

    private HavingColumns(AggregateSpec spec) {
        this.predicate = compile(AggregateSpec.HAVING_KEY, spec.having(), spec.resultSchema());
        // without a projection the written row is the result row without its hidden aggregates; with one, the projection reads them
        this.width = spec.projection() == null ? spec.outputSchema().size() : spec.resultSchema().size();
        this.labels = new ResultLabels(spec);
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
                    ? x.condition() + ": " + x.reason() + " in " + labels.readable(x.expression()) : String.valueOf(e.getMessage());
            throw TopologyErrors.havingFailed(AggregateSpec.HAVING_KEY, labels.readable(predicate.text()), labels.group(row), failure, where.get(), e);
        }
        if (!Boolean.TRUE.equals(keep)) {
            return null;
        }
        return row.length > width ? Arrays.copyOf(row, width) : row;
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

    /** An expression over the aggregation's result rows (HAVING's predicate, a select column), compiled for one task; a refusal names {@code key}. */
    static Expression compile(String key, String predicate, Schema rows) {
        try {
            return Expression.compile(rows, predicate);
        } catch (TributaryException e) {
            throw ExpressionErrors.inSetting(key, e);
        }
    }
}
