package io.tributary.expressions.internal;

import io.tributary.expressions.ExpressionErrors;
import io.tributary.expressions.internal.SparkExprParser.SelectAllContext;
import io.tributary.expressions.internal.SparkExprParser.SelectAllOfContext;
import io.tributary.expressions.internal.SparkExprParser.SelectExpressionContext;
import io.tributary.expressions.internal.SparkExprParser.NamedItemContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;

/** Parses Spark SQL expressions and select items with the {@code SparkExpr} grammar; a syntax error names the position. */
public final class Parsing {
    private Parsing() {
    }

    /** A select item: {@code *} (all columns, {@code star} true), {@code t.*}, or an expression with an optional alias. */
    public record SelectItem(boolean star, List<String> qualifier, Node expression, String alias, List<String> aliases) {
    }

    /**
     * A lateral view as written after FROM: {@code LATERAL VIEW [OUTER] explode(tags) t AS tag}, or a table function of FROM as a
     * query translates it ({@code [LATERAL] [LEFT] explode(tags) t AS tag [ON condition]}: without VIEW).
     *
     * @param generator     the call, its name the generator's
     * @param outer         a LATERAL VIEW's OUTER
     * @param columns       the column aliases, empty for the generator's own names
     * @param tableFunction whether it is a table function of FROM, not a LATERAL VIEW
     * @param lateral       whether its arguments may read the row's columns (LATERAL); a LATERAL VIEW's always may
     * @param leftJoin      a LEFT OUTER JOIN LATERAL: a row the function (and {@code on}) keeps none of is kept, with nulls
     * @param on            the text of the join's condition over the row and the function's columns, or null
     */
    public record LateralView(Node.Call generator, boolean outer, String table, List<String> columns, boolean tableFunction,
            boolean lateral, boolean leftJoin, String on) {
    }

    public static Node expression(String text) {
        return expression(text, null);
    }

    /**
     * An expression in which {@code alias.column} (the input's alias in a query's FROM, {@code s.amt}) names the input's
     * column {@code column}, as Spark resolves a qualified name; null for none.
     */
    public static Node expression(String text, String alias) {
        return expression(text, alias, Map.of());
    }

    /** As {@link #expression(String, String)}, where {@code view.column} names a column of the lateral view {@code view} ({@code views}' key, lower case). */
    public static Node expression(String text, String alias, Map<String, List<String>> views) {
        SparkExprParser p = parser(text);
        return new AstBuilder(text, alias, false, views).visit(p.singleExpression());
    }

    /**
     * A predicate over an aggregation's output ({@code HAVING}), in which aggregate calls may appear: {@code count(*)} is a
     * call whose one argument is the column {@code *}; {@code alias.column} as in {@link #expression(String, String)}.
     */
    static Node havingExpression(String text, String alias) {
        SparkExprParser p = parser(text);
        return new AstBuilder(text, alias, true, Map.of()).visit(p.singleExpression());
    }

    public static SelectItem selectItem(String text) {
        return selectItem(text, null);
    }

    /** A select item in which {@code alias.column} names the input's column, as in {@link #expression(String, String)}. */
    public static SelectItem selectItem(String text, String alias) {
        return selectItem(text, alias, false, Map.of());
    }

    /** A select item in which {@code view.column} names a lateral view's column, as in {@link #expression(String, String, Map)}. */
    public static SelectItem selectItem(String text, String alias, Map<String, List<String>> views) {
        return selectItem(text, alias, false, views);
    }

    /** A select item over an aggregation's rows: aggregate calls ({@code count(*)}) are read, as in HAVING. */
    public static SelectItem aggregatedSelectItem(String text) {
        return selectItem(text, null, true, Map.of());
    }

    private static SelectItem selectItem(String text, String alias, boolean aggregates, Map<String, List<String>> views) {
        SparkExprParser p = parser(text);
        NamedItemContext item = p.selectItem().namedItem();
        if (item instanceof SelectAllContext) {
            return new SelectItem(true, List.of(), null, null, List.of());
        }
        if (item instanceof SelectAllOfContext of) {
            return new SelectItem(true, of.qualifiedName().identifier().stream().map(AstBuilder::name).toList(), null, null, List.of());
        }
        SelectExpressionContext e = (SelectExpressionContext) item;
        Node node = new AstBuilder(text, alias, aggregates, views).visit(e.expression());
        List<String> aliases = e.identifierList() == null ? List.of()
                : e.identifierList().identifier().stream().map(AstBuilder::name).toList();
        return new SelectItem(false, List.of(), node, e.alias == null ? null : AstBuilder.name(e.alias), aliases);
    }

    /**
     * A lateral view's text, {@code LATERAL VIEW [OUTER] generator(args) table [AS] columns}, in which {@code alias.column} and
     * {@code view.column} of the views before it ({@code views}) are as above.
     */
    public static LateralView lateralView(String text, String alias, Map<String, List<String>> views) {
        SparkExprParser.LateralViewItemContext item = parser(text).lateralViewItem();
        AstBuilder b = new AstBuilder(text, alias, false, views);
        SparkExprParser.TableFunctionItemContext f = item.tableFunctionItem();
        if (f != null) {
            Node.Call call = call(text, f.generator, f.expression().subList(0, f.on == null ? f.expression().size()
                    : f.expression().size() - 1).stream().map(b::visit).toList(), f.RPAREN().getSymbol());
            String on = f.on == null ? null : text.substring(f.on.start.getStartIndex(), f.on.stop.getStopIndex() + 1);
            return new LateralView(call, false, AstBuilder.name(f.tblName), f.colName.stream().map(AstBuilder::name).toList(), true,
                    f.lateral != null, f.left != null, on);
        }
        SparkExprParser.LateralViewContext v = item.lateralView();
        Node.Call call = call(text, v.generator, v.expression().stream().map(b::visit).toList(), v.RPAREN().getSymbol());
        return new LateralView(call, v.OUTER() != null, AstBuilder.name(v.tblName), v.colName.stream().map(AstBuilder::name).toList(),
                v.VIEW() == null, true, false, null);
    }

