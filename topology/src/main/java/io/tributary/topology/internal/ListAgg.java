package io.tributary.topology.internal;

import io.tributary.expressions.Expression;
import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import io.tributary.topology.Aggregate;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@code listagg(x [, delimiter]) [WITHIN GROUP (ORDER BY ...)]} and {@code string_agg}, as Spark 4.2's ListAgg: the non-null
 * values of the group joined by the delimiter, NULL when there is none; STRING values give a STRING, BINARY values BINARY. The
 * state keeps each value in the order it arrived (a batch's rows after the ones kept from earlier batches, as Spark merges its
 * state store's buffer first), with the values of its WITHIN GROUP keys; the result sorts them by the keys, stably, so ties keep
 * that order, as Spark's sort does. Values of another type are cast to STRING as they arrive, as Spark casts them.
 */
record ListAgg(int col, DataType type, Object delimiter, List<Aggregate.SortKey> keys, Expression toText) implements CollectionAccumulator {

    static ListAgg of(Aggregate a) {
        Aggregate.Joining j = a.joining();
        Expression toText = a.resultType().equals(a.inputType()) ? null
                : Expression.compile(Schema.parse("v " + a.inputType().ddl()), "CAST(v AS STRING)");
        return new ListAgg(a.columnIndex(), a.resultType(), j.delimiter(), j.orderBy(), toText);
    }

    public Object zero() {
        return List.of();
    }

    public Object add(Object s, Object[] row) {
        return row[col] == null ? s : merge(s, List.<Object[]>of(entry(row)));
    }

    /** The state with the row's value appended: to the list itself once this method made it (a batch's rows in memory). */
    @SuppressWarnings("unchecked")
    public Object addInPlace(Object s, Object[] row) {
        if (row[col] == null) {
            return s;
        }
        ArrayList<Object[]> entries = s instanceof ArrayList<?> a ? (ArrayList<Object[]>) a : new ArrayList<>((List<Object[]>) s);
        entries.add(entry(row));
        return entries;
    }

    /** The row's value (as text unless the input is STRING or BINARY) and its WITHIN GROUP keys. */
    private Object[] entry(Object[] row) {
        Object v = row[col];
        Object[] entry = new Object[1 + keys.size()];
        entry[0] = toText == null ? v : toText.eval(new Object[] {v});
        for (int i = 0; i < keys.size(); i++) {
            entry[i + 1] = ValueCodec.normalised(row[keys.get(i).key().index()]);
        }
        return entry;
    }

    @SuppressWarnings("unchecked")
    public Object merge(Object a, Object b) {
        List<Object[]> x = (List<Object[]>) a;
        List<Object[]> y = (List<Object[]>) b;
        if (y.isEmpty()) {
            return x;
        }
        List<Object[]> out = new ArrayList<>(x.size() + y.size());
        out.addAll(x);
        out.addAll(y);
        return List.copyOf(out);
    }

    @SuppressWarnings("unchecked")
    public Object result(Object s) {
        List<Object[]> entries = new ArrayList<>((List<Object[]>) s);
        if (entries.isEmpty()) {
            return null;
        }
        if (!keys.isEmpty()) {
            entries.sort(order()); // List.sort is stable: ties keep their arrival
        }
        List<Object> values = new ArrayList<>(entries.size());
        entries.forEach(entry -> values.add(entry[0]));
        return type.kind() == DataType.Kind.BINARY ? joinBytes(values) : joinText(values);
    }

    private Comparator<Object[]> order() {
        Comparator<Object[]> order = (x, y) -> 0;
        for (int i = 0; i < keys.size(); i++) {
            Aggregate.SortKey k = keys.get(i);
            int at = i + 1;
            order = order.thenComparing((x, y) -> {
                Object p = x[at];
                Object q = y[at];
                if (p == null || q == null) {
                    return p == q ? 0 : (p == null) == k.nullsFirst() ? -1 : 1;
                }
                int c = SparkOrdering.compare(k.key().type(), p, q);
                return k.descending() ? -c : c;
            });
        }
        return order;
    }

    private String joinText(List<Object> values) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                s.append((String) delimiter);
            }
            s.append((String) values.get(i));
        }
        return s.toString();
    }

    private byte[] joinBytes(List<Object> values) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                out.writeBytes((byte[]) delimiter);
            }
            out.writeBytes((byte[]) values.get(i));
        }
        return out.toByteArray();
    }

    @SuppressWarnings("unchecked")
    public void write(ByteSink out, Object s) {
        List<Object[]> entries = (List<Object[]>) s;
        out.writeInt(entries.size());
        for (Object[] entry : entries) {
            ValueCodec.write(out, type, entry[0]);
            for (int k = 0; k < keys.size(); k++) {
                ValueCodec.write(out, keys.get(k).key().type(), entry[k + 1]);
            }
        }
    }

    public Object read(ByteSource in) {
        int n = in.readInt();
        List<Object[]> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Object[] entry = new Object[1 + keys.size()];
            entry[0] = ValueCodec.read(in, type);
            for (int k = 0; k < keys.size(); k++) {
                entry[k + 1] = ValueCodec.read(in, keys.get(k).key().type());
            }
            items.add(entry);
        }
        return List.copyOf(items);
    }
}
