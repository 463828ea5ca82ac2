package io.tributary.expressions;

import io.tributary.expressions.internal.Analyzer;
import io.tributary.expressions.internal.BatchClock;
import io.tributary.expressions.internal.Bound;
import io.tributary.expressions.internal.Compiler;
import io.tributary.expressions.internal.Failure;
import io.tributary.expressions.internal.Interpreter;
import io.tributary.expressions.internal.Parsing;
import io.tributary.expressions.internal.Times;
import io.tributary.expressions.internal.Variants;
import io.tributary.schema.DataType;
import io.tributary.schema.Schema;

/**
 * One Spark SQL expression over rows of an input schema: parsed, typed and compiled once, evaluated
 * per row. Values are in the representation {@link DataType} documents; a row Spark's ANSI mode
 * fails on throws {@link ExpressionException}.
 */
public final class Expression {
    private final String text;
    private final Bound bound;
    private final Compiler.Eval compiled;
    /** Set by the public {@code compile} when the input or the result holds a VARIANT: rows hold VariantValues, Spark's Variant inside. */
    private Schema variantInput;
    private boolean variantResult;

    private Expression(String text, Bound bound) {
        this.text = text;
        this.bound = bound;
        this.compiled = Times.holdsTime(bound.type()) ? row -> { // Spark computes the type, then fails the query as it runs
            throw Times.unsupportedResult(bound.type());
        } : Compiler.compile(bound);
    }

    /** Parses and resolves {@code text} against {@code input}; refuses it with a {@link io.tributary.schema.TributaryException} naming the problem. */
    public static Expression compile(Schema input, String text) {
        return compile(input, text, null);
    }

    /** As {@link #compile(Schema, String)}, {@code alias.column} naming the input's column (a query's {@code FROM source s}); alias null for none. */
    public static Expression compile(Schema input, String text, String alias) {
        Expression e = new Expression(text, new Analyzer(input, text).resolve(Parsing.expression(text, alias)));
        e.variantResult = Variants.holdsVariant(e.type());
        e.variantInput = Variants.holdsVariant(input) || e.variantResult ? input : null;
        return e;
    }

    /** As {@link #compile(Schema, String, String)}, {@code view.column} naming a lateral view's column ({@code views}: lower-case name to columns). */
    static Expression compile(Schema input, String text, String alias, java.util.Map<String, java.util.List<String>> views) {
        return compile(input, text, alias, views, null);
    }

    /** As above, {@code current_timestamp()} and its cousins reading the batch's start from {@code clock} (null: refused). */
    static Expression compile(Schema input, String text, String alias, java.util.Map<String, java.util.List<String>> views,
            BatchClock clock) {
        return new Expression(text, new Analyzer(input, text, clock).resolve(Parsing.expression(text, alias, views)));
    }

    static Expression of(String text, Bound bound) {
        return new Expression(text, bound);
    }

    public String text() {
        return text;
    }

    /** The result type; null for an expression that is always NULL (Spark's VOID). */
    public DataType type() {
        return bound.type();
    }

    /** The value for one row, by the compiled form. */
    public Object eval(Object[] row) {
        try {
            if (variantInput != null) {
                Object v = compiled.eval(Variants.toSpark(variantInput, row));
                return variantResult ? Variants.toValue(type(), v) : v;
            }
            return compiled.eval(row);
        } catch (Failure f) {
            throw ExpressionErrors.failed(f.expression() == null ? text : f.expression(), f.condition(), f.reason());
        }
    }

    /** The value for one row, by walking the typed tree: the reference {@link #eval} is tested against. */
    public Object interpret(Object[] row) {
        try {
            if (Times.holdsTime(bound.type())) {
                throw Times.unsupportedResult(bound.type());
            }
            return Interpreter.eval(bound, row);
        } catch (Failure f) {
            throw ExpressionErrors.failed(f.expression() == null ? text : f.expression(), f.condition(), f.reason());
        }
    }
}
