package io.tributary.expressions.internal;

import io.tributary.expressions.ExpressionErrors;
import io.tributary.expressions.SqlQuery;
import io.tributary.expressions.SqlQuery.Join;
import io.tributary.expressions.SqlQuery.Part;
import io.tributary.expressions.internal.SparkExprParser.AliasedQueryContext;
import io.tributary.expressions.internal.SparkExprParser.JoinOnContext;
import io.tributary.expressions.internal.SparkExprParser.JoinRelationContext;
import io.tributary.expressions.internal.SparkExprParser.JoinTypeContext;
import io.tributary.expressions.internal.SparkExprParser.JoinUsingContext;
import io.tributary.expressions.internal.SparkExprParser.LateralViewContext;
import io.tributary.expressions.internal.SparkExprParser.QueryContext;
import io.tributary.expressions.internal.SparkExprParser.QueryOrganizationContext;
import io.tributary.expressions.internal.SparkExprParser.QuerySpecificationContext;
import io.tributary.expressions.internal.SparkExprParser.RelationPrimaryContext;
import io.tributary.expressions.internal.SparkExprParser.SetOperatorContext;
import io.tributary.expressions.internal.SparkExprParser.SqlSelectExpressionContext;
import io.tributary.expressions.internal.SparkExprParser.SqlSelectItemContext;
import io.tributary.expressions.internal.SparkExprParser.TableAliasContext;
import io.tributary.expressions.internal.SparkExprParser.FunctionTableContext;
import io.tributary.expressions.internal.SparkExprParser.TableNameContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.tree.ParseTree;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * Translates a query ({@code sql:}) into the transform it stands for, {@link SqlQuery}: the stream
 * {@code source}, joined with Delta tables by path, filtered by WHERE, projected by the select list.
 * The expressions stay the query's text; what has no counterpart in the transform is refused here,
 * naming the construct and its line and column.
 */
public final class SqlTranslator {
    private static final String SOURCE = "source";
    private static final String SHAPE = "a query is SELECT items FROM source [AS s] [[LEFT | LEFT SEMI | LEFT ANTI] JOIN delta.`path` [AS] u ON"
            + " condition] ... [, LATERAL explode(s.tags) t] ... [WHERE condition], or FROM delta.`path` u [RIGHT] JOIN source s ON ...";

    private final String sql;
    private final SqlViews views = new SqlViews(this);
    /** The whole query: the one whose LIMIT is taken ({@link SqlLimit}). */
    private QueryContext whole;

    private SqlTranslator(String sql) {
        this.sql = sql;
    }

    public static SqlQuery translate(String sql) {
        if (sql == null || sql.isBlank()) {
            throw ExpressionErrors.sqlSyntax(1, 1, "the end", "the query is empty");
        }
        SqlTranslator t = new SqlTranslator(sql);
        t.whole = Parsing.query(sql).query();
        SqlQuery q = t.views.query(t.whole, true); // WITH and subqueries in FROM inlined (SqlViews)
        return q.withLimit(SqlLimit.of(t.whole, q));
    }

    /** Refuses what surrounds a query's SELECT that the transform cannot express (set operators but UNION ALL, ORDER BY, LIMIT, OFFSET). */
    void refuseAround(QueryContext q) {
        SetOperatorContext op = SqlUnion.notUnionAll(q);
        if (op != null) {
            boolean all = op.getToken(SparkExprLexer.ALL, 0) != null;
            throw refused(op.start, op.kind.getText().toUpperCase(Locale.ROOT) + (all ? " ALL" : ""), (all || op.kind.getType() != SparkExprLexer.UNION ? "" : "Spark refuses it too"
                    + " (STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION: its duplicates are dropped by an aggregation without a watermark); UNION ALL"
                    + " keeps every row of the queries, and transform.dropDuplicates over a watermark drops duplicates; ")
                    + "a query of a pipeline is a SELECT or a UNION ALL of them; write the other query as a pipeline of its own (both may append to one table)");
        }
        QueryOrganizationContext o = q.queryOrganization();
        if (o.order != null) {
            throw refused(o.order, "ORDER BY", "Spark refuses it too (Sorting is not supported on streaming DataFrames/Datasets, unless it is on"
                    + " aggregated DataFrame/Dataset in Complete output mode); the rows of a stream have no order to keep; sort when reading the table");
        }
        if (o.limit != null && q != whole) {
            throw refused(o.limit, "LIMIT in a view, a subquery or a query of UNION ALL", "write LIMIT once, at the end of the whole query:"
                    + " it keeps the first rows of the whole stream");
        }
        if (o.offset != null) {
            throw refused(o.offset, "OFFSET", "Spark refuses it too (Offset is not supported on streaming DataFrames/Datasets); filter with WHERE");
        }
    }

