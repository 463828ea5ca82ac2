package io.tributary.expressions.internal;

import io.tributary.expressions.ExpressionErrors;
import io.tributary.expressions.internal.SparkExprParser.*;
import io.tributary.schema.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.misc.Interval;
import org.antlr.v4.runtime.tree.TerminalNode;

/** Builds the {@link Node} tree from ANTLR's parse tree; operators become calls of their SQL names. */
final class AstBuilder extends SparkExprBaseVisitor<Node> {
    private final String source;
    private final boolean starCalls; // count(*) is a call whose one argument is the column *, as HAVING may write it
    private final Qualifiers qualifiers; // the input's alias (s.amt) and the lateral views' names (t.tag) in a query

    AstBuilder(String source, String alias, boolean starCalls, Map<String, List<String>> views) {
        this.source = source;
        this.starCalls = starCalls;
        this.qualifiers = new Qualifiers(alias, views);
    }

    private String text(ParserRuleContext ctx) {
        boolean empty = ctx.stop == null || ctx.stop.getStopIndex() < ctx.start.getStartIndex();
        return empty ? ctx.getText() : ctx.start.getInputStream().getText(Interval.of(ctx.start.getStartIndex(), ctx.stop.getStopIndex()));
    }

    private static int pos(ParserRuleContext ctx) {
        return ctx.start.getStartIndex() + 1;
    }

    private Node call(String name, ParserRuleContext ctx, Node... args) {
        return new Node.Call(name, List.of(args), text(ctx), pos(ctx));
    }

    @Override
    public Node visitSingleExpression(SingleExpressionContext ctx) {
        return visit(ctx.expression());
    }

    @Override
    public Node visitLogicalNot(LogicalNotContext ctx) {
        return call("not", ctx, visit(ctx.booleanExpression()));
    }

    @Override
    public Node visitLogicalAnd(LogicalAndContext ctx) {
        return call("and", ctx, visit(ctx.left), visit(ctx.right));
    }

    @Override
    public Node visitLogicalOr(LogicalOrContext ctx) {
        return call("or", ctx, visit(ctx.left), visit(ctx.right));
    }

    @Override
    public Node visitPredicated(PredicatedContext ctx) {
        Node value = visit(ctx.valueExpression());
        PredicateContext p = ctx.predicate();
        if (p == null) {
            return value;
        }
        Node result;
        boolean not;
        if (p instanceof BetweenContext b) {
            // Spark rewrites BETWEEN to lower <= value AND value <= upper
            result = call("and", ctx, call(">=", ctx, value, visit(b.lower)), call("<=", ctx, value, visit(b.upper)));
            not = b.NOT() != null;
        } else if (p instanceof InSubqueryContext) {
            throw ExpressionErrors.unsupported(source, pos(p), "a subquery");
        } else if (p instanceof InListContext in) {
            List<Node> args = new ArrayList<>();
            args.add(value);
            in.expression().forEach(e -> args.add(visit(e)));
            result = new Node.Call("in", args, text(ctx), pos(ctx));
            not = in.NOT() != null;
        } else if (p instanceof LikeContext like) {
            String name = like.kind.getType() == SparkExprLexer.LIKE ? "like" : like.kind.getType() == SparkExprLexer.ILIKE ? "ilike" : "rlike";
            List<Node> args = new ArrayList<>(List.of(value, visit(like.pattern)));
            if (like.escape != null) {
                String e = Literals.unquote(like.escape.getText());
                args.add(new Node.Literal(e, DataType.STRING, like.escape.getText(), like.escape.getStartIndex() + 1));
            }
            result = new Node.Call(name, args, text(ctx), pos(ctx));
            not = like.NOT() != null;
        } else if (p instanceof LikeQuantifiedContext q) {
            return LikeFunctions.quantified(q, value, q.expression().stream().map(this::visit).toList(), text(ctx), pos(ctx));
        } else if (p instanceof IsNullContext n) {
            return call(n.NOT() != null ? "isnotnull" : "isnull", ctx, value);
        } else if (p instanceof IsBooleanContext ib) {
            Node lit = new Node.Literal(ib.value.getType() == SparkExprLexer.TRUE, DataType.BOOLEAN, ib.value.getText(), ib.value.getStartIndex() + 1);
            result = call("<=>", ctx, value, lit);
            not = ib.NOT() != null;
        } else {
            IsDistinctContext d = (IsDistinctContext) p;
            result = call("<=>", ctx, value, visit(d.right));
            not = d.NOT() == null;
        }
        return not ? call("not", ctx, result) : result;
    }

