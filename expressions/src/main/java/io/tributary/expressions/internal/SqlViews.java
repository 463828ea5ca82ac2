package io.tributary.expressions.internal;

import io.tributary.expressions.ExpressionErrors;
import io.tributary.expressions.SqlQuery;
import io.tributary.expressions.SqlQuery.Aggregation;
import io.tributary.expressions.SqlQuery.Join;
import io.tributary.expressions.SqlQuery.Part;
import io.tributary.expressions.internal.SparkExprParser.AliasedQueryContext;
import io.tributary.expressions.internal.SparkExprParser.NamedItemContext;
import io.tributary.expressions.internal.SparkExprParser.ParenthesizedQueryContext;
import io.tributary.expressions.internal.SparkExprParser.PlainQueryContext;
import io.tributary.expressions.internal.SparkExprParser.QueryContext;
import io.tributary.expressions.internal.SparkExprParser.QuerySpecificationContext;
import io.tributary.expressions.internal.SparkExprParser.RelationPrimaryContext;
import io.tributary.expressions.internal.SparkExprParser.SelectAllContext;
import io.tributary.expressions.internal.SparkExprParser.SelectAllOfContext;
import io.tributary.expressions.internal.SparkExprParser.SqlSelectAllContext;
import io.tributary.expressions.internal.SparkExprParser.SqlSelectAllOfContext;
import io.tributary.expressions.internal.SparkExprParser.TableNameContext;
import io.tributary.expressions.internal.SparkExprParser.WithClauseContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.antlr.v4.runtime.Token;

/**
 * A query's views, common table expressions ({@code WITH clean AS (SELECT ... FROM source ...)}) and subqueries in FROM
 * ({@code FROM (SELECT ... FROM source) t}), inlined into the query that reads them as Spark's optimizer merges them: the
 * reader's references to the view's columns become the view's expressions ({@link ViewColumns}), the view's WHERE and the
 * reader's are ANDed (the view's first), {@code *} and {@code t.*} are the view's select list, and the view's joins and lateral
 * views come before the reader's. Over a view that aggregates ({@code GROUP BY window(...)}) the reader's select list is the
 * aggregation's {@code columns} and its WHERE the aggregation's {@code having}. A view of a Delta table
 * ({@code WITH u AS (SELECT * FROM delta.`path` [WHERE cond])}) is that table where a join names it, its filter ANDed into the
 * join's ON (which gives Spark's rows for each join type, as the filter reads the table's side only). What cannot be
 * inlined is refused naming it: a view read twice (a self-join of the stream), a view of a Delta table other than
 * {@code SELECT *}, a join or a GROUP BY over a view that aggregates.
 */
final class SqlViews {
    /** Spark's name of a subquery in FROM without an alias. */
    private static final String AUTO = "__auto_generated_subquery_name";

    /** A common table expression: its name, query, the names it sees (the WITH's earlier ones, the outer ones), and its reads. */
    private static final class Definition {
        private final String name;
        private final QueryContext query;
        private final Scope scope;
        private int reads;

        private Definition(String name, QueryContext query, Scope scope) {
            this.name = name;
            this.query = query;
            this.scope = scope;
        }
    }

    private record Scope(Map<String, Definition> names, Scope parent) {
        Definition find(String name) {
            for (Scope s = this; s != null; s = s.parent) {
                Definition d = s.names.get(name.toLowerCase(Locale.ROOT));
                if (d != null) {
                    return d;
                }
            }
            return null;
        }
    }

    /** The view FROM reads: where, its alias in the reader, its query and the names that query sees. */
    private record View(RelationPrimaryContext from, String alias, QueryContext query, Scope scope) {
    }

    /**
     * A view of a Delta table as a join reads it: the join's alias ({@code name}, the view's name without one) and where it is
     * written, the table's path, the alias the view's filter may name the table by (or null), and that filter (or null).
     */
    record DeltaView(String name, Token aliasAt, String path, String tableAlias, Part filter) {
        DeltaView as(String alias, Token at) {
            return new DeltaView(alias, at, path, tableAlias, filter);
        }