    /** One SELECT's transform; FROM reads {@code source} or a view ({@link SqlViews}), whose columns its texts then name. */
    SqlQuery specification(QuerySpecificationContext s) {
        if (s.quantifier != null && s.quantifier.getType() == SparkExprLexer.DISTINCT) {
            throw refused(s.quantifier, "SELECT DISTINCT", "Spark refuses it too (STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION: an aggregation"
                    + " without a watermark); a stream's duplicates are dropped by Spark's dropDuplicates over a"
                    + " watermark (docs/transform.md), not by the query; remove DISTINCT (a column named distinct is `distinct`)");
        }
        if (s.relation().isEmpty()) {
            Token[] from = fromAsAName(s);
            if (from != null) { // SELECT not FROM source: NOT of a column named FROM, aliased source, as Spark reads it
                String word = from[0].getText();
                throw refused(from[1], "the word " + from[1].getText() + " after " + word + ", read as a column's name as Spark reads"
                        + " it", "a query needs FROM source; a column named by a keyword is written in backquotes: `"
                        + word.toLowerCase(Locale.ROOT) + "`");
            }
            throw refused(s.start, "a SELECT without FROM", SHAPE);
        }
        if (s.having != null && s.group == null) {
            throw refused(s.having, "HAVING without GROUP BY", "HAVING filters the rows of an aggregation over a window; filter the"
                    + " query's rows with WHERE");
        }
        RelationPrimaryContext from = s.relation(0).relationPrimary();
        List<JoinRelationContext> joined = s.relation(0).joinRelation();
        JoinRelationContext stream = isTable(from, 2, "delta") && !joined.isEmpty() && joined.get(0).function == null
                && isTable(joined.get(0).right, 1, SOURCE) ? joined.get(0) : null; // FROM delta.`path` u JOIN source s ON ...
        String alias = source(stream == null ? from : stream.right);
        Set<String> aliases = new HashSet<>();
        aliases.add(alias.toLowerCase(Locale.ROOT));
        List<Join> joins = new ArrayList<>();
        if (stream != null) {
            if (stream.natural != null || stream.lateral != null) {
                join(stream, aliases); // refused as after the stream
            }
            joins.add(table(from, SqlJoinTypes.before(stream), aliases, stream).writtenFirst());
        }
        List<Part> lateralViews = new ArrayList<>(); // the table functions joined (JOIN LATERAL), after a comma, then LATERAL VIEWs
        for (JoinRelationContext j : stream == null ? joined : joined.subList(1, joined.size())) {
            if (j.function != null) {
                lateralViews.add(lateralJoin(j));
            } else if (!lateralViews.isEmpty()) {
                throw refused(j.start, "a join of a Delta table after a table function", "join the Delta tables first: FROM source s"
                        + " JOIN delta.`path` u ON ... JOIN LATERAL explode(...) t");
            } else {
                joins.add(join(j, aliases));
            }
        }
        for (int i = 1; i < s.relation().size(); i++) { // FROM source s, delta.`t` u: Spark's cross join, filtered by WHERE
            var r = s.relation(i);
            if (!r.joinRelation().isEmpty() || !lateralViews.isEmpty() || s.tableFunction().stream().anyMatch(f -> f.start.getTokenIndex() < r.start.getTokenIndex())) {
                throw refused(r.start, "a FROM item after a join or a table function", "list the Delta tables first: FROM source s,"
                        + " delta.`path` u, LATERAL explode(...) t, or join them with JOIN ... ON");
            }
            joins.add(table(r.relationPrimary(), "inner", aliases, null));
        }
        SqlSubqueries.Split split = s.where == null ? null : SqlSubqueries.of(s.where.booleanExpression(), this::part, q -> existsTable(q, aliases));
        ParserRuleContext subquery = SqlSubqueries.first(s, split == null ? Set.of() : split.taken());
        if (subquery != null) {
            throw refused(subquery.start, "a subquery", (readsSource(subquery) ? "Spark refuses it too, as it reads the stream"
                    + " (INVALID_SUBQUERY_EXPRESSION.STREAMING_QUERY); " : "") + "join the Delta table instead: JOIN delta.`path` u ON ...");
        }
        joins.addAll(split == null ? List.of() : split.joins()); // WHERE [NOT] EXISTS (SELECT ... FROM delta.`t` u WHERE ...)
        List<Part> select = new ArrayList<>();
        for (SqlSelectItemContext item : s.sqlSelectItem()) {
            select.add(part(item));
        }
        s.tableFunction().stream().map(f -> tableFunction(f.functionTable(), f.LATERAL() != null, "", null)).forEach(lateralViews::add);
        for (LateralViewContext v : s.lateralView()) {
            if (v.VIEW() == null) {
                throw refused(v.start, "LATERAL without VIEW after FROM's items", "join a table function after a comma: FROM source,"
                        + " LATERAL " + v.generator.getText() + "(...) e");
            }
            lateralViews.add(part(v));
        }
        return new SqlQuery(alias, List.copyOf(joins), lateralViews, split == null ? null : split.where(), List.copyOf(select), aggregation(s, alias));
    }

