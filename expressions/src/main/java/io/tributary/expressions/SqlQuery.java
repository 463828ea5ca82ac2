package io.tributary.expressions;

import io.tributary.expressions.internal.SqlTranslator;
import java.util.List;

/**
 * A Spark SQL query over the stream, named {@code source}, and Delta tables by path ({@code delta.`../dims/users`}),
 * as the transform it stands for: the joins, then {@code where}, then the select list, each the query's own text
 * with its place in the query. A view, {@code WITH c AS (SELECT ... FROM source ...)} or a subquery in FROM, is inlined into
 * the query that reads it, as Spark's optimizer merges it: references to its columns become its expressions (parenthesized),
 * its WHERE and the reader's are ANDed (its own first), {@code *} and {@code c.*} are its select list, its joins and lateral
 * views come first; over a view that aggregates, the reader's select list and WHERE are the {@link Aggregation}'s
 * {@code columns} and {@code having}; a view {@code SELECT * FROM delta.`path` [WHERE cond]} is that table where a join names
 * it, {@code cond} ANDed into the join's ON. {@link #parse} refuses, naming the construct, the line and the column, what the
 * transform cannot express: subqueries other than WHERE's {@code [NOT] EXISTS} and {@code [NOT] IN} over one Delta table (which are
 * left semi and anti joins) and views read once, set operators other than {@code UNION ALL}, {@code ORDER BY}, {@code OFFSET}, a {@code LIMIT}
 * other than the whole query's (or with a {@code GROUP BY}, or not a whole number), {@code DISTINCT}, a {@code GROUP BY} without a window,
 * {@code HAVING} without {@code GROUP BY}, a table other than {@code source} or {@code delta.`path`}, joins other than inner
 * (with {@code CROSS}, without {@code ON} and a Delta table after a comma: on {@code true}), left outer, left semi and left anti; a
 * Delta table written before the stream, {@code FROM delta.`path` u [INNER | CROSS | RIGHT [OUTER]] JOIN source s ...}, is the same
 * inner or left outer join of the stream, its columns first in {@code *}.
 * A {@code UNION ALL} of queries (two or more, each parenthesized or not, none with a {@code GROUP BY}) is the first query, whose
 * columns name the union's, and the others in {@link #unionAll}: each row of the stream goes through every query, and the rows of
 * each are published in the queries' order, each column of the type the queries' types widen to.
 *
 * @param sourceAlias the name the stream's columns may be qualified by: its alias, or {@code source}
 * @param joins       the joined tables, in order
 * @param lateralViews the table functions of FROM ({@code JOIN LATERAL explode(s.tags) t}, {@code , LATERAL explode(s.tags) t},
 *                    as {@code [LATERAL] [LEFT] explode(s.tags) t [AS columns] [ON condition]}), then each {@code LATERAL VIEW [OUTER]
 *                    generator(...) t [AS] columns} as written, in order: their columns join each row before WHERE, as Spark's
 *                    FROM clause makes them
 * @param where       the WHERE condition, or null
 * @param select      the select items as written ({@code *}, {@code s.*}, {@code u.*}, {@code expr [AS] name})
 * @param aggregation the aggregation a {@code GROUP BY} over a window stands for, or null; with one, the select items are
 *                    the aggregation's columns, and the transform passes the rows as they are (joined and filtered)
 * @param unionAll    the queries after this one joined to it by {@code UNION ALL}, in order; empty for one query
 * @param limit       the whole query's {@code LIMIT n} (after a {@code UNION ALL}), or null without one (or {@code LIMIT ALL}): as Spark's
 *                    streaming limit, the first {@code n} rows of the whole stream are kept, over every batch and run, and no more
 */
public record SqlQuery(String sourceAlias, List<Join> joins, List<Part> lateralViews, Part where, List<Part> select, Aggregation aggregation,
        List<UnionAll> unionAll, Limit limit) {

    /** A query without LIMIT. */
    public SqlQuery(String sourceAlias, List<Join> joins, List<Part> lateralViews, Part where, List<Part> select, Aggregation aggregation,
            List<UnionAll> unionAll) {
        this(sourceAlias, joins, lateralViews, where, select, aggregation, unionAll, null);
    }

    /** This query with the whole query's {@code limit} (null: none). */
    public SqlQuery withLimit(Limit limit) {
        return new SqlQuery(sourceAlias, joins, lateralViews, where, select, aggregation, unionAll, limit);
    }

    /** {@code LIMIT rows}, written at {@code at}. */
    public record Limit(long rows, Part at) {
    }

    /** One query, not a union. */
    public SqlQuery(String sourceAlias, List<Join> joins, List<Part> lateralViews, Part where, List<Part> select, Aggregation aggregation) {
        this(sourceAlias, joins, lateralViews, where, select, aggregation, List.of());
    }

    /** A query after {@code UNION ALL}, which is written at {@code at}; its {@code unionAll} is empty. */
    public record UnionAll(Part at, SqlQuery query) {
    }

    /** A part of the query: its text as written, and the line and column (1-based) where it starts. */
    public record Part(String text, int line, int column) {
        /** {@code line 2, column 7}. */
        public String at() {
            return "line " + line + ", column " + column;
        }
    }

    /**
     * A joined Delta table.
     *
     * @param table the path or URI written in {@code delta.`...`}
     * @param type  {@code inner}, {@code left}, {@code left_semi} or {@code left_anti}
     * @param on    the condition ({@code USING (a, b)} as {@code a = u.a AND b = u.b}), placed where the join is written
     * @param using the columns of {@code USING (a, b)}, which Spark's {@code *} gives first; empty for a join with {@code ON}
     * @param first whether the table is written before the stream ({@code FROM delta.`path` u [RIGHT] JOIN source s}): Spark's
     *              {@code *} gives its columns before the stream's
     */
    public record Join(String table, String alias, String type, Part on, List<String> using, boolean first) {
        /** A join with {@code ON}. */
        public Join(String table, String alias, String type, Part on) {
            this(table, alias, type, on, List.of());
        }

        /** A join written after the stream. */
        public Join(String table, String alias, String type, Part on, List<String> using) {
            this(table, alias, type, on, using, false);
        }

        /** This join, written before the stream. */
        public Join writtenFirst() {
            return new Join(table, alias, type, on, using, true);
        }
    }

    /**
     * A {@code GROUP BY window(ts, ...), ...} as the settings of the aggregation block: {@code aggregate.eventTime}, {@code window}
     * and {@code slide}, or {@code session} (from {@code session_window}), {@code groupBy} (columns, and expressions with their
     * names) and {@code select} (name to aggregate call).
     *
     * @param at           where GROUP BY is written
     * @param windowColumn the window's alias in the select list ({@code aggregate.windowColumn}), or null for Spark's name
     *                     without one ({@code window}, {@code session_window})
     * @param having       the HAVING predicate ({@code aggregate.having}), its columns as the table names them, or null
     * @param columns      the select list over the aggregated rows ({@code aggregate.columns}: the table's columns in its order), or
     *                     null when it is the window, the {@code groupBy} columns and the {@code select} aggregates, in that order
     */
    public record Aggregation(Part at, String eventTime, String window, String slide, String session, String windowColumn,
            List<String> groupBy, java.util.Map<String, String> select, Part having, List<String> columns) {
    }

    /** The query's transform; a construct it cannot express, or a syntax error, is refused naming its line and column. */
    public static SqlQuery parse(String sql) {
        return SqlTranslator.translate(sql);
    }
}
