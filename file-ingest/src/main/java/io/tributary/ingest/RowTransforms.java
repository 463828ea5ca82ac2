package io.tributary.ingest;

import io.tributary.expressions.RowTransform;
import io.tributary.expressions.Transform;
import io.tributary.expressions.ExpressionErrors;
import io.tributary.expressions.SqlQuery;
import io.tributary.schema.Schema;
import io.tributary.settings.Values;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The transform of a spec ({@code transform.join/where/select}, or {@code sql:}) compiled for a source other
 * than files (a Delta table, a Kafka topic): the same expressions, joins and refusals as the file source's,
 * as one {@link RowTransform} the reading stage applies to each row.
 */
public final class RowTransforms {
    private RowTransforms() {
    }

    /**
     * Compiles the {@link TransformSettings} given in {@code values} over {@code input}, the join tables opened
     * with {@code opener}; a refusal names the key as written there (and, from a spec, its line).
     */
    public static RowTransform compile(Values values, Schema input, StaticTable.Opener opener) {
        return compile(values, input, opener, Map.of());
    }

    /**
     * As above, the rows also given the columns {@code computed} makes (select items, each with the key it comes from, as
     * {@link IngestConfigBuilder#alsoSelect}): what an aggregation groups by or aggregates by an expression.
     */
    public static RowTransform compile(Values values, Schema input, StaticTable.Opener opener, Map<String, String> computed) {
        IngestConfigBuilder b = new IngestConfigBuilder("transform", null, null, input).transform(values).staticTables(opener);
        b.transformSpec.computed.putAll(computed);
        b.transformSpec.fileSource = false; // no file's facts: _metadata and input_file_name() are refused, naming the source's kind
        if (b.transformSpec.limit != null) {
            SqlQuery.Part at = b.transformSpec.limit.at();
            throw values.invalid(TransformSettings.SQL, ExpressionErrors.sqlUnsupported(at.text(), at.line(), at.column(), "LIMIT keeps"
                    + " the first rows of a file source, counted with the ingest's progress; a Delta table or a Kafka topic is read by"
                    + " the stage that writes the table, which keeps no such count: remove LIMIT"));
        }
        Transform transform = b.transformSpec.compile(input);
        return of(b.transformSpec.joins(input), transform);
    }

    /**
     * The joins, lateral views, where and select of {@code transform}, then those of each query after it in a {@code UNION ALL}
     * ({@link Joins#unionAll()}): a row's rows all, or none when an expression fails on one.
     */
    static RowTransform of(Joins joins, Transform transform) {
        return new RowTransform() {
            @Override
            public Schema output() {
                return transform.output();
            }

            @Override
            public boolean isIdentity() {
                return joins.isEmpty() && transform.identity();
            }

            @Override
            public void refresh() {
                joins.refresh();
            }

            @Override
            public void startBatch(Instant batchStart) {
                joins.refresh();
                transform.startBatch(batchStart);
                joins.unionAll().forEach(b -> b.transform().startBatch(batchStart));
            }

            @Override
            public List<Object[]> apply(Object[] row) {
                List<Object[]> out = rows(joins, transform, row);
                if (joins.unionAll().isEmpty()) {
                    return out;
                }
                out = new ArrayList<>(out);
                for (UnionBranch b : joins.unionAll()) {
                    out.addAll(rows(b.joins(), b.transform(), row));
                }
                return out;
            }
        };
    }

    /** The rows {@code row} makes through {@code joins}, then {@code transform}. */
    private static List<Object[]> rows(Joins joins, Transform transform, Object[] row) {
        List<Object[]> joined = joins.isEmpty() ? Collections.singletonList(row) : joins.apply(row);
        if (transform.identity()) {
            return joined;
        }
        if (joined.size() == 1) {
            return transform.rows(joined.get(0));
        }
        List<Object[]> out = new ArrayList<>(joined.size());
        for (Object[] r : joined) {
            out.addAll(transform.rows(r));
        }
        return out;
    }
}
