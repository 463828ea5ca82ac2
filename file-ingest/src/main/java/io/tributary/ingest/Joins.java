package io.tributary.ingest;

import io.tributary.expressions.StreamStaticJoin;
import io.tributary.ingest.internal.JoinErrors;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The stream-static joins of {@code transform.join}, in order, each with its table: {@link #refresh} (at a
 * batch's start) reads a table again when it has a new version; {@link #apply} gives the rows a stream row makes.
 * For a {@code UNION ALL} in {@code sql:}, these are the first query's joins, and {@link #unionAll()} the queries after it,
 * whose tables {@link #refresh} reads too.
 */
public final class Joins {
    private static final Joins NONE = new Joins(List.of(), List.of(), List.of(), null, List.of());

    private final List<StreamStaticJoin> joins;
    private final List<StaticTable> tables;
    private final List<String> keys;
    private final long[] loaded;
    private final Schema output;
    private final List<String> visible;
    private final List<UnionBranch> unionAll;

    Joins(List<StreamStaticJoin> joins, List<StaticTable> tables, List<String> keys, Schema output, List<String> visible) {
        this(joins, tables, keys, output, visible, List.of());
    }

    private Joins(List<StreamStaticJoin> joins, List<StaticTable> tables, List<String> keys, Schema output, List<String> visible,
            List<UnionBranch> unionAll) {
        this.unionAll = List.copyOf(unionAll);
        this.output = output;
        this.visible = visible;
        this.joins = joins;
        this.tables = tables;
        this.keys = keys;
        this.loaded = new long[joins.size()];
        java.util.Arrays.fill(loaded, Long.MIN_VALUE);
    }

    static Joins none() {
        return NONE;
    }

    /** These joins, then the queries {@code unionAll} after the first of a {@code UNION ALL}. */
    Joins withUnionAll(List<UnionBranch> unionAll) {
        return new Joins(joins, tables, keys, output, visible, unionAll);
    }

    /** The queries after the first of a {@code UNION ALL} in {@code sql:}, in order; empty without. */
    public List<UnionBranch> unionAll() {
        return unionAll;
    }

    /** The rows the last join makes, what where and select see. */
    public Schema output() {
        return output;
    }

    /** The columns "*" stands for after the joins. */
    public List<String> visible() {
        return visible;
    }

    /** The join of {@code alias} (case-insensitively), or null. */
    StreamStaticJoin join(String alias) {
        return joins.stream().filter(j -> j.alias().equalsIgnoreCase(alias) && j.type().ordinal() <= 1).findFirst().orElse(null);
    }

    /** Whether a row is given as it is (no join, no other query of a {@code UNION ALL}). */
    public boolean isEmpty() {
        return joins.isEmpty() && unionAll.isEmpty();
    }

    /**
     * Reads each table whose latest version is not the one held (the first call reads them all); refused when
     * a table is gone, its schema changed since start, or it holds more rows than the limit.
     */
    public synchronized void refresh() {
        for (int i = 0; i < joins.size(); i++) {
            StaticTable t = tables.get(i);
            long v = t.version();
            if (v == loaded[i]) {
                continue;
            }
            if (v < 0) {
                throw JoinErrors.joinTableGone(keys.get(i), loaded[i]);
            }
            Schema s = t.schema();
            if (!s.equals(joins.get(i).table())) {
                throw JoinErrors.joinSchemaChanged(keys.get(i), joins.get(i).table().toDdl(), s.toDdl(), v);
            }
            try {
                joins.get(i).load(t.rows());
            } catch (TributaryException e) {
                throw JoinErrors.inJoin(keys.get(i), e);
            }
            loaded[i] = v;
        }
        unionAll.forEach(b -> b.joins().refresh());
    }

    /** The version of each table held, in join order (Long.MIN_VALUE before the first {@link #refresh}). */
    public synchronized List<Long> versions() {
        List<Long> out = new ArrayList<>();
        for (long v : loaded) {
            out.add(v);
        }
        return out;
    }

    /** The rows {@code row} makes through every join, in order. */
    public List<Object[]> apply(Object[] row) {
        List<Object[]> rows = Collections.singletonList(row);
        for (StreamStaticJoin j : joins) {
            if (rows.size() == 1) {
                rows = j.apply(rows.get(0));
            } else {
                List<Object[]> next = new ArrayList<>();
                for (Object[] r : rows) {
                    next.addAll(j.apply(r));
                }
                rows = next;
            }
            if (rows.isEmpty()) {
                break;
            }
        }
        return rows;
    }
}
