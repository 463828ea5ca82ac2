package io.tributary.expressions.internal;

import io.tributary.expressions.ExpressionErrors;
import io.tributary.expressions.SqlQuery;
import io.tributary.expressions.SqlQuery.Part;
import io.tributary.expressions.internal.SparkExprParser.ParenthesizedQueryContext;
import io.tributary.expressions.internal.SparkExprParser.PlainQueryContext;
import io.tributary.expressions.internal.SparkExprParser.QueryContext;
import io.tributary.expressions.internal.SparkExprParser.QuerySpecificationContext;
import io.tributary.expressions.internal.SparkExprParser.QueryTermContext;
import io.tributary.expressions.internal.SparkExprParser.SetOperatorContext;
import io.tributary.schema.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import org.antlr.v4.runtime.Token;

/**
 * A {@code UNION ALL} of queries over the stream, as Spark runs it: every query reads each row of the stream, and the rows of all
 * of them are the union's. Here the queries are translated one by one ({@link #translate}); {@link #wider} is the type two
 * queries' columns meet in, Spark's ({@code WidenSetOperationTypes}, ANSI). Other set operators stay refused by the translator.
 */
public final class SqlUnion {
    private SqlUnion() {
    }

    /** The first of {@code q}'s set operators that is not {@code UNION ALL}, or null when all are (or it has none). */
    static SetOperatorContext notUnionAll(QueryContext q) {
        for (SetOperatorContext op : q.setOperator()) {
            if (op.kind.getType() != SparkExprLexer.UNION || op.getToken(SparkExprLexer.ALL, 0) == null) {
                return op;
            }
        }
        return null;
    }

    /**
     * The queries of {@code q}, joined by {@code UNION ALL} (parenthesized unions within it flattened): the first, with the others
     * in its {@code unionAll}. {@code around} refuses what a parenthesized query may not have around it (ORDER BY, LIMIT...; a WITH there is refused here),
     * {@code query} translates one query; a {@code GROUP BY} in one of them is refused.
     */
    static SqlQuery translate(QueryContext q, Consumer<QueryContext> around, Function<QuerySpecificationContext, SqlQuery> query) {
        List<SqlQuery.UnionAll> all = new ArrayList<>();
        collect(q, null, around, query, all);
        SqlQuery first = all.get(0).query();
        return new SqlQuery(first.sourceAlias(), first.joins(), first.lateralViews(), first.where(), first.select(), null,
                List.copyOf(all.subList(1, all.size())));
    }

    private static void collect(QueryContext q, Part at, Consumer<QueryContext> around, Function<QuerySpecificationContext, SqlQuery> query,
            List<SqlQuery.UnionAll> out) {
        for (int i = 0; i < q.queryTerm().size(); i++) {
            Part place = i == 0 ? at : part("UNION ALL", q.setOperator(i - 1).start);
            QueryTermContext term = q.queryTerm(i);
            if (term instanceof ParenthesizedQueryContext p) {
                if (p.query().withClause() != null) {
                    Token w = p.query().withClause().start;
                    throw ExpressionErrors.sqlUnsupported("WITH inside a query of UNION ALL", w.getLine(), w.getCharPositionInLine() + 1,
                            "write the WITH before the whole query");
                }
                around.accept(p.query());
                collect(p.query(), place, around, query, out);
                continue;
            }
            QuerySpecificationContext s = ((PlainQueryContext) term).querySpecification();
            if (s.group != null) {
                throw ExpressionErrors.sqlUnsupported("GROUP BY in a query of UNION ALL", s.group.getLine(), s.group.getCharPositionInLine() + 1,
                        "Spark refuses it without a watermark (STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION); UNION ALL joins the rows of"
                                + " queries without aggregation here: aggregate the union's table in a pipeline of its own, or give each"
                                + " aggregation a pipeline (both may append to one table)");
            }
            out.add(new SqlQuery.UnionAll(place, query.apply(s)));
        }
    }

    private static Part part(String text, Token at) {
        return new Part(text, at.getLine(), at.getCharPositionInLine() + 1);
    }

    /**
     * The type a column of type {@code a} in one query and {@code b} in another meet in, Spark's for a union in ANSI mode: numbers
     * widen, a string meets a whole number as BIGINT, a fraction as DOUBLE, a date, timestamp, boolean or binary as that type, a
     * date and a timestamp as TIMESTAMP, arrays, maps and structs element by element; null when they have none
     * (INCOMPATIBLE_COLUMN_TYPE).
     */
    public static DataType wider(DataType a, DataType b) {
        return a == null || b == null ? null : Types.common(a, b);
    }

    /** The type's name as Spark writes it in its errors ({@code DECIMAL(12,2)}, {@code ARRAY<INT>}). */
    public static String name(DataType t) {
        return Types.name(t);
    }
}
