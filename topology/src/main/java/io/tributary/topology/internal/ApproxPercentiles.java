package io.tributary.topology.internal;

import io.tributary.schema.DataType;
import io.tributary.topology.Aggregate;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code percentile_approx(x, p [, accuracy])} and {@code approx_percentile}, as Spark's {@code ApproximatePercentile}: the
 * non-null values, as doubles, go into a {@link QuantileSummaries} of relative error {@code 1 / accuracy}. As in Spark's
 * streaming aggregation, a batch's rows go into a summary of their own, which is compressed and merged into the one the
 * earlier batches left ({@link #nextBatch}); the result is each percentage's sample, turned back into the input's type
 * ({@code (int) d} for INT and DATE, {@code (long) d} for BIGINT and TIMESTAMP, a DECIMAL from the double's text, ...). NULL when
 * the group has no value.
 * The state holds the merged samples and the batch's head buffer (at most 50,000 values), as Spark's does.
 */
record ApproxPercentiles(int col, DataType type, double relativeError, Aggregate.Constants constants) implements CollectionAccumulator {

    /** The samples of the earlier batches (compressed; null before any batch ended) and this batch's summary. */
    record State(QuantileSummaries stored, QuantileSummaries batch) {
    }

    static ApproxPercentiles of(Aggregate a) {
        return new ApproxPercentiles(a.columnIndex(), CastArguments.castsToDouble(a.function(), a.inputType()) ? DataType.DOUBLE
                : a.inputType(), 1.0 / Integer.parseInt(a.second().column()), a.constants());
    }

    public Object zero() {
        return new State(null, QuantileSummaries.empty(relativeError));
    }

    public Object add(Object s, Object[] row) {
        Object v = row[col];
        if (v == null) {
            return s;
        }
        State state = (State) s;
        return new State(state.stored, state.batch.insert(((Number) v).doubleValue()));
    }

    /** {@link #add}, which takes the value into the batch summary's head buffer in place already. */
    public Object addInPlace(Object s, Object[] row) {
        return add(s, row);
    }

    /** The summary Spark saves at the end of the batch: the batch's compressed summary merged into the stored one. */
    private static QuantileSummaries saved(State s) {
        QuantileSummaries batch = s.batch.digest();
        return s.stored == null ? batch : s.stored.merge(batch);
    }

    @Override
    public Object nextBatch(Object s) {
        return new State(saved((State) s), QuantileSummaries.empty(relativeError));
    }

    public Object merge(Object a, Object b) {
        return new State(saved((State) a).merge(saved((State) b)), QuantileSummaries.empty(relativeError));
    }

    public Object result(Object s) {
        double[] values = saved((State) s).query(constants.percentages());
        if (values == null) {
            return null;
        }
        List<Object> out = new ArrayList<>(values.length);
        for (double d : values) {
            out.add(typed(d));
        }
        return constants.array() ? java.util.Collections.unmodifiableList(out) : out.get(0);
    }

    /** A sample in the input's type, as Spark's {@code ApproximatePercentile.eval} casts it. */
    private Object typed(double d) {
        return switch (type.kind()) {
            case BYTE -> (byte) (int) d;
            case SHORT -> (short) (int) d;
            case INT, DATE -> (int) d;
            case LONG, TIMESTAMP, TIMESTAMP_NTZ -> (long) d;
            case FLOAT -> (float) d;
            case DECIMAL -> decimal(d);
            default -> d;
        };
    }

    /**
     * A sample as Spark's {@code Decimal(d)} makes it (the double's shortest text, {@code Double.toString}) and its row writer
     * stores it in the input's DECIMAL type: rounded half up to the type's scale, NULL when it then has more digits than the
     * type's precision (a DECIMAL(17,0) of 99999999999999999 is 1.0E17 as a double).
     */
    private BigDecimal decimal(double d) {
        BigDecimal exact = new BigDecimal(Double.toString(d)).setScale(type.scale(), RoundingMode.HALF_UP);
        return exact.precision() > type.precision() ? null : exact;
    }

    public void write(ByteSink out, Object s) {
        State state = (State) s;
        out.writeByte(state.stored == null ? 0 : 1);
        if (state.stored != null) {
            writeSamples(out, state.stored);
        }
        out.writeByte(state.batch.isCompressed() ? 1 : 0);
        writeSamples(out, state.batch);
        double[] head = state.batch.head();
        out.writeInt(head.length);
        for (double d : head) {
            out.writeLong(Double.doubleToRawLongBits(d));
        }
    }

    private static void writeSamples(ByteSink out, QuantileSummaries q) {
        out.writeLong(q.count);
        out.writeInt(q.sampled.length);
        for (QuantileSummaries.Stats st : q.sampled) {
            out.writeLong(Double.doubleToRawLongBits(st.value()));
            out.writeLong(st.g());
            out.writeLong(st.delta());
        }
    }

    public Object read(ByteSource in) {
        QuantileSummaries stored = in.readByte() == 0 ? null : readSamples(in, true, new double[0]);
        boolean compressed = in.readByte() == 1;
        long count = in.readLong();
        QuantileSummaries.Stats[] samples = samples(in);
        double[] head = new double[in.readInt()];
        for (int i = 0; i < head.length; i++) {
            head[i] = Double.longBitsToDouble(in.readLong());
        }
        return new State(stored, QuantileSummaries.withHead(relativeError, samples, count, compressed, head));
    }

    private QuantileSummaries readSamples(ByteSource in, boolean compressed, double[] head) {
        long count = in.readLong();
        return QuantileSummaries.withHead(relativeError, samples(in), count, compressed, head);
    }

    private static QuantileSummaries.Stats[] samples(ByteSource in) {
        QuantileSummaries.Stats[] out = new QuantileSummaries.Stats[in.readInt()];
        for (int i = 0; i < out.length; i++) {
            out[i] = new QuantileSummaries.Stats(Double.longBitsToDouble(in.readLong()), in.readLong(), in.readLong());
        }
        return out;
    }
}
