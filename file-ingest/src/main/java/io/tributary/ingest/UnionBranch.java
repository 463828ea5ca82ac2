package io.tributary.ingest;

import io.tributary.expressions.Transform;

/**
 * A query after {@code UNION ALL} in {@code sql:}, compiled over the stream: each row goes through its {@code joins}, then its
 * {@code transform}, whose rows have the union's columns (the first query's names, the queries' wider types). The file ingest
 * publishes its rows after those of the queries before it, at no extra hop; {@link Joins#unionAll()} holds them.
 */
public record UnionBranch(Joins joins, Transform transform) {
}
