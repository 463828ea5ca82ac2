package io.tributary.expressions.internal;

import io.tributary.expressions.ExpressionErrors;
import io.tributary.expressions.internal.SparkExprParser.FieldIdentifierContext;
import io.tributary.expressions.internal.SparkExprParser.VariantBracketContext;
import io.tributary.expressions.internal.SparkExprParser.VariantPathContext;
import org.antlr.v4.runtime.tree.ParseTree;

/**
 * Spark's {@code v:a.b[0]['c d']} syntax as the path of {@code variant_get(v, '$.a.b[0][''c d'']')}: a key is matched
 * exactly (case matters); a key in double quotes is refused, as Spark 4.2 fails on it.
 */
final class VariantSyntax {
    private VariantSyntax() {
    }

    /** The JSON path of {@code ctx}, {@code $} and its steps. */
    static String path(VariantPathContext ctx, String source) {
        StringBuilder path = new StringBuilder("$");
        for (ParseTree step : ctx.children) {
            if (step instanceof FieldIdentifierContext f) {
                key(path, AstBuilder.name(f.identifier()));
            } else if (step instanceof VariantBracketContext b) {
                if (b.INTEGER_VALUE() != null) {
                    path.append('[').append(b.INTEGER_VALUE().getText()).append(']');
                } else if (b.STRING().getText().startsWith("\"")) {
                    throw ExpressionErrors.unsupported(source, b.start.getStartIndex() + 1, "a key in double quotes in a VARIANT path ("
                            + b.getText() + "); write it in single quotes: ['key']");
                } else {
                    key(path, Literals.unquote(b.STRING().getText()));
                }
            }
        }
        return path.toString();
    }

    private static void key(StringBuilder path, String key) {
        if (key.isEmpty() || key.contains(".") || key.contains("[") || key.contains("'")) {
            path.append("[\"").append(key).append("\"]");
        } else {
            path.append('.').append(key);
        }
    }
}
