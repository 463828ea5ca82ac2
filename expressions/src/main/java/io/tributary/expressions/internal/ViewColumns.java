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
    private final Map<String, Map<String, String>> renamed = new HashMap<>();
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
        for (String text : select) {
            NamedItemContext item = Parsing.selectItemTree(text);
            if (!(item instanceof SelectExpressionContext e)) {
                v.star = true; // * or s.*: the columns it passes through are read as they are
                continue;
            }
            String expression = text.substring(e.expression().start.getStartIndex(), e.expression().stop.getStopIndex() + 1);
            if (e.identifierList() != null) {
                e.identifierList().identifier().forEach(i -> v.add(AstBuilder.name(i), GENERATOR));
                continue;
            }
            Node n = Parsing.havingExpression(expression, null);
            boolean generator = n instanceof Node.Call c && Generator.isGenerator(c.name());
            String name = e.alias != null ? AstBuilder.name(e.alias) : n instanceof Node.Column c ? c.names().get(c.names().size() - 1) : null;
            if (name != null) {
                v.add(name, generator ? GENERATOR : expression);
            }
        }
        return v;
    }

    /**
     * Names the column {@code column} of the reader's lateral view {@code table} {@code name} instead, in the view's text and
     * wherever the reader names it: the view's input may have a column of its name, which the view hid.
     */
    ViewColumns renaming(String table, String column, String name) {
        renamed.computeIfAbsent(table.toLowerCase(Locale.ROOT), k -> new HashMap<>()).put(column.toLowerCase(Locale.ROOT), name);
        return this;
    }

    /** A Delta table's filter pushed into a join's ON: every column of the table ({@code lim}, {@code d.lim}) as {@code alias.lim}. */
    static ViewColumns requalifying(String tableAlias, String joinAlias) {
        ViewColumns v = new ViewColumns(tableAlias, Set.of(), Set.of());
        v.requalify = joinAlias;
        return v;
    }

    /** A column of the view; one name given to two expressions is ambiguous, one column selected twice ({@code id, id}) is not. */
    private void add(String name, String expression) {
        List<String> same = columns.computeIfAbsent(name.toLowerCase(Locale.ROOT), k -> new ArrayList<>());
        if (!same.contains(expression)) {
            same.add(expression);
        }
    }

    /** The expression {@code at} rewritten over the view's input. */
    String expression(Part at) {
        return rewrite(at, Parsing.expressionTree(at.text()).expression());
    }

    /** The lateral view or table function {@code at} (as the translation writes it) rewritten over the view's input. */
    String lateralView(Part at) {
        SparkExprParser.LateralViewItemContext item = Parsing.lateralViewTree(at.text());
        var f = item.tableFunctionItem();
        String table = AstBuilder.name(f != null ? f.tblName : item.lateralView().tblName).toLowerCase(Locale.ROOT);
        List<Replacement> names = new ArrayList<>();
        for (var c : f != null ? f.colName : item.lateralView().colName) {
            String name = renamed.getOrDefault(table, Map.of()).get(AstBuilder.name(c).toLowerCase(Locale.ROOT));
            if (name != null) {
                names.add(new Replacement(c.start.getStartIndex(), c.stop.getStopIndex(), quoted(name)));
            }
        }
        return rewrite(at, item, names);
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
                && Parsing.havingExpression(expression, null) instanceof Node.Column c) {
            rest = " AS " + quoted(c.names().get(c.names().size() - 1));
        }
        return rewritten + rest;
    }

    private record Replacement(int start, int stop, String text) {
    }

    private String rewrite(Part at, ParserRuleContext tree) {
        return rewrite(at, tree, List.of());
    }

    private String rewrite(Part at, ParserRuleContext tree, List<Replacement> also) {
        List<Replacement> out = new ArrayList<>(also);
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
        if (n instanceof DereferenceContext d && d.base instanceof ColumnReferenceContext r && renamed(r, d.fieldName.getText()) != null) {
            out.add(new Replacement(d.start.getStartIndex(), d.stop.getStopIndex(), r.getText() + "." + renamed(r, d.fieldName.getText())));
            return;
        }
        if (n instanceof ColumnReferenceContext r) {
            String name = AstBuilder.name(r.identifier());
            String key = name.toLowerCase(Locale.ROOT);
            boolean qualifier = r.getParent() instanceof DereferenceContext d && d.base == r;
            if (lambdas.contains(key) || qualifier && tables.contains(key)) {
                return;
            }
            if (shadowing.contains(key)) {
                renamed.values().stream().filter(m -> m.containsKey(key)).findFirst()
                        .ifPresent(m -> out.add(new Replacement(r.start.getStartIndex(), r.stop.getStopIndex(), quoted(m.get(key)))));
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

    /** The new name of the lateral view's column {@code table.field}, quoted, or null. */
    private String renamed(ColumnReferenceContext table, String field) {
        Map<String, String> columns = renamed.get(AstBuilder.name(table.identifier()).toLowerCase(Locale.ROOT));
        String name = columns == null ? null : columns.get(unquoted(field).toLowerCase(Locale.ROOT));
        return name == null ? null : quoted(name);
    }

    private static String unquoted(String t) {
        return t.startsWith("`") ? t.substring(1, t.length() - 1).replace("``", "`") : t;
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
        if (found != null && Parsing.havingExpression(found.get(0), null) instanceof Node.Column c) { // a column of the view's input, as it is
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
