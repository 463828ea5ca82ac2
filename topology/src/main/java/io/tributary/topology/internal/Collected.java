package io.tributary.topology.internal;

import io.tributary.schema.DataType;
import java.util.ArrayList;
import java.util.List;

/**
 * collect_list and collect_set, as Spark's: the non-null values of the group in the order they arrived (collect_set: each
 * value once, at its first arrival); an empty array when there is none, never NULL. The state holds every value (every
 * distinct value for a set), as Spark's does, so it grows with the group. A set's floating-point values are kept as the state
 * stores them, -0.0 as 0.0, one NaN; a list's as they came, -0.0 as -0.0, as Spark's collect_list keeps them.
 */
record Collected(int col, DataType element, boolean set) implements CollectionAccumulator {
    public Object zero() {
        return List.of();
    }

    public Object add(Object s, Object[] row) {
        Object v = row[col];
        if (v == null) {
            return s;
        }
        return merge(s, List.of(set ? ValueCodec.normalised(v) : v));
    }

    /** As {@link #add}, into a list of its own: the first row copies the state it was given (immutable) once. */
    @SuppressWarnings("unchecked")
    public Object addInPlace(Object s, Object[] row) {
        Object v = row[col];
        if (v == null) {
            return s;
        }
        List<Object> out = s instanceof ArrayList<?> own ? (List<Object>) own : new ArrayList<>((List<Object>) s);
        Object n = set ? ValueCodec.normalised(v) : v;
        if (!set || !contains(out, n)) {
            out.add(n);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    public Object merge(Object a, Object b) {
        List<Object> x = (List<Object>) a;
        List<Object> y = (List<Object>) b;
        if (y.isEmpty()) {
            return x;
        }
        List<Object> out = new ArrayList<>(x.size() + y.size());
        out.addAll(x);
        for (Object v : y) {
            if (!set || !contains(out, v)) {
                out.add(v);
            }
        }
        return List.copyOf(out);
    }

    private boolean contains(List<Object> values, Object v) {
        for (Object o : values) {
            if (SparkOrdering.compare(element, o, v) == 0) {
                return true;
            }
        }
        return false;
    }

    public Object result(Object s) {
        return s;
    }

    @SuppressWarnings("unchecked")
    public void write(ByteSink out, Object s) {
        List<Object> values = (List<Object>) s;
        out.writeInt(values.size());
        values.forEach(v -> {
            if (set) {
                ValueCodec.write(out, element, v);
            } else {
                ValueCodec.writeExact(out, element, v);
            }
        });
    }

    public Object read(ByteSource in) {
        int n = in.readInt();
        List<Object> values = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            values.add(ValueCodec.read(in, element));
        }
        return List.copyOf(values);
    }
}