    /** The aggregation of the query's GROUP BY, or null without one. */
    private SqlQuery.Aggregation aggregation(QuerySpecificationContext s, String alias) {
        if (s.group == null) {
            return null;
        }
        int from = s.group.getTokenIndex();
        int to = s.having == null ? Integer.MAX_VALUE : s.having.getTokenIndex();
        List<Part> keys = s.expression().stream().filter(e -> e.start.getTokenIndex() > from && e.start.getTokenIndex() < to)
                .map(this::part).toList();
        List<SqlAggregation.Item> items = new ArrayList<>();
        for (SqlSelectItemContext item : s.sqlSelectItem()) {
            if (item instanceof SqlSelectExpressionContext e) {
                String name = e.alias != null ? AstBuilder.name(e.alias) : null;
                items.add(new SqlAggregation.Item(part(e.expression()).text(), name, part(item)));
            } else {
                items.add(new SqlAggregation.Item(null, null, part(item)));
            }
        }
        Token g = s.group;
        Part having = s.having == null ? null : s.expression().stream().filter(e -> e.start.getTokenIndex() > to).findFirst()
                .map(this::part).orElseThrow();
        return SqlAggregation.of(new Part("GROUP BY", g.getLine(), g.getCharPositionInLine() + 1), keys, items, having, alias);
    }

    /** The stream's alias (its name, {@code source}, without one); anything else in FROM is refused. */
    private String source(RelationPrimaryContext from) {
        String view = views.alias(from);
        if (view != null) {
            return view;
        }
        if (!(from instanceof TableNameContext t)) {
            throw refused(from.start, from instanceof AliasedQueryContext ? "a subquery in FROM" : "a parenthesized join",
                    "read the stream itself: " + SHAPE);
        }
        List<String> name = names(t);
        if (name.size() == 2 && name.get(0).equalsIgnoreCase("delta")) {
            throw refused(t.start, "the Delta table " + t.qualifiedName().getText() + " in FROM", "FROM reads the pipeline's source, named"
                    + " source; join the table to it: FROM source s JOIN " + t.qualifiedName().getText() + " u ON ..., or FROM "
                    + t.qualifiedName().getText() + " u [RIGHT] JOIN source s ON ...");
        }
        if (name.size() != 1 || !name.get(0).equalsIgnoreCase(SOURCE)) {
            throw unknownTable(t);
        }
        String alias = alias(t.tableAlias());
        return alias == null ? SOURCE : alias;
    }

    private Join join(JoinRelationContext j, Set<String> aliases) {
        if (j.natural != null) {
            throw refused(j.natural, "NATURAL JOIN", "give the condition: JOIN delta.`path` u ON s.user = u.user, or USING (user)");
        }
        if (j.lateral != null) {
            throw refused(j.lateral, "LATERAL before " + j.right.getText(), "[INVALID_SQL_SYNTAX.LATERAL_WITHOUT_SUBQUERY_OR_TABLE_VALUED_FUNC]"
                    + " LATERAL joins a table function (JOIN LATERAL explode(s.tags) t); join a Delta table without it");
        }
        return table(j.right, SqlJoinTypes.after(j.joinType(), j.start), aliases, j);
    }

