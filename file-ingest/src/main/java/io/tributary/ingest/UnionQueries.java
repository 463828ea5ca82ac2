package io.tributary.ingest;

import io.tributary.expressions.SqlQuery;
import io.tributary.expressions.Transform;
import io.tributary.expressions.UnionColumns;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.ArrayList;
import java.util.List;

/**
 * The queries of a {@code UNION ALL} in {@code sql:} compiled over the stream's schema, each as a query of its own (its joins,
 * lateral views, WHERE and select list, refused naming its place in the query), then their columns made the union's
 * ({@link UnionColumns}): the first query's transform, and its joins holding the other queries ({@link Joins#unionAll()}).
 */
final class UnionQueries {
    private UnionQueries() {
    }

    /** The union compiled over {@code schema}: the first query's transform, whose rows have the union's columns, and the joins. */
    record Compiled(Schema schema, Transform first, Joins joins) {
    }

    /** Compiles the union of {@code spec} (the first query's, with {@link TransformSpec#unionAll} the others) over {@code schema}. */
    static Compiled compile(TransformSpec spec, Schema schema) {
        TransformSpec first = spec.copy();
        first.unionAll = List.of();
        List<TransformSpec> queries = new ArrayList<>(List.of(first));
        List<String> keys = new ArrayList<>(List.of(spec.sqlKey));
        for (SqlQuery.UnionAll u : spec.unionAll) {
            TransformSpec q = first.copy();
            q.sql(u.query(), spec.sqlKey);
            queries.add(q);
            keys.add(spec.sqlKey + " (UNION ALL at " + u.at().at() + " of the query)");
        }
        List<Transform> transforms = new ArrayList<>();
        List<Joins> joins = new ArrayList<>();
        for (TransformSpec q : queries) {
            q.untypedNulls = true; // a NULL select item is typed by the other queries' column
            transforms.add(q.compile(schema));
            joins.add(q.joins(schema));
        }
        List<Transform> cast;
        try {
            cast = UnionColumns.of(transforms, keys);
        } catch (TributaryException e) {
            throw spec.values == null ? e : spec.values.invalid(TransformSettings.SQL, e);
        }
        List<UnionBranch> others = new ArrayList<>();
        for (int i = 1; i < queries.size(); i++) {
            others.add(new UnionBranch(joins.get(i), cast.get(i)));
        }
        return new Compiled(schema, cast.get(0), joins.get(0).withUnionAll(others));
    }
}