    private static Node.Call call(String text, SparkExprParser.FunctionNameContext generator, List<Node> args, Token rparen) {
        String name = generator.getText().toLowerCase(java.util.Locale.ROOT);
        int start = generator.start.getStartIndex();
        return new Node.Call(name, args, text.substring(start, rparen.getStopIndex() + 1), start + 1);
    }

    /** The items of a comma-separated select list, each as written: {@code "*, lower(a) AS b"} is {@code "*"} and {@code "lower(a) AS b"}. */
    public static List<String> selectList(String text) {
        List<String> items = new ArrayList<>();
        for (NamedItemContext item : parser(text).selectList().namedItem()) {
            items.add(text.substring(item.start.getStartIndex(), item.stop.getStopIndex() + 1));
        }
        return items;
    }

    /**
     * An aggregate's function name and the texts of its arguments ({@code *} for count(*)), a call written with {@code WITHIN GROUP}
     * in {@link OrderedSetCalls}' form; a text that is no such call is refused.
     */
    public static String[] aggregateCall(String text) {
        SparkExprParser.AggregateCallContext call = parser(text).aggregateCall();
        if (call.ASTERISK() != null) {
            return new String[] {call.functionName().getText(), "*"};
        }
        List<String> args = new ArrayList<>();
        for (SparkExprParser.ExpressionContext e : call.expression()) {
            args.add(text(text, e));
        }
        boolean joins = OrderedSetCalls.JOINS.contains(call.functionName().getText().toLowerCase(java.util.Locale.ROOT));
        SparkExprParser.WithinGroupContext within = call.withinGroup();
        if (within != null && joins) { // listagg(x, ',') WITHIN GROUP (ORDER BY k DESC): [x, ",", k, "WITHIN GROUP DESC NULLS LAST"]
            for (SparkExprParser.SortItemContext item : within.sortItem()) {
                args.add(text(text, item.expression()));
                args.add(OrderedSetCalls.ordering(item.DESC() != null, item.NULLS() == null ? null : item.FIRST() != null));
            }
        } else if (within != null) { // percentile_cont(p) WITHIN GROUP (ORDER BY x DESC): [x, p, "WITHIN GROUP DESC"]
            if (within.sortItem().size() > 1) {
                throw ExpressionErrors.unsupported(text, 1, "WITHIN GROUP of more than one key after " + call.functionName().getText());
            }
            SparkExprParser.SortItemContext item = within.sortItem(0);
            args = OrderedSetCalls.withinGroup(text(text, item.expression()), item.DESC() != null, args);
        }
        List<String> parts = new ArrayList<>();
        parts.add(call.functionName().getText());
        parts.addAll(args);
        return parts.toArray(String[]::new);
    }

    private static String text(String text, org.antlr.v4.runtime.ParserRuleContext e) {
        return text.substring(e.start.getStartIndex(), e.stop.getStopIndex() + 1);
    }

    /** The parse tree of an expression's text, whose column references a view's reader rewrites in place ({@link ViewColumns}). */
    static SparkExprParser.SingleExpressionContext expressionTree(String text) {
        return parser(text).singleExpression();
    }

    /** The parse tree of a select item's text, as {@link #expressionTree}. */
    static NamedItemContext selectItemTree(String text) {
        return parser(text).selectItem().namedItem();
    }

    /** The parse tree of a lateral view's or table function's text as a query's translation writes it, as {@link #expressionTree}. */
    static SparkExprParser.LateralViewItemContext lateralViewTree(String text) {
        return parser(text).lateralViewItem();
    }

    /** A whole query ({@code sql:}); a syntax error names the query's line and column. */
    static SparkExprParser.SqlStatementContext query(String text) {
        return parser(text, (line, column, near, msg) -> ExpressionErrors.sqlSyntax(line, column, near, msg)).sqlStatement();
    }

    private interface SyntaxError {
        RuntimeException at(int line, int column, String near, String detail);
    }

    private static SparkExprParser parser(String text) {
        return parser(text, (line, column, near, msg) -> ExpressionErrors.syntax(text, line, column, near, msg));
    }

    private static SparkExprParser parser(String text, SyntaxError error) {
        BaseErrorListener errors = new BaseErrorListener() {
            @Override
            public void syntaxError(Recognizer<?, ?> recognizer, Object offending, int line, int column, String msg, RecognitionException e) {
                String near = offending instanceof Token t ? (t.getType() == Token.EOF ? "the end" : "'" + t.getText() + "'") : "here";
                throw error.at(line, column + 1, near, msg);
            }
        };
        SparkExprLexer lexer = new SparkExprLexer(CharStreams.fromString(text));
        lexer.removeErrorListeners();
        lexer.addErrorListener(errors);
        SparkExprParser parser = new SparkExprParser(new CommonTokenStream(lexer));
        parser.removeErrorListeners();
        parser.addErrorListener(errors);
        return parser;
    }
}
