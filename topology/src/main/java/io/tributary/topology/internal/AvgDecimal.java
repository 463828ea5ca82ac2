package io.tributary.topology.internal;

import io.tributary.schema.DataType;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * avg of DECIMAL(p,s) as DECIMAL(min(38,p+4),min(38,s+4)), rounded half up. A mean that its type cannot hold (an average of
 * DECIMAL(38,6) values past 28 whole digits) fails, as Spark's ANSI mode fails the query with
 * {@code NUMERIC_VALUE_OUT_OF_RANGE} when it evaluates the group.
 *
 * @param name the aggregate's name in {@code aggregate.select}, for the error
 */
record AvgDecimal(int col, DataType type, String name) implements Accumulator {
    record State(BigDecimal sum, long count) {
    }

    public Object zero() {
        return new State(BigDecimal.ZERO, 0);
    }

    public Object add(Object s, Object[] row) {
        Object v = row[col];
        State a = (State) s;
        return v == null ? a : new State(a.sum.add((BigDecimal) v), a.count + 1);
    }

    public Object merge(Object a, Object b) {
        State x = (State) a;
        State y = (State) b;
        return new State(x.sum.add(y.sum), x.count + y.count);
    }

    public Object result(Object s) {
        State a = (State) s;
        if (a.count == 0) {
            return null;
        }
        BigDecimal mean = a.sum.divide(BigDecimal.valueOf(a.count), type.scale(), RoundingMode.HALF_UP);
        if (mean.precision() - mean.scale() > type.precision() - type.scale()) {
            throw TopologyErrors.decimalOutOfRange(name, mean.toPlainString(), type.precision(), type.scale());
        }
        return mean;
    }

    public void write(ByteSink out, Object s) {
        State a = (State) s;
        ValueCodec.write(out, DataType.decimal(38, 0), a.sum);
        out.writeLong(a.count);
    }

    public Object read(ByteSource in) {
        BigDecimal sum = (BigDecimal) ValueCodec.read(in, DataType.decimal(38, 0));
        return new State(sum, in.readLong());
    }
}