        /** The join of the view with its filter ANDed into ON, over the table's columns as the join names them. */
        Join filtered(Join j) {
            if (filter == null) {
                return j;
            }
            String f = ViewColumns.requalifying(tableAlias, j.alias()).expression(filter);
            String on = j.on().text().equals("true") ? f : "(" + j.on().text() + ") AND (" + f + ")";
            return new Join(j.table(), j.alias(), j.type(), new Part(on, j.on().line(), j.on().column()), j.using(), j.first());
        }
    }

    private final SqlTranslator translator;
    private Scope scope;
    private View reading;

    SqlViews(SqlTranslator translator) {
        this.translator = translator;
    }

    /** The query, its views inlined; a {@code UNION ALL} of queries ({@link SqlUnion}) only as the {@code whole} query. */
    SqlQuery query(QueryContext q, boolean whole) {
        Scope saved = scope;
        try {
            if (q.withClause() != null) {
                scope = definitions(q.withClause());
            }
            translator.refuseAround(q);
            if (!q.setOperator().isEmpty()) {
                if (!whole) {
                    throw refused(q.setOperator(0).start, "UNION ALL in a view or a subquery in FROM", "write the UNION ALL as the"
                            + " whole query, each of its queries reading the views");
                }
                return SqlUnion.translate(q, translator::refuseAround, s -> specification(unread(s))); // each query reads the views anew
            }
            if (q.queryTerm(0) instanceof ParenthesizedQueryContext p) {
                return query(p.query(), whole);
            }
            return specification(((PlainQueryContext) q.queryTerm(0)).querySpecification());
        } finally {
            scope = saved;
        }
    }

    /** {@code s}, every view in scope counted as not read yet: each query of a {@code UNION ALL} reads the stream, and so its views. */
    private QuerySpecificationContext unread(QuerySpecificationContext s) {
        for (Scope sc = scope; sc != null; sc = sc.parent()) {
            sc.names().values().forEach(d -> d.reads = 0);
        }
        return s;
    }

    /** One SELECT, the view it reads in FROM (if any) merged into it. */
    private SqlQuery specification(QuerySpecificationContext s) {
        Scope saved = scope;
        try {
            View v = s.relation().isEmpty() ? null : view(s.relation(0).relationPrimary());
            View outerReading = reading;
            reading = v;
            SqlQuery reader;
            try {
                reader = translator.specification(s);
            } finally {
                reading = outerReading;
            }
            if (v == null) {
                return reader;
            }
            scope = v.scope();
            return merge(reader, query(v.query(), false), v);
        } finally {
            scope = saved;
        }
    }

    private Scope definitions(WithClauseContext w) {
        Scope defined = new Scope(new LinkedHashMap<>(), scope);
        for (int i = 0; i < w.identifier().size(); i++) {
            String name = AstBuilder.name(w.identifier(i));
            if (defined.names().containsKey(name.toLowerCase(Locale.ROOT))) {
                throw refused(w.identifier(i).start, "the name " + name + " of two common table expressions", "[DUPLICATED_CTE_NAMES] Spark"
                        + " refuses it too; give each its own name");
            }
            Scope sees = new Scope(Map.copyOf(defined.names()), scope); // the WITH's earlier views, and the outer ones
            defined.names().put(name.toLowerCase(Locale.ROOT), new Definition(name, w.query(i), sees));
        }
        return defined;
    }

    /** The alias of the view FROM reads ({@code from}), or null when it reads {@code source} or a table. */
    String alias(RelationPrimaryContext from) {
        return reading != null && reading.from() == from ? reading.alias() : null;
    }

    /** The view FROM's first item reads, or null for a table; a view of a Delta table there is refused. */
    private View view(RelationPrimaryContext from) {
        if (from instanceof AliasedQueryContext a) {
            if (delta(a.query(), null) != null) {
                throw refused(a.start, "a subquery of a Delta table in FROM", "FROM reads the pipeline's source, named source; join the"
                        + " table to it: FROM source s JOIN delta.`path` u ON ...");
            }
            String alias = SqlTranslator.alias(a.tableAlias());
            return new View(from, alias == null ? AUTO : alias, a.query(), scope);
        }
        Definition d = definition(from);
        if (d == null) {
            return null;
        }
        if (delta(d.query, d.name) != null) {
            throw refused(from.start, "the view " + d.name + " of a Delta table in FROM", "FROM reads the pipeline's source, named source;"
                    + " join the view to it: FROM source s JOIN " + d.name + " u ON ...");
        }
        String alias = SqlTranslator.alias(((TableNameContext) from).tableAlias());
        return new View(from, alias == null ? d.name : alias, d.query, d.scope);
    }