    @Override
    public Node visitPrimary(PrimaryContext ctx) {
        return visit(ctx.primaryExpression());
    }

    @Override
    public Node visitUnary(UnaryContext ctx) {
        Node child = visit(ctx.valueExpression());
        return switch (ctx.op.getType()) {
            case SparkExprLexer.MINUS -> call("negative", ctx, child);
            case SparkExprLexer.PLUS -> call("positive", ctx, child);
            default -> call("~", ctx, child);
        };
    }

    @Override
    public Node visitMultiplicative(MultiplicativeContext ctx) {
        return call(ctx.op.getText().toLowerCase(Locale.ROOT), ctx, visit(ctx.left), visit(ctx.right));
    }

    @Override
    public Node visitAdditive(AdditiveContext ctx) {
        return call(ctx.op.getText(), ctx, visit(ctx.left), visit(ctx.right));
    }

    @Override
    public Node visitBitwise(BitwiseContext ctx) {
        if (ctx.shift == null) {
            return call(ctx.op.getText(), ctx, visit(ctx.left), visit(ctx.right));
        }
        String op = text(ctx.shift);
        if (!op.equals(ctx.shift.getText())) {
            throw ExpressionErrors.syntax(source, ctx.shift.start.getLine(), ctx.shift.start.getCharPositionInLine() + 1, "'" + op + "'",
                    "a shift is written " + ctx.shift.getText() + ", without spaces");
        }
        return call(op.equals("<<") ? "shiftleft" : op.equals(">>") ? "shiftright" : "shiftrightunsigned", ctx, visit(ctx.left), visit(ctx.right));
    }

    @Override
    public Node visitComparison(ComparisonContext ctx) {
        String op = switch (ctx.op.getText()) {
            case "==" -> "=";
            case "<>", "!=" -> "!=";
            default -> ctx.op.getText();
        };
        return op.equals("!=") ? call("not", ctx, call("=", ctx, visit(ctx.left), visit(ctx.right))) : call(op, ctx, visit(ctx.left), visit(ctx.right));
    }

    @Override
    public Node visitSearchedCase(SearchedCaseContext ctx) {
        List<Node> conditions = new ArrayList<>();
        List<Node> values = new ArrayList<>();
        for (WhenClauseContext w : ctx.whenClause()) {
            conditions.add(visit(w.condition));
            values.add(visit(w.result));
        }
        return new Node.Case(conditions, values, ctx.elseExpression == null ? null : visit(ctx.elseExpression), text(ctx), pos(ctx));
    }

    @Override
    public Node visitSimpleCase(SimpleCaseContext ctx) {
        // Spark rewrites CASE v WHEN w THEN r to CASE WHEN v = w THEN r
        Node value = visit(ctx.value);
        List<Node> conditions = new ArrayList<>();
        List<Node> values = new ArrayList<>();
        for (WhenClauseContext w : ctx.whenClause()) {
            conditions.add(new Node.Call("=", List.of(value, visit(w.condition)), text(w.condition), pos(w.condition)));
            values.add(visit(w.result));
        }
        return new Node.Case(conditions, values, ctx.elseExpression == null ? null : visit(ctx.elseExpression), text(ctx), pos(ctx));
    }

    @Override
    public Node visitCast(CastContext ctx) {
        return new Node.Cast(visit(ctx.expression()), type(ctx.dataType()), ctx.name.getType() == SparkExprLexer.TRY_CAST, text(ctx), pos(ctx));
    }

    @Override
    public Node visitCastShorthand(CastShorthandContext ctx) {
        return new Node.Cast(visit(ctx.primaryExpression()), type(ctx.dataType()), false, text(ctx), pos(ctx));
    }

    @Override
    public Node visitVariantExtract(VariantExtractContext ctx) {
        return call("variant_get", ctx, visit(ctx.base), new Node.Literal(VariantSyntax.path(ctx.variantPath(), source), DataType.STRING, text(ctx), pos(ctx)));
    }

    private DataType type(DataTypeContext ctx) {
        if (ctx instanceof IntervalTypeContext i) {
            DataType t = Intervals.type(i.from == null ? null : i.from.getText(), i.to == null ? null : i.to.getText());
            if (t == null) {
                throw ExpressionErrors.badType(source, pos(ctx), text(ctx), "an interval type is INTERVAL YEAR [TO MONTH], INTERVAL MONTH,"
                        + " INTERVAL DAY|HOUR|MINUTE|SECOND [TO HOUR|MINUTE|SECOND]");
            }
            return t;
        }
        DataType time = Times.parseType(text(ctx));
        return time != null ? time : Variants.parseType(source, pos(ctx), text(ctx));
    }

