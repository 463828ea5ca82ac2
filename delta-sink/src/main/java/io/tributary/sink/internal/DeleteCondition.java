package io.tributary.sink.internal;

import io.tributary.expressions.Expression;
import io.tributary.expressions.ExpressionException;
import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.Optional;

/**
 * A {@code deleteWhen} condition compiled over the rows' columns: a Spark SQL boolean expression
 * (AUTO CDC's {@code APPLY AS DELETE WHEN}, Spark MERGE's {@code WHEN MATCHED AND ... THEN DELETE}),
 * true for a change that deletes its key; false and null do not delete. The older form
 * {@code column = value} with a bare value ({@code op = d}), which is no SQL (a bare word is a column),
 * still reads as before: the column's value, as text, is the value ({@link DeleteWhen}).
 */
public final class DeleteCondition {
    private final String text;
    private final Expression predicate;
    private final DeleteWhen legacy;
    private final int legacyColumn;

    private DeleteCondition(String text, Expression predicate, DeleteWhen legacy, int legacyColumn) {
        this.text = text;
        this.predicate = predicate;
        this.legacy = legacy;
        this.legacyColumn = legacyColumn;
    }

    /**
     * {@code text} compiled over rows of {@code rows}.
     *
     * @throws TributaryException when it is neither a Spark SQL expression over the columns nor the older form, or is not a BOOLEAN
     */
    static DeleteCondition compile(Schema rows, String text) {
        Expression predicate;
        try {
            predicate = Expression.compile(rows, text);
        } catch (TributaryException e) {
            Optional<DeleteWhen> old = DeleteWhen.parse(text);
            if (old.isPresent() && rows.indexOf(old.get().column()) >= 0) {
                return new DeleteCondition(text, null, old.get(), rows.indexOf(old.get().column()));
            }
            throw e;
        }
        DataType type = predicate.type();
        if (type != null && type.kind() != DataType.Kind.BOOLEAN) {
            throw SinkErrors.deleteWhenNotBoolean(text, type.ddl());
        }
        return new DeleteCondition(text, predicate, null, -1);
    }

    /** The problem of {@code text} over rows of {@code rows}, or null when it compiles. */
    public static String problem(Schema rows, String text) {
        try {
            compile(rows, text);
            return null;
        } catch (TributaryException e) {
            return e.getMessage();
        }
    }

    /**
     * True if the change {@code row} deletes its key: the condition is true (not false, not null).
     *
     * @param origin the record, named by the message of a row the expression fails on; null when not known
     * @throws TributaryException naming the record when the expression fails on the row (Spark's ANSI errors)
     */
    boolean deletes(Object[] row, RecordOrigin origin) {
        if (legacy != null) {
            return legacy.matches(row[legacyColumn]);
        }
        try {
            return Boolean.TRUE.equals(predicate.eval(row));
        } catch (ExpressionException e) {
            throw SinkErrors.deleteWhenFailed(text, origin == null ? "a row of the batch"
                    : "partition " + origin.partition() + " offset " + origin.offset(), e);
        }
    }
}
