package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import java.util.List;

/**
 * An expression as parsed, before its columns and functions are resolved. Every node keeps its
 * source text and its position (1-based column in the expression) for error messages. Operators
 * are calls of their SQL names ({@code +}, {@code =}, {@code and}, {@code like} ...), as Spark
 * resolves them through the same function machinery.
 */
public sealed interface Node {
    String text();

    int position();

    /** A literal value in the in-memory representation of its type ({@code null} for NULL, typed NULL's own). */
    record Literal(Object value, DataType type, String text, int position) implements Node {
    }

    /** A column, or a struct field below a column: {@code a}, {@code a.b}, {@code `a b`.c}. */
    record Column(List<String> names, String text, int position) implements Node {
    }

    /** A function or operator applied to arguments. */
    record Call(String name, List<Node> args, String text, int position) implements Node {
    }

    /** {@code CAST(x AS type)}, {@code x::type}; {@code TRY_CAST} gives null where the cast fails. */
    record Cast(Node child, DataType to, boolean tryCast, String text, int position) implements Node {
    }

    /** {@code CASE WHEN c1 THEN v1 ... ELSE e END}: conditions and values alternate, the else last when there is one. */
    record Case(List<Node> conditions, List<Node> values, Node otherwise, String text, int position) implements Node {
    }

    /** A struct field by name below any expression: {@code (expr).field}. */
    record Field(Node child, String name, String text, int position) implements Node {
    }

    /** A lambda function, {@code x -> body} or {@code (acc, x) -> body}: an argument of a higher-order function only. */
    record Lambda(List<String> params, Node body, String text, int position) implements Node {
    }
}
