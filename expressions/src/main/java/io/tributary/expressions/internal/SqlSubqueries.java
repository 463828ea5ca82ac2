package io.tributary.expressions.internal;

import io.tributary.expressions.SqlQuery.Join;
import io.tributary.expressions.SqlQuery.Part;
import io.tributary.expressions.internal.SparkExprParser.BooleanExpressionContext;
import io.tributary.expressions.internal.SparkExprParser.ColumnReferenceContext;
import io.tributary.expressions.internal.SparkExprParser.DereferenceContext;
import io.tributary.expressions.internal.SparkExprParser.PredicatedContext;
import io.tributary.expressions.internal.SparkExprParser.SqlSelectExpressionContext;
import io.tributary.expressions.internal.SparkExprParser.ExistsContext;
import io.tributary.expressions.internal.SparkExprParser.InSubqueryContext;
import io.tributary.expressions.internal.SparkExprParser.LogicalAndContext;
import io.tributary.expressions.internal.SparkExprParser.LogicalNotContext;
import io.tributary.expressions.internal.SparkExprParser.PlainQueryContext;
import io.tributary.expressions.internal.SparkExprParser.QueryContext;
import io.tributary.expressions.internal.SparkExprParser.QuerySpecificationContext;
import io.tributary.expressions.internal.SparkExprParser.SubqueryExpressionContext;
import io.tributary.expressions.internal.SparkExprParser.TableNameContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.tree.ParseTree;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * The subqueries of a query's WHERE that are joins Spark plans them as: a conjunct {@code EXISTS (SELECT ... FROM delta.`path` u
 * [WHERE cond])} is a left semi join of the table on {@code cond} ({@code true} without one), {@code NOT EXISTS (...)} a left anti
 * join, {@code x IN (SELECT u.col FROM delta.`path` u [WHERE cond])} a left semi join on {@code x = u.col [AND cond]},
 * {@code x NOT IN (...)} a null-aware left anti join ({@link #in}); the other conjuncts stay WHERE. Any other subquery is left to
 * {@link #first} (refused).
 */
final class SqlSubqueries {
    /** The joins the EXISTS conjuncts make, the EXISTS nodes taken, and WHERE without them (null when none is left). */
    record Split(List<Join> joins, Set<ParseTree> taken, Part where) {
    }

    private SqlSubqueries() {
    }

    /** {@code where} split; {@code part} gives a node's text and place, {@code table} a subquery's Delta table ([path, alias]) or null. */
    static Split of(BooleanExpressionContext where, Function<ParserRuleContext, Part> part,
            Function<QuerySpecificationContext, String[]> table) {
        List<BooleanExpressionContext> conjuncts = new ArrayList<>();
        conjuncts(where, conjuncts);
        List<Join> joins = new ArrayList<>();
        List<ParseTree> taken = new ArrayList<>();
        List<Part> rest = new ArrayList<>();
        for (BooleanExpressionContext c : conjuncts) {
            Join in = in(c, part, table);
            if (in != null) {
                joins.add(in);
                taken.add(((PredicatedContext) c).predicate());
                continue;
            }
            boolean not = c instanceof LogicalNotContext;
            ExistsContext exists = only(not ? ((LogicalNotContext) c).booleanExpression() : c);
            QuerySpecificationContext spec = exists == null ? null : plain(exists.query());
            boolean aliased = spec != null && ((TableNameContext) spec.relation(0).relationPrimary()).tableAlias().getChildCount() > 0;
            String[] t = spec == null || !aliased ? null : table.apply(spec);
            if (t == null) {
                rest.add(part.apply(c));
                continue;
            }
            Part on = spec.where == null ? new Part("true", exists.start.getLine(), exists.start.getCharPositionInLine() + 1) : part.apply(spec.where);
            joins.add(new Join(t[0], t[1], not ? "left_anti" : "left_semi", on));
            taken.add(exists);
        }
        if (joins.isEmpty()) {
            return new Split(List.of(), Set.of(), part.apply(where)); // WHERE as written
        }
        Part left = rest.isEmpty() ? null : rest.size() == 1 ? rest.get(0) : new Part(String.join(" AND ",
                rest.stream().map(p -> "(" + p.text() + ")").toList()), rest.get(0).line(), rest.get(0).column());
        return new Split(joins, Set.copyOf(taken), left);
    }

    /**
     * {@code x IN (SELECT v FROM delta.`t` u [WHERE cond])} as a left semi join on {@code x = v [AND cond]}; {@code x NOT IN (...)}
     * as Spark's null-aware left anti join, on {@code (x = v OR (x = v) IS NULL) [AND cond]}: a NULL among the values keeps no row,
     * a NULL x is kept only when the subquery gives no row. {@code v} is a column or an expression of the table's columns,
     * qualified; else null.
     */
    private static Join in(BooleanExpressionContext c, Function<ParserRuleContext, Part> part, Function<QuerySpecificationContext, String[]> table) {
        if (!(c instanceof PredicatedContext p) || !(p.predicate() instanceof InSubqueryContext in)) {
            return null;
        }
        QuerySpecificationContext spec = plain(in.query());
        if (spec == null || spec.sqlSelectItem().size() != 1 || !(spec.sqlSelectItem(0) instanceof SqlSelectExpressionContext item)) {
            return null;
        }
        ParseTree e = item.expression();
        while (e.getChildCount() == 1 && !(e instanceof ColumnReferenceContext) && !(e instanceof DereferenceContext)) {
            e = e.getChild(0);
        }
        String column = e instanceof ColumnReferenceContext r ? AstBuilder.name(r.identifier())
                : e instanceof DereferenceContext d && d.base instanceof ColumnReferenceContext ? AstBuilder.name(d.fieldName.identifier()) : null;
        String[] t = column != null || qualified(item.expression()) ? table.apply(spec) : null;
        if (t == null || !(e instanceof ColumnReferenceContext) && !ofAlias(item.expression(), t[1])) {
            return null;
        }
        String value = column != null ? "`" + t[1].replace("`", "``") + "`.`" + column.replace("`", "``") + "`"
                : "(" + part.apply(item.expression()).text() + ")";
        Part x = part.apply(p.valueExpression());
        String equal = "(" + x.text() + ") = " + value;
        String on = (in.NOT() == null ? equal : "(" + equal + " OR (" + equal + ") IS NULL)")
                + (spec.where == null ? "" : " AND (" + part.apply(spec.where).text() + ")");
        return new Join(t[0], t[1], in.NOT() == null ? "left_semi" : "left_anti", new Part(on, x.line(), x.column()));
    }

    /** Whether every column {@code tree} names is {@code alias.column}. */
    private static boolean ofAlias(ParseTree tree, String alias) {
        if (tree instanceof DereferenceContext d && d.base instanceof ColumnReferenceContext r) {
            return AstBuilder.name(r.identifier()).equalsIgnoreCase(alias);
        }
        for (int i = 0; i < tree.getChildCount(); i++) {
            if (tree.getChild(i) instanceof ColumnReferenceContext || !ofAlias(tree.getChild(i), alias)) {
                return false;
            }
        }
        return true;
    }

    private static void conjuncts(BooleanExpressionContext e, List<BooleanExpressionContext> out) {
        if (e instanceof LogicalAndContext and) {
            conjuncts(and.left, out);
            conjuncts(and.right, out);
        } else {
            out.add(e);
        }
    }

    /** The EXISTS that is all of {@code e} (through rules of one child), or null. */
    private static ExistsContext only(ParseTree e) {
        while (!(e instanceof ExistsContext)) {
            if (!(e instanceof ParserRuleContext) || e.getChildCount() != 1) {
                return null;
            }
            e = e.getChild(0);
        }
        return (ExistsContext) e;
    }

    /** Whether every column {@code tree} names is qualified ({@code u.user}): a bare one is the table's in Spark, the stream's here. */
    private static boolean qualified(ParseTree tree) {
        if (tree instanceof ColumnReferenceContext && !(tree.getParent() instanceof DereferenceContext)) {
            return false;
        }
        for (int i = 0; i < tree.getChildCount(); i++) {
            if (!qualified(tree.getChild(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The subquery's one SELECT when it is {@code SELECT ... FROM table alias [WHERE ...]} and nothing more, its WHERE's columns
     * qualified, else null.
     */
    private static QuerySpecificationContext plain(QueryContext q) {
        if (q.withClause() != null || !q.setOperator().isEmpty() || q.queryOrganization().getChildCount() > 0
                || !(q.queryTerm(0) instanceof PlainQueryContext p)) {
            return null;
        }
        QuerySpecificationContext s = p.querySpecification();
        return s.relation().size() == 1 && s.relation(0).joinRelation().isEmpty() && s.lateralView().isEmpty() && s.tableFunction().isEmpty()
                && s.group == null && s.having == null && s.quantifier == null && s.relation(0).relationPrimary() instanceof TableNameContext
                && first(s, Set.of()) == null && (s.where == null || qualified(s.where)) ? s : null;
    }

    /** The first subquery under {@code tree} (in the select list, WHERE, or ON) but those {@code taken}, by position; null when none. */
    static ParserRuleContext first(ParseTree tree, Set<ParseTree> taken) {
        if (taken.contains(tree)) {
            return null;
        }
        if (tree instanceof SubqueryExpressionContext || tree instanceof ExistsContext || tree instanceof InSubqueryContext) {
            return (ParserRuleContext) tree;
        }
        if (tree instanceof TerminalNode || tree instanceof SparkExprParser.AliasedQueryContext) { // a view in FROM: its own query's
            return null;
        }
        for (int i = 0; i < tree.getChildCount(); i++) {
            ParserRuleContext found = first(tree.getChild(i), taken);
            if (found != null) {
                return found;
            }
        }
        return null;
    }
}