    /** The common table expression a single-part table name reads (counted as a read), or null. */
    private Definition definition(RelationPrimaryContext from) {
        if (scope == null || !(from instanceof TableNameContext t) || t.qualifiedName().identifier().size() != 1) {
            return null;
        }
        Definition d = scope.find(AstBuilder.name(t.qualifiedName().identifier(0)));
        if (d != null && d.reads++ > 0) {
            throw refused(from.start, "the common table expression " + d.name + " read a second time", "each view is inlined into the one"
                    + " query that reads it, and the stream is read once (Spark runs a view of it read twice as a stream-stream join or"
                    + " union); read it once, or join the Delta table by its path again: JOIN delta.`path` v ON ...");
        }
        return d;
    }

    /** The Delta table a joined relation names through a view ({@code JOIN u ON ...} of {@code WITH u AS (SELECT * FROM delta.`p`)}), or null. */
    DeltaView deltaTable(RelationPrimaryContext right) {
        if (right instanceof AliasedQueryContext a) {
            DeltaView v = delta(a.query(), null);
            if (v != null && SqlTranslator.alias(a.tableAlias()) == null) {
                throw refused(right.start, "a joined subquery without an alias", "name it, as its columns are named by it: JOIN (...) AS u ON ...");
            }
            return v == null ? null : v.as(SqlTranslator.alias(a.tableAlias()), a.tableAlias().start);
        }
        Definition d = definition(right);
        if (d == null) {
            return null;
        }
        DeltaView v = delta(d.query, d.name);
        if (v == null) {
            throw refused(right.start, "the view " + d.name + " joined", "it reads the stream, which is read once, in FROM (Spark runs it as a"
                    + " stream-stream join); join Delta tables to it: JOIN delta.`path` u ON ...");
        }
        TableNameContext t = (TableNameContext) right;
        String alias = SqlTranslator.alias(t.tableAlias());
        return v.as(alias == null ? d.name : alias, alias == null ? t.start : t.tableAlias().start);
    }

    /**
     * The view of a Delta table {@code q} is, {@code SELECT * FROM delta.`path` [alias] [WHERE condition]}; null when it reads
     * another table; a view of a Delta table of another shape is refused.
     */
    private DeltaView delta(QueryContext q, String name) {
        QuerySpecificationContext s = q.queryTerm(0) instanceof PlainQueryContext p ? p.querySpecification() : null;
        RelationPrimaryContext from = s == null || s.relation().isEmpty() ? null : s.relation(0).relationPrimary();
        if (!(from instanceof TableNameContext t) || t.qualifiedName().identifier().size() != 2
                || !AstBuilder.name(t.qualifiedName().identifier(0)).equalsIgnoreCase("delta")) {
            return null;
        }
        String alias = SqlTranslator.alias(t.tableAlias());
        boolean star = s.sqlSelectItem().size() == 1 && (s.sqlSelectItem(0) instanceof SqlSelectAllContext
                || s.sqlSelectItem(0) instanceof SqlSelectAllOfContext of && alias != null && of.qualifiedName().getText().equalsIgnoreCase(alias));
        boolean plain = q.withClause() == null && q.setOperator().isEmpty() && q.queryOrganization().getChildCount() == 0 && s.relation().size() == 1
                && s.relation(0).joinRelation().isEmpty() && s.lateralView().isEmpty() && s.tableFunction().isEmpty() && s.group == null
                && s.having == null && s.quantifier == null && SqlSubqueries.first(s, Set.of()) == null;
        if (!star || !plain) {
            throw refused(s.start, "a view of a Delta table other than SELECT * FROM delta.`path` [WHERE condition]", "join the table and"
                    + " select its columns in the query that reads it: JOIN delta.`path` u ON ... with u.col in the select list");
        }
        return new DeltaView(name, null, AstBuilder.name(t.qualifiedName().identifier(1)), alias,
                s.where == null ? null : translator.part(s.where));
    }