    @Override
    public Node visitFunctionCall(FunctionCallContext ctx) {
        List<Node> args = new ArrayList<>();
        ctx.expression().forEach(e -> args.add(visit(e)));
        String name = SyntaxForms.unitCall(ctx.functionName().getText().toLowerCase(Locale.ROOT), args);
        boolean joins = OrderedSetCalls.JOINS.contains(name);
        WithinGroupContext within = ctx.withinGroup();
        if (ctx.DISTINCT() != null && joins && within != null && !args.isEmpty() && within.sortItem().stream()
                .anyMatch(item -> !SqlAggregation.shape(visit(item.expression())).equals(SqlAggregation.shape(args.get(0))))) {
            throw ExpressionErrors.distinctOrderedOtherwise(source, pos(ctx), text(ctx)); // Spark's analysis refuses it first
        }
        if (ctx.DISTINCT() != null) {
            throw HavingRewrite.AGGREGATES.contains(name) ? ExpressionErrors.distinctAggregate(source, pos(ctx), text(ctx))
                    : ExpressionErrors.unsupported(source, pos(ctx), "DISTINCT in a function call");
        }
        if (within != null && !OrderedSetCalls.WITHIN_GROUP_FUNCTIONS.contains(name)) {
            throw ExpressionErrors.unsupported(source, pos(ctx), "WITHIN GROUP after " + name + ", which takes none");
        }
        if (within != null && joins) { // listagg(x) WITHIN GROUP (ORDER BY k DESC) is [x, k, 'WITHIN GROUP DESC NULLS LAST']
            for (SortItemContext item : within.sortItem()) {
                args.add(visit(item.expression()));
                String ordering = OrderedSetCalls.ordering(item.DESC() != null, item.NULLS() == null ? null : item.FIRST() != null);
                args.add(new Node.Literal(ordering, DataType.STRING, ordering, pos(item)));
            }
        } else if (within != null) { // percentile_cont(p) WITHIN GROUP (ORDER BY x DESC) is [x, p, 'desc'], as OrderedSetCalls writes it
            if (within.sortItem().size() > 1) {
                throw ExpressionErrors.unsupported(source, pos(within), "WITHIN GROUP of more than one key after " + name);
            }
            boolean desc = within.sortItem(0).DESC() != null;
            args.add(0, visit(within.sortItem(0).expression()));
            args.add(new Node.Literal(desc ? "desc" : "asc", DataType.STRING, OrderedSetCalls.WITHIN_GROUP + (desc ? "DESC" : "ASC"),
                    pos(within)));
        }
        return new Node.Call(name, args, text(ctx), pos(ctx));
    }

    @Override
    public Node visitExtract(ExtractContext ctx) { // EXTRACT(field FROM x) is date_part('field', x)
        String field = ctx.field.getText();
        return call("date_part", ctx, new Node.Literal(field, DataType.STRING, "'" + field + "'", pos(ctx.field)), visit(ctx.source));
    }

    @Override
    public Node visitTrimFrom(TrimFromContext ctx) {
        return SyntaxForms.trim(ctx.trimOption == null ? null : ctx.trimOption.getText(), ctx.trimStr == null ? null : visit(ctx.trimStr),
                visit(ctx.srcStr), text(ctx), pos(ctx));
    }

    @Override
    public Node visitOverlayPlacing(OverlayPlacingContext ctx) {
        return SyntaxForms.call("overlay", text(ctx), pos(ctx), visit(ctx.input), visit(ctx.replace), visit(ctx.position),
                ctx.length == null ? null : visit(ctx.length));
    }

    @Override
    public Node visitStarCall(StarCallContext ctx) {
        if (starCalls) {
            String name = ctx.functionName().getText().toLowerCase(Locale.ROOT);
            return new Node.Call(name, List.of(new Node.Column(List.of("*"), "*", ctx.ASTERISK().getSymbol().getStartIndex() + 1)),
                    text(ctx), pos(ctx));
        }
        throw ExpressionErrors.unsupported(source, pos(ctx), "the aggregate " + text(ctx) + " outside aggregate.select");
    }

    @Override
    public Node visitLambda(LambdaContext ctx) {
        List<String> params = ctx.params.stream().map(AstBuilder::name).toList();
        return new Node.Lambda(params, visit(ctx.body), text(ctx), pos(ctx));
    }

