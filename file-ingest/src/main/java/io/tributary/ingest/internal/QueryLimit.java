package io.tributary.ingest.internal;

import java.util.Arrays;

/**
 * The {@code sql:} query's {@code LIMIT} within a batch: the rows it still lets through over the whole stream, and which input
 * rows Spark's numInputRows counts under it. Spark plans a streaming limit as a limit on each partition of the batch, which
 * stops its scan once the query gave {@code n} rows in that partition (a batch of small files is one partition), then the
 * limit over the stream; each query of a {@code UNION ALL} is its own scan, limited on its own. So a row counts as input
 * while its query has given fewer than {@code n} rows in the batch, whatever the stream let through before.
 */
final class QueryLimit {
    /** The query's LIMIT, or -1 without one. */
    private final long limit;
    /** The rows each query (0 the first, i + 1 the union's query i) gave in the batch. */
    private final long[] given;
    /** The rows the stream's LIMIT still lets through in this batch; Long.MAX_VALUE without one. */
    private long remaining = Long.MAX_VALUE;

    QueryLimit(long limit, int queries) {
        this.limit = limit;
        this.given = new long[queries];
    }

    /** A new batch (or a batch read again), which lets {@code rows} more rows through. */
    void startBatch(long rows) {
        remaining = Math.max(0, rows);
        Arrays.fill(given, 0);
    }

    /** True while query {@code query}'s scan still reads in Spark: its rows of the batch are fewer than the limit. */
    boolean reads(int query) {
        return limit < 0 || given[query] < limit;
    }

    /** Query {@code query} gave a row; true when the stream's LIMIT lets it through (then it is published). */
    boolean take(int query) {
        given[query]++;
        if (remaining == 0) {
            return false;
        }
        remaining--;
        return true;
    }
}
