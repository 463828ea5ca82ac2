package io.tributary.expressions.internal;

import io.tributary.expressions.ExpressionErrors;
import io.tributary.expressions.SqlQuery.Part;
import io.tributary.expressions.internal.SparkExprParser.ColumnReferenceContext;
import io.tributary.expressions.internal.SparkExprParser.DereferenceContext;
import io.tributary.expressions.internal.SparkExprParser.LambdaContext;
import io.tributary.expressions.internal.SparkExprParser.NamedItemContext;
import io.tributary.expressions.internal.SparkExprParser.SelectExpressionContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.tree.ParseTree;

/**
 * The columns a view (a common table expression or a subquery in FROM) gives the query that reads it, and that query's texts
 * rewritten over the view's own input, as Spark's optimizer merges the two projections: a reference to a column the view
 * computes ({@code t.day} or {@code day}, of {@code to_date(ts) AS day}) becomes that expression, parenthesized; a column the
 * view passes through with {@code *} stays as it is. The rewriting works on the parse tree: only column references are
 * replaced, never a lambda's variable, a struct's field, a joined table's or lateral view's column, or the text of a literal.
 */
final class ViewColumns {
    private static final String GENERATOR = "";

    private final String view;
    private final Map<String, List<String>> columns = new HashMap<>();
    private final Set<String> tables;
    private final Set<String> shadowing;
    private boolean star;
    private boolean open;
    private String requalify;

    private ViewColumns(String view, Set<String> tables, Set<String> shadowing) {
        this.view = view == null ? null : view.toLowerCase(Locale.ROOT);
        this.tables = tables;
        this.shadowing = shadowing;
    }

    /**
     * The view {@code view} (its alias in the reader) whose select list is {@code select}; the reader also names the tables
     * {@code tables} (joins' aliases, lateral views' names, lower case) and the lateral views' columns {@code shadowing}; with
     * {@code open} a bare name the view does not give may be a joined table's column, else it is refused.
     */
    static ViewColumns over(String view, List<String> select, Set<String> tables, Set<String> shadowing, boolean open) {
        ViewColumns v = new ViewColumns(view, tables, shadowing);
        v.open = open;
        boolean all = false;
        List<String> plain = new ArrayList<>(); // columns of the input selected as they are, which a bare * gives again
        for (String text : select) {
            NamedItemContext item = Parsing.selectItemTree(text);
            if (!(item instanceof SelectExpressionContext e)) {
                v.star = true; // * or s.*: the columns it passes through are read as they are
                all |= item instanceof SparkExprParser.SelectAllContext;
                continue;
            }
            String expression = text.substring(e.expression().start.getStartIndex(), e.expression().stop.getStopIndex() + 1);
            if (e.identifierList() != null) {
                e.identifierList().identifier().forEach(i -> v.add(AstBuilder.name(i), GENERATOR));
                continue;
            }
            Node n = Parsing.expression(expression);
            boolean generator = n instanceof Node.Call c && Generator.isGenerator(c.name());
            String name = e.alias != null ? AstBuilder.name(e.alias) : n instanceof Node.Column c ? c.names().get(c.names().size() - 1) : null;
            if (name != null) {
                v.add(name, generator ? GENERATOR : expression);
            }
            if (e.alias == null && n instanceof Node.Column) {
                plain.add(name);
            }
        }
        if (all) {
            plain.forEach(name -> v.add(name, name));
        }
        return v;
    }

    /** A Delta table's filter pushed into a join's ON: every column of the table ({@code lim}, {@code d.lim}) as {@code alias.lim}. */
    static ViewColumns requalifying(String tableAlias, String joinAlias) {
        ViewColumns v = new ViewColumns(tableAlias, Set.of(), Set.of());
        v.requalify = joinAlias;
        return v;
    }