    /** The reader {@code o} of the view {@code v}, whose own query is {@code i}, as one query over the stream. */
    private SqlQuery merge(SqlQuery o, SqlQuery i, View v) {
        if (i.aggregation() != null) {
            return overAggregation(o, i, v);
        }
        Set<String> tables = new HashSet<>();
        Set<String> shadowing = new HashSet<>();
        Map<String, List<String>> lateralColumns = new LinkedHashMap<>();
        o.joins().forEach(j -> tables.add(j.alias().toLowerCase(Locale.ROOT)));
        for (Part p : o.lateralViews()) {
            Parsing.LateralView lv = Parsing.lateralView(p.text(), null, Map.of());
            tables.add(lv.table().toLowerCase(Locale.ROOT));
            lv.columns().forEach(c -> shadowing.add(c.toLowerCase(Locale.ROOT)));
            lateralColumns.put(lv.table(), lv.columns());
        }
        Set<String> inner = new HashSet<>();
        inner.add(i.sourceAlias().toLowerCase(Locale.ROOT));
        i.joins().forEach(j -> inner.add(j.alias().toLowerCase(Locale.ROOT)));
        i.lateralViews().forEach(p -> inner.add(Parsing.lateralView(p.text(), null, Map.of()).table().toLowerCase(Locale.ROOT)));
        for (Join j : o.joins()) {
            if (inner.contains(j.alias().toLowerCase(Locale.ROOT))) {
                throw refused(j.on(), "the alias '" + j.alias() + "', given in the view " + v.alias() + " too", "give each table of the"
                        + " query and its views an alias of its own");
            }
            if (!j.using().isEmpty()) {
                throw refused(j.on(), "USING in a join over the view " + v.alias(), "give the condition: ON " + v.alias() + ".col = "
                        + j.alias() + ".col");
            }
        }
        if (!o.joins().isEmpty() && !i.lateralViews().isEmpty()) {
            throw refused(o.joins().get(0).on(), "a join of a Delta table over the view " + v.alias() + ", which has a table function or"
                    + " lateral view", "join the Delta table inside the view, before its table functions");
        }
        boolean open = !o.joins().isEmpty() || !o.lateralViews().isEmpty();
        ViewColumns columns = ViewColumns.over(v.alias(), i.select().stream().map(Part::text).toList(), tables, shadowing, open);
        // a reader's lateral view column may have the name of a column of the view's input, which the view hid: named apart
        lateralColumns.forEach((table, names) -> names.forEach(c -> columns.renaming(table, c, c + "__" + table)));
        List<Join> joins = new ArrayList<>(i.joins());
        for (Join j : o.joins()) {
            joins.add(new Join(j.table(), j.alias(), j.type(), new Part(columns.expression(j.on()), j.on().line(), j.on().column()), j.using(),
                    j.first()));
        }
        List<Part> laterals = new ArrayList<>(i.lateralViews());
        o.lateralViews().forEach(p -> laterals.add(new Part(columns.lateralView(p), p.line(), p.column())));
        Part where = o.where() == null ? null : new Part(columns.expression(o.where()), o.where().line(), o.where().column());
        List<Part> select = new ArrayList<>();
        for (Part p : o.select()) {
            NamedItemContext item = Parsing.selectItemTree(p.text());
            if (item instanceof SelectAllContext) {
                select.addAll(starOver(o, i, v, p, true));
            } else if (item instanceof SelectAllOfContext of && of.qualifiedName().identifier().size() == 1
                    && AstBuilder.name(of.qualifiedName().identifier(0)).equalsIgnoreCase(v.alias())) {
                select.addAll(starOver(o, i, v, p, false));
            } else if (item instanceof SelectAllOfContext) {
                select.add(p);
            } else {
                select.add(new Part(columns.selectItem(p), p.line(), p.column()));
            }
        }
        Aggregation a = o.aggregation() == null ? null : SqlViewAggregation.overView(o.aggregation(), columns);
        return new SqlQuery(i.sourceAlias(), List.copyOf(joins), List.copyOf(laterals), and(i.where(), where), List.copyOf(select), a);
    }