    @Override
    public Node visitColumnReference(ColumnReferenceContext ctx) {
        return new Node.Column(List.of(name(ctx.identifier())), text(ctx), pos(ctx));
    }

    @Override
    public Node visitDereference(DereferenceContext ctx) {
        Node base = visit(ctx.base);
        String field = ctx.fieldName.identifier() != null ? name(ctx.fieldName.identifier()) : ctx.fieldName.getText();
        if (ctx.base instanceof ColumnReferenceContext ref) {
            Node.Column qualified = qualifiers.column(source, name(ref.identifier()), field, text(ctx), pos(ctx));
            if (qualified != null) {
                return qualified;
            }
        }
        if (base instanceof Node.Column c) {
            List<String> names = new ArrayList<>(c.names());
            names.add(field);
            return new Node.Column(names, text(ctx), pos(ctx));
        }
        return new Node.Field(base, field, text(ctx), pos(ctx));
    }

    @Override
    public Node visitSubscript(SubscriptContext ctx) {
        return call("[]", ctx, visit(ctx.value), visit(ctx.index));
    }

    @Override
    public Node visitSubqueryExpression(SubqueryExpressionContext ctx) {
        throw ExpressionErrors.unsupported(source, pos(ctx), "a subquery");
    }

    @Override
    public Node visitExists(ExistsContext ctx) {
        throw ExpressionErrors.unsupported(source, pos(ctx), "a subquery");
    }

    @Override
    public Node visitParenthesized(ParenthesizedContext ctx) {
        return visit(ctx.expression());
    }

    static String name(IdentifierContext ctx) {
        String t = ctx.getText();
        return ctx instanceof QuotedIdentifierContext ? t.substring(1, t.length() - 1).replace("``", "`") : t;
    }

    @Override
    public Node visitLiteral(LiteralContext ctx) {
        return visit(ctx.constant());
    }

    @Override
    public Node visitIntervalLiteral(IntervalLiteralContext ctx) {
        List<String[]> fields = new ArrayList<>();
        for (IntervalFieldContext f : ctx.intervalField()) {
            String value = f.value.STRING() != null ? Literals.unquote(f.value.STRING().getText()) : f.value.getText();
            fields.add(new String[] {value, name(f.unit), f.to == null ? null : name(f.to)});
        }
        Object[] literal = Intervals.literal(fields, source, pos(ctx), text(ctx));
        return new Node.Literal(literal[0], (DataType) literal[1], text(ctx), pos(ctx));
    }

    @Override
    public Node visitNullLiteral(NullLiteralContext ctx) {
        return new Node.Literal(null, null, text(ctx), pos(ctx));
    }

    @Override
    public Node visitBooleanLiteral(BooleanLiteralContext ctx) {
        return new Node.Literal(ctx.TRUE() != null, DataType.BOOLEAN, text(ctx), pos(ctx));
    }

    @Override
    public Node visitStringLiteral(StringLiteralContext ctx) {
        StringBuilder sb = new StringBuilder();
        for (TerminalNode s : ctx.STRING()) {
            sb.append(Literals.unquote(s.getText()));
        }
        return new Node.Literal(sb.toString(), DataType.STRING, text(ctx), pos(ctx));
    }

    @Override
    public Node visitTypedLiteral(TypedLiteralContext ctx) {
        String kind = ctx.typeName.getText().toUpperCase(Locale.ROOT);
        if (kind.equals("INTERVAL")) {
            return CalendarIntervals.literal(Literals.unquote(ctx.STRING().getText()), source, text(ctx), pos(ctx));
        }
        DataType type = Literals.TYPED.get(kind);
        if (type == null) {
            throw ExpressionErrors.unsupported(source, pos(ctx), "the typed literal " + kind + " '...'");
        }
        Object v = Literals.typed(type, Literals.unquote(ctx.STRING().getText()));
        if (v == null) {
            throw ExpressionErrors.badLiteral(source, pos(ctx), text(ctx), kind);
        }
        return new Node.Literal(v, type, text(ctx), pos(ctx));
    }

    @Override
    public Node visitNumericLiteral(NumericLiteralContext ctx) {
        String t = ctx.getText();
        String body = Literals.stripSuffix(t);
        int p = pos(ctx);
        Node.Literal lit = Literals.number(ctx.number(), body, t, p);
        if (lit == null) {
            throw ExpressionErrors.badLiteral(source, p, t, "number");
        }
        return lit;
    }
}