    /** A joined table of {@code type}, its condition that of {@code j} (none: {@code true}, Spark's cross join; {@code j} null: a FROM item). */
    private Join table(RelationPrimaryContext right, String type, Set<String> aliases, JoinRelationContext j) {
        SqlViews.DeltaView view = views.deltaTable(right); // WITH u AS (SELECT * FROM delta.`path` [WHERE ...]) ... JOIN u ON ...
        if (view != null) {
            return view.filtered(joined(view.path(), view.name(), type, aliases, j, right.start, view.aliasAt()));
        }
        if (!(right instanceof TableNameContext t)) {
            throw refused(right.start, right instanceof AliasedQueryContext ? "a subquery" : "a parenthesized join",
                    "join a Delta table by its path: JOIN delta.`path` u ON ...");
        }
        List<String> name = names(t);
        if (name.size() == 1 && name.get(0).equalsIgnoreCase(SOURCE)) {
            throw refused(t.start, "source joined again", "the stream is read once, in FROM; join Delta tables to it: JOIN delta.`path` u ON ...");
        }
        if (name.size() != 2 || !name.get(0).equalsIgnoreCase("delta")) {
            throw unknownTable(t);
        }
        String alias = alias(t.tableAlias());
        if (alias == null) {
            throw refused(t.start, "a joined table without an alias", "name it, as its columns are named by it: JOIN "
                    + t.qualifiedName().getText() + " AS u ON ... u.segment");
        }
        return joined(name.get(1), alias, type, aliases, j, t.start, t.tableAlias().start);
    }

    /** The join of the table {@code path} as {@code alias}, its condition that of {@code j} (as {@link #table}); {@code at} where it is named. */
    private Join joined(String path, String alias, String type, Set<String> aliases, JoinRelationContext j, Token at, Token aliasAt) {
        if (!aliases.add(alias.toLowerCase(Locale.ROOT))) {
            throw refused(aliasAt, "the alias '" + alias + "' given twice", "give each table an alias of its own");
        }
        if (j == null || j.joinCriteria() == null) { // every row of the table joins each row, as Spark's cross join
            return new Join(path, alias, type, new Part("true", at.getLine(), at.getCharPositionInLine() + 1));
        }
        if (j.joinCriteria() instanceof JoinOnContext o) {
            return new Join(path, alias, type, part(o.expression()));
        }
        JoinUsingContext u = (JoinUsingContext) j.joinCriteria();
        List<String> using = u.identifier().stream().map(AstBuilder::name).toList();
        String condition = using.stream().map(c -> quoted(c) + " = " + quoted(alias) + "." + quoted(c)).collect(Collectors.joining(" AND "));
        return new Join(path, alias, type, new Part(condition, u.start.getLine(), u.start.getCharPositionInLine() + 1), using);
    }

    /** Whether {@code r} names a table of {@code parts} parts, the first {@code first}: {@code source}, {@code delta.`path`}. */
    private static boolean isTable(RelationPrimaryContext r, int parts, String first) {
        return r instanceof TableNameContext t && names(t).size() == parts && names(t).get(0).equalsIgnoreCase(first);
    }

    private static List<String> names(TableNameContext t) {
        return t.qualifiedName().identifier().stream().map(AstBuilder::name).toList();
    }

    static String alias(TableAliasContext a) {
        if (a.identifier() != null) {
            return AstBuilder.name(a.identifier());
        }
        if (a.strictIdentifier() == null) {
            return null;
        }
        return unquoted(a.strictIdentifier().getText());
    }

    private static String unquoted(String t) {
        return t.startsWith("`") ? t.substring(1, t.length() - 1).replace("``", "`") : t;
    }

