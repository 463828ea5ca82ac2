package io.tributary.expressions.internal;

import io.tributary.expressions.ExpressionErrors;
import io.tributary.expressions.SqlQuery;
import io.tributary.expressions.SqlQuery.Part;
import io.tributary.expressions.internal.SparkExprParser.QueryContext;
import org.antlr.v4.runtime.Token;

/**
 * The whole query's {@code LIMIT n}: Spark's streaming limit, the first {@code n} rows of the stream over every batch and run
 * ({@code LIMIT ALL}: none, as in Spark). Only a
 * whole number written as such is taken (Spark's limit is a foldable whole number, not negative); a {@code LIMIT} with a
 * {@code GROUP BY} is refused, as the aggregation's rows are not the ingest's to count.
 */
final class SqlLimit {
    private SqlLimit() {
    }

    /** The LIMIT of {@code whole}, translated to {@code query}; null without one. */
    static SqlQuery.Limit of(QueryContext whole, SqlQuery query) {
        var o = whole.queryOrganization();
        if (o.limit == null || o.limitAll != null) {
            return null; // LIMIT ALL: Spark's no limit
        }
        Token at = o.limit;
        String text = o.expression(0).getText();
        long rows;
        try {
            rows = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw refused(at, "LIMIT " + text, "the limit is a whole number written as one, e.g. LIMIT 100");
        }
        if (rows < 0) {
            throw refused(at, "LIMIT " + text, "Spark refuses it too (INVALID_LIMIT_LIKE_EXPRESSION.IS_NEGATIVE); the limit is 0 or more");
        }
        if (query.aggregation() != null) {
            throw refused(at, "LIMIT with GROUP BY", "the limit is counted where the stream's rows are published, and an aggregation's"
                    + " rows are made later, from its windows; remove LIMIT, and take the first rows when reading the table");
        }
        return new SqlQuery.Limit(rows, new Part("LIMIT " + text, at.getLine(), at.getCharPositionInLine() + 1));
    }

    private static RuntimeException refused(Token at, String construct, String instead) {
        return ExpressionErrors.sqlUnsupported(construct, at.getLine(), at.getCharPositionInLine() + 1, instead);
    }
}