    private void add(String name, String expression) {
        columns.computeIfAbsent(name.toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(expression);
    }

    /** The expression {@code at} rewritten over the view's input. */
    String expression(Part at) {
        return rewrite(at, Parsing.expressionTree(at.text()).expression());
    }

    /** The lateral view or table function {@code at} (as the translation writes it) rewritten over the view's input. */
    String lateralView(Part at) {
        return rewrite(at, Parsing.lateralViewTree(at.text()));
    }

    /**
     * The select item {@code at} ({@code expr [AS] name}, not a {@code *}) rewritten over the view's input; a column it
     * selects without a name, that the view computes, keeps its name ({@code t.day} as {@code (to_date(ts)) AS `day`}).
     */
    String selectItem(Part at) {
        SelectExpressionContext e = (SelectExpressionContext) Parsing.selectItemTree(at.text());
        String text = at.text();
        String expression = text.substring(e.expression().start.getStartIndex(), e.expression().stop.getStopIndex() + 1);
        String rewritten = rewrite(new Part(expression, at.line(), at.column()), Parsing.expressionTree(expression).expression());
        String rest = text.substring(e.expression().stop.getStopIndex() + 1);
        if (e.alias == null && e.identifierList() == null && !rewritten.equals(expression)
                && Parsing.expression(expression) instanceof Node.Column c) {
            rest = " AS " + quoted(c.names().get(c.names().size() - 1));
        }
        return rewritten + rest;
    }

    private record Replacement(int start, int stop, String text) {
    }

    private String rewrite(Part at, ParserRuleContext tree) {
        List<Replacement> out = new ArrayList<>();
        walk(tree, Set.of(), out, at);
        out.sort(Comparator.comparingInt(Replacement::start).reversed());
        StringBuilder s = new StringBuilder(at.text());
        for (Replacement r : out) {
            s.replace(r.start(), r.stop() + 1, r.text());
        }
        return s.toString();
    }

    private void walk(ParseTree n, Set<String> lambdas, List<Replacement> out, Part at) {
        if (n instanceof LambdaContext l) {
            Set<String> inner = new HashSet<>(lambdas);
            l.params.forEach(p -> inner.add(AstBuilder.name(p).toLowerCase(Locale.ROOT)));
            walk(l.body, inner, out, at);
            return;
        }
        if (n instanceof DereferenceContext d && d.base instanceof ColumnReferenceContext r && isView(r, lambdas)) {
            String field = AstBuilder.name(d.fieldName.identifier());
            out.add(new Replacement(d.start.getStartIndex(), d.stop.getStopIndex(), requalify != null ? quoted(requalify) + "."
                    + quoted(field) : lookup(field, true, at, d.start.getStartIndex())));
            return;
        }
        if (n instanceof ColumnReferenceContext r) {
            String name = AstBuilder.name(r.identifier());
            String key = name.toLowerCase(Locale.ROOT);
            boolean qualifier = r.getParent() instanceof DereferenceContext d && d.base == r;
            if (lambdas.contains(key) || qualifier && tables.contains(key) || shadowing.contains(key)) {
                return;
            }
            String replaced = requalify != null ? quoted(requalify) + "." + quoted(name) : lookup(name, false, at, r.start.getStartIndex());
            if (replaced != null) {
                out.add(new Replacement(r.start.getStartIndex(), r.stop.getStopIndex(), replaced));
            }
            return;
        }
        for (int i = 0; i < n.getChildCount(); i++) {
            walk(n.getChild(i), lambdas, out, at);
        }
    }

    private boolean isView(ColumnReferenceContext r, Set<String> lambdas) {
        String key = AstBuilder.name(r.identifier()).toLowerCase(Locale.ROOT);
        return view != null && key.equals(view) && !lambdas.contains(key);
    }

    /** What a reference to the view's column {@code name} stands for; null to leave a bare name as it is. */
    private String lookup(String name, boolean qualified, Part at, int offset) {
        List<String> found = columns.get(name.toLowerCase(Locale.ROOT));
        if (found != null && found.size() > 1) {
            throw refused(at, offset, "the column " + quoted(name) + ", which the view " + quoted(view) + " gives twice",
                    "[AMBIGUOUS_REFERENCE] Spark refuses it too; give the view's columns names of their own");
        }
        if (found != null && found.get(0).equals(GENERATOR)) {
            throw refused(at, offset, "the column " + quoted(name) + " of a generator in the view's select list", "write the"
                    + " generator as a LATERAL VIEW of the view: FROM source, LATERAL explode(...) t");
        }
        if (found != null && Parsing.expression(found.get(0)) instanceof Node.Column c) { // a column of the view's input, as it is
            return !qualified && c.names().size() == 1 && c.names().get(0).equalsIgnoreCase(name) ? null : found.get(0);
        }
        if (found != null) {
            return "(" + found.get(0) + ")";
        }
        if (star) {
            return qualified ? quoted(name) : null;
        }
        if (!qualified && open) {
            return null;
        }
        throw refused(at, offset, "the column " + quoted(name) + ", which the view " + quoted(view) + " does not select",
                "[UNRESOLVED_COLUMN.WITH_SUGGESTION] Spark refuses it too; select it in the view, or name one of its columns");
    }

    private static RuntimeException refused(Part at, int offset, String construct, String instead) {
        String before = at.text().substring(0, Math.min(offset, at.text().length()));
        int breaks = (int) before.chars().filter(c -> c == '\n').count();
        int column = breaks == 0 ? at.column() + offset : offset - before.lastIndexOf('\n');
        return ExpressionErrors.sqlUnsupported(construct, at.line() + breaks, column, instead);
    }

    static String quoted(String name) {
        return "`" + name.replace("`", "``") + "`";
    }
}
