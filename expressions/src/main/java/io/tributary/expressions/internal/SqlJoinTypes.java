package io.tributary.expressions.internal;

import io.tributary.expressions.ExpressionErrors;
import io.tributary.expressions.internal.SparkExprParser.JoinRelationContext;
import io.tributary.expressions.internal.SparkExprParser.JoinTypeContext;
import org.antlr.v4.runtime.Token;

/**
 * The transform's type of a join of a Delta table in a query ({@link SqlTranslator}), written after the stream ({@code FROM source s
 * LEFT JOIN delta.`path` u}) or before it ({@code FROM delta.`path` u RIGHT JOIN source s}), as Spark runs a stream-static join: the
 * stream's side kept, the table's only where it matches; the joins Spark refuses between a stream and a table refused with its words.
 */
final class SqlJoinTypes {
    private SqlJoinTypes() {
    }

    /** The transform's join type; the joins Spark does not run between a stream and a table, or that keep no stream side, refused. */
    static String after(JoinTypeContext t, Token at) {
        boolean left = has(t, SparkExprLexer.LEFT);
        if (has(t, SparkExprLexer.SEMI)) {
            return "left_semi";
        }
        if (has(t, SparkExprLexer.ANTI)) {
            return "left_anti";
        }
        if (left) {
            return "left";
        }
        String kind = has(t, SparkExprLexer.RIGHT) ? "RIGHT OUTER JOIN"
                : has(t, SparkExprLexer.FULL) ? "FULL OUTER JOIN" : null;
        if (kind != null) {
            throw refused(at, kind, "Spark refuses it too (" + (kind.startsWith("RIGHT") ? "RightOuter" : "FullOuter") + " join with a"
                    + " streaming DataFrame/Dataset on the left and a static DataFrame/Dataset on the right is not supported); a"
                    + " stream-static join keeps the stream on the left: JOIN (inner), LEFT [OUTER] JOIN, LEFT SEMI JOIN or LEFT ANTI JOIN");
        }
        return "inner";
    }

    /**
     * The transform's join type of a Delta table written before the stream, {@code FROM delta.`path` u JOIN source s}: inner, or
     * left for RIGHT [OUTER] (the stream's rows kept); the joins Spark does not run with the stream on the right refused.
     */
    static String before(JoinRelationContext j) {
        JoinTypeContext t = j.joinType();
        if (has(t, SparkExprLexer.RIGHT)) {
            return "left";
        }
        String kind = has(t, SparkExprLexer.SEMI) ? "LEFT SEMI JOIN" : has(t, SparkExprLexer.ANTI) ? "LEFT ANTI JOIN"
                : has(t, SparkExprLexer.LEFT) ? "LEFT OUTER JOIN" : has(t, SparkExprLexer.FULL) ? "FULL OUTER JOIN" : null;
        if (kind != null) {
            String spark = switch (kind) {
                case "LEFT OUTER JOIN" -> "LeftOuter join with a streaming DataFrame/Dataset on the right and a static DataFrame/Dataset on"
                        + " the left is not supported";
                case "FULL OUTER JOIN" -> "FullOuter joins with streaming DataFrames/Datasets on the right and a static DataFrame/Dataset"
                        + " on the left is not supported";
                case "LEFT SEMI JOIN" -> "LeftSemi join with a streaming DataFrame/Dataset on the right and a static DataFrame/Dataset on"
                        + " the left is not supported";
                default -> "LeftAnti joins with a streaming DataFrame/Dataset on the right are not supported";
            };
            throw refused(j.start, kind + " of the stream after a Delta table", "Spark refuses it too (" + spark + "); a join"
                    + " keeps the stream's rows with the table before it as RIGHT [OUTER] JOIN source s, or after it as source s LEFT JOIN"
                    + " delta.`path` u; SEMI and ANTI join a table after the stream: FROM source s LEFT SEMI JOIN delta.`path` u ON ...");
        }
        return "inner";
    }

    static boolean has(JoinTypeContext t, int token) {
        return t.getToken(token, 0) != null;
    }


    private static RuntimeException refused(Token at, String construct, String instead) {
        return ExpressionErrors.sqlUnsupported(construct, at.getLine(), at.getCharPositionInLine() + 1, instead);
    }
}
