package io.tributary.topology.internal;

import io.tributary.schema.DataType;
import io.tributary.topology.Aggregate;
import io.tributary.topology.AggregateFunction;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Spark's exact order statistics over a count of each distinct value, as Spark's {@code Percentile} and {@code Mode} keep
 * them: {@code percentile}, {@code median}, {@code percentile_cont}, {@code percentile_disc} and {@code mode}. Null values are
 * skipped (and, for percentile, rows whose frequency is NULL or 0); two states merge by adding their counts. The state
 * holds one count per distinct value of the group, so it grows with the group's distinct values, as Spark's does. Values
 * are kept in Spark's order of the input type (one NaN above every number); the percentiles count -0.0 and 0.0 apart, as
 * Spark's map of boxed values keeps them, -0.0 first, so that a percentile that lands on -0.0 is -0.0, as Spark gives it
 * (mode counts -0.0 as 0.0, as Spark's mode gives it).
 */
record ValueCounts(AggregateFunction function, int col, DataType type, int frequency, Aggregate.Constants constants, String name)
        implements CollectionAccumulator {

    static ValueCounts of(Aggregate a) {
        return new ValueCounts(a.function(), a.columnIndex(), CastArguments.castsToDouble(a.function(), a.inputType()) ? DataType.DOUBLE
                : a.inputType(), a.second() == null ? -1 : a.second().index(), a.constants(),
                a.name());
    }

    public Object zero() {
        return new TreeMap<Object, Long>((x, y) -> {
            int c = SparkOrdering.compare(type, x, y);
            return c != 0 ? c : x instanceof Double a ? Double.compare(a, (Double) y) : x instanceof Float a ? Float.compare(a, (Float) y) : 0;
        });
    }

    @SuppressWarnings("unchecked")
    public Object add(Object s, Object[] row) {
        long n = count(row);
        if (n == 0) {
            return s;
        }
        TreeMap<Object, Long> out = new TreeMap<>((TreeMap<Object, Long>) s);
        out.merge(key(row[col]), n, Long::sum);
        return out;
    }

    @SuppressWarnings("unchecked")
    public Object addInPlace(Object s, Object[] row) {
        long n = count(row);
        if (n != 0) {
            ((TreeMap<Object, Long>) s).merge(key(row[col]), n, Long::sum);
        }
        return s;
    }

    /** A value as a key: one NaN; -0.0 apart from 0.0 for the percentiles, as 0.0 for mode (Spark's mode of -0.0 is 0.0). */
    private Object key(Object v) {
        if (function == AggregateFunction.MODE) {
            return ValueCodec.normalised(v);
        }
        return v instanceof Double d && d.isNaN() ? (Object) Double.NaN : v instanceof Float f && f.isNaN() ? (Object) Float.NaN : v;
    }

    /** What a row adds to its value's count: its frequency (1 without one), or 0 to skip it (a NULL value or frequency). */
    private long count(Object[] row) {
        long n = 1;
        if (frequency >= 0) {
            Object f = row[frequency];
            if (f == null) {
                return 0;
            }
            n = ((Number) f).longValue();
            if (n < 0) {
                throw OrderStatisticErrors.negativeFrequency(name, n);
            }
        }
        return row[col] == null ? 0 : n;
    }

    @SuppressWarnings("unchecked")
    public Object merge(Object a, Object b) {
        TreeMap<Object, Long> y = (TreeMap<Object, Long>) b;
        if (y.isEmpty()) {
            return a;
        }
        TreeMap<Object, Long> out = new TreeMap<>((TreeMap<Object, Long>) a);
        y.forEach((v, n) -> out.merge(v, n, Long::sum));
        return out;
    }

    @SuppressWarnings("unchecked")
    public Object result(Object s) {
        TreeMap<Object, Long> counts = (TreeMap<Object, Long>) s;
        if (counts.isEmpty()) {
            return null;
        }
        if (function == AggregateFunction.MODE) {
            return mode(counts);
        }
        List<Object> values = new ArrayList<>(constants.descending() ? counts.descendingKeySet() : counts.keySet());
        long[] accumulated = new long[values.size()];
        long total = 0;
        for (int i = 0; i < accumulated.length; i++) {
            total += counts.get(values.get(i));
            accumulated[i] = total;
        }
        long maxPosition = total - 1;
        List<Object> out = new ArrayList<>();
        for (double p : constants.percentages()) {
            out.add(function == AggregateFunction.PERCENTILE_DISC ? toDouble(values.get(index(accumulated, (long) Math.ceil(total * p))))
                    : percentile(values, accumulated, maxPosition * p));
        }
        return constants.array() ? List.copyOf(out) : out.get(0);
    }

    /**
     * percentile, median and percentile_cont as Spark's PercentileBase computes them: the value at {@code position} (the
     * percentage times the count less one) of the sorted values, interpolated between two. percentile_disc (above) is the first
     * value whose running count reaches the percentage times the count, as Spark 4.2 gives it.
     */
    private double percentile(List<Object> values, long[] accumulated, double position) {
        long lower = (long) Math.floor(position);
        long higher = (long) Math.ceil(position);
        Object lowerKey = values.get(index(accumulated, lower + 1));
        Object higherKey = values.get(index(accumulated, higher + 1));
        if (higher == lower || SparkOrdering.compare(type, higherKey, lowerKey) == 0) {
            return toDouble(lowerKey);
        }
        return (higher - position) * toDouble(lowerKey) + (position - lower) * toDouble(higherKey);
    }

    /** The first index whose accumulated count reaches {@code count}, as Spark's binary search finds it. */
    private static int index(long[] accumulated, long count) {
        int i = java.util.Arrays.binarySearch(accumulated, count);
        return i < 0 ? -(i + 1) : i;
    }

    private static double toDouble(Object v) {
        return v instanceof BigDecimal d ? d.doubleValue() : ((Number) v).doubleValue();
    }

    /**
     * The value with the greatest count; of several, the one Spark's hash map meets first ({@link OpenHashOrder}), or with a tie
     * rule (deterministic, WITHIN GROUP) the least (the greatest for WITHIN GROUP ... DESC).
     */
    private Object mode(TreeMap<Object, Long> counts) {
        if (!constants.lowest()) {
            Object first = OpenHashOrder.firstOfMost(counts, type);
            if (first != null) {
                return first;
            }
        }
        Object best = null;
        long most = 0;
        for (Map.Entry<Object, Long> e : (constants.descending() ? counts.descendingMap() : counts).entrySet()) {
            if (e.getValue() > most) {
                best = e.getKey();
                most = e.getValue();
            }
        }
        return best;
    }

    @SuppressWarnings("unchecked")
    public void write(ByteSink out, Object s) {
        TreeMap<Object, Long> counts = (TreeMap<Object, Long>) s;
        out.writeInt(counts.size());
        counts.forEach((v, n) -> {
            ValueCodec.writeExact(out, type, v);
            out.writeLong(n);
        });
    }

    @SuppressWarnings("unchecked")
    public Object read(ByteSource in) {
        TreeMap<Object, Long> counts = (TreeMap<Object, Long>) zero();
        int size = in.readInt();
        for (int i = 0; i < size; i++) {
            Object v = ValueCodec.read(in, type);
            counts.put(v, in.readLong());
        }
        return counts;
    }
}