    private static String quoted(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    private RuntimeException unknownTable(TableNameContext t) {
        return refused(t.start, "the table " + t.qualifiedName().getText(), "a query reads the pipeline's source, named source,"
                + " and joins Delta tables by path or URI, delta.`../dims/users`");
    }

    /** Whether {@code tree} names the table {@code source}. */
    private static boolean readsSource(ParseTree tree) {
        if (tree instanceof TableNameContext t && names(t).size() == 1 && names(t).get(0).equalsIgnoreCase(SOURCE)) {
            return true;
        }
        for (int i = 0; i < tree.getChildCount(); i++) {
            if (readsSource(tree.getChild(i))) {
                return true;
            }
        }
        return false;
    }

    /** The Delta table and alias of an EXISTS subquery's FROM ({@code delta.`path` u}), or null for any other table. */
    private String[] existsTable(QuerySpecificationContext q, Set<String> aliases) {
        if (!(q.relation(0).relationPrimary() instanceof TableNameContext t) || names(t).size() != 2 || !names(t).get(0).equalsIgnoreCase("delta")) {
            return null;
        }
        String alias = alias(t.tableAlias()) != null ? alias(t.tableAlias()) : "subquery " + aliases.size(); // IN's: no columns of its own
        if (!aliases.add(alias.toLowerCase(Locale.ROOT))) {
            throw refused(t.tableAlias().start, "the alias '" + alias + "' given twice", "give each table an alias of its own");
        }
        return new String[] {names(t).get(1), alias};
    }

    /**
     * A table function of FROM ({@code , LATERAL explode(tags) AS t(tag)}) as the lateral view that makes its rows, the text
     * {@code LATERAL explode(tags) t AS tag} (without VIEW: a table function), {@code join} ({@code LEFT }) before the call and
     * {@code on} after it; named by the function without an alias.
     */
    private Part tableFunction(FunctionTableContext f, boolean lateral, String join, Part on) {
        String call = sql.substring(f.generator.start.getStartIndex(), f.RPAREN().getSymbol().getStopIndex() + 1);
        String name = f.tblName == null ? "`" + f.generator.getText() + "`" : sql.substring(f.tblName.start.getStartIndex(),
                f.tblName.stop.getStopIndex() + 1);
        String columns = f.identifierList() == null ? "" : " AS " + f.identifierList().identifier().stream()
                .map(i -> sql.substring(i.start.getStartIndex(), i.stop.getStopIndex() + 1)).collect(Collectors.joining(", "));
        Token at = ((ParserRuleContext) f.getParent()).start;
        return new Part((lateral ? "LATERAL " : "") + join + call + " " + name + columns + (on == null ? "" : " ON " + on.text()),
                at.getLine(), at.getCharPositionInLine() + 1);
    }

    /**
     * A table function joined, {@code [INNER | CROSS | LEFT [OUTER]] JOIN LATERAL explode(s.tags) t [ON condition]}: Spark's lateral
     * join, of these three types, without USING; a LEFT one keeps a row its function keeps no row of, with nulls.
     */
    private Part lateralJoin(JoinRelationContext j) {
        JoinTypeContext t = j.joinType();
        String kind = SqlJoinTypes.has(t, SparkExprLexer.SEMI) ? "LEFT SEMI" : SqlJoinTypes.has(t, SparkExprLexer.ANTI) ? "LEFT ANTI"
                : SqlJoinTypes.has(t, SparkExprLexer.RIGHT) ? "RIGHT OUTER" : SqlJoinTypes.has(t, SparkExprLexer.FULL) ? "FULL OUTER" : null;
        if (j.natural != null) {
            throw refused(j.natural, "NATURAL JOIN LATERAL", "[INCOMPATIBLE_JOIN_TYPES] Spark refuses NATURAL with LATERAL; give the"
                    + " condition with ON, or join the function after a comma: FROM source s, LATERAL " + j.function.generator.getText()
                    + "(...) t");
        }
        if (kind != null) {
            throw refused(j.start, kind + " JOIN LATERAL", "[INVALID_LATERAL_JOIN_TYPE] a table function is joined by JOIN LATERAL"
                    + " (INNER or CROSS) or LEFT [OUTER] JOIN LATERAL");
        }
        if (j.joinCriteria() instanceof JoinUsingContext u) {
            throw refused(u.start, "USING with JOIN LATERAL", "[UNSUPPORTED_FEATURE.LATERAL_JOIN_USING] give the condition with ON: JOIN"
                    + " LATERAL " + j.function.generator.getText() + "(...) t ON ...");
        }
        Part on = j.joinCriteria() == null ? null : part(((JoinOnContext) j.joinCriteria()).expression());
        return tableFunction(j.function, j.lateral != null, SqlJoinTypes.has(t, SparkExprLexer.LEFT) ? "LEFT " : "", on);
    }

    Part part(ParserRuleContext ctx) {
        return new Part(sql.substring(ctx.start.getStartIndex(), ctx.stop.getStopIndex() + 1), ctx.start.getLine(),
                ctx.start.getCharPositionInLine() + 1);
    }

    /** The word before the first FROM of a query without a FROM clause, and that FROM: a keyword the parser took as a name. */
    private static Token[] fromAsAName(QuerySpecificationContext s) {
        List<Token> words = new ArrayList<>();
        terminals(s, words);
        for (int i = 1; i < words.size(); i++) {
            if (words.get(i).getType() == SparkExprLexer.FROM) {
                return new Token[] {words.get(i - 1), words.get(i)};
            }
        }
        return null;
    }

    private static void terminals(ParseTree t, List<Token> out) {
        if (t instanceof TerminalNode n) {
            out.add(n.getSymbol());
            return;
        }
        for (int i = 0; i < t.getChildCount(); i++) {
            terminals(t.getChild(i), out);
        }
    }

    private static RuntimeException refused(Token at, String construct, String instead) {
        return ExpressionErrors.sqlUnsupported(construct, at.getLine(), at.getCharPositionInLine() + 1, instead);
    }
}