    /**
     * The view's select list for the reader's {@code *} ({@code all}: with the reader's joined tables' columns after it) or
     * {@code t.*}: a {@code *} of the view's own is its stream's and joined tables' columns, apart from the reader's.
     */
    private static List<Part> starOver(SqlQuery o, SqlQuery i, View v, Part at, boolean all) {
        if (o.joins().isEmpty() && o.lateralViews().isEmpty()) {
            return i.select();
        }
        if (all && !o.lateralViews().isEmpty()) {
            throw refused(at, "* over the view " + v.alias() + " and a lateral view", "name the columns: SELECT " + v.alias() + ".*, t.col");
        }
        List<Part> out = new ArrayList<>();
        for (Part p : i.select()) {
            if (!(Parsing.selectItemTree(p.text()) instanceof SelectAllContext)) {
                out.add(p);
                continue;
            }
            if (!i.lateralViews().isEmpty()) {
                throw refused(at, "* over the view " + v.alias() + " whose * has lateral views' columns", "name the view's columns");
            }
            out.add(new Part(ViewColumns.quoted(i.sourceAlias()) + ".*", p.line(), p.column()));
            i.joins().stream().filter(j -> j.type().equals("inner") || j.type().equals("left"))
                    .forEach(j -> out.add(new Part(ViewColumns.quoted(j.alias()) + ".*", p.line(), p.column())));
        }
        if (all) {
            o.joins().stream().filter(j -> j.type().equals("inner") || j.type().equals("left"))
                    .forEach(j -> out.add(new Part(ViewColumns.quoted(j.alias()) + ".*", at.line(), at.column())));
        }
        return out;
    }

    /** The reader of a view that aggregates: its select list the aggregation's columns, its WHERE the aggregation's HAVING. */
    private static SqlQuery overAggregation(SqlQuery o, SqlQuery i, View v) {
        if (!o.joins().isEmpty() || !o.lateralViews().isEmpty() || o.aggregation() != null) {
            Part at = !o.joins().isEmpty() ? o.joins().get(0).on() : !o.lateralViews().isEmpty() ? o.lateralViews().get(0) : o.aggregation().at();
            throw refused(at, (o.aggregation() != null ? "GROUP BY" : "a join") + " over the view " + v.alias() + ", which aggregates",
                    "the aggregation's rows are written as they are; join or aggregate the stream's rows inside the view");
        }
        Aggregation a = i.aggregation();
        List<String> layout = SqlViewAggregation.layout(a);
        ViewColumns columns = ViewColumns.over(v.alias(), layout, Set.of(), Set.of(), false);
        List<String> selected = new ArrayList<>();
        for (Part p : o.select()) {
            NamedItemContext item = Parsing.selectItemTree(p.text());
            if (item instanceof SelectAllContext || item instanceof SelectAllOfContext of && of.qualifiedName().getText().equalsIgnoreCase(v.alias())) {
                selected.addAll(layout);
            } else if (item instanceof SelectAllOfContext) {
                throw refused(p, p.text() + " over the view " + v.alias(), "select the view's columns: " + v.alias() + ".*");
            } else {
                selected.add(columns.selectItem(p));
            }
        }
        Part having = o.where() == null ? null : new Part(columns.expression(o.where()), o.where().line(), o.where().column());
        Aggregation merged = new Aggregation(a.at(), a.eventTime(), a.window(), a.slide(), a.session(), a.windowColumn(), a.groupBy(),
                a.select(), and(a.having(), having), List.copyOf(selected));
        return new SqlQuery(i.sourceAlias(), i.joins(), i.lateralViews(), i.where(), i.select(), merged);
    }

    /** {@code (first) AND (second)} placed where {@code first} is; either alone when the other is null. */
    private static Part and(Part first, Part second) {
        if (first == null || second == null) {
            return first == null ? second : first;
        }
        return new Part("(" + first.text() + ") AND (" + second.text() + ")", first.line(), first.column());
    }

    private static RuntimeException refused(Token at, String construct, String instead) {
        return ExpressionErrors.sqlUnsupported(construct, at.getLine(), at.getCharPositionInLine() + 1, instead);
    }

    private static RuntimeException refused(Part at, String construct, String instead) {
        return ExpressionErrors.sqlUnsupported(construct, at.line(), at.column(), instead);
    }
}
