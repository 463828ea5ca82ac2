package io.tributary.topology.internal;

import io.tributary.schema.DataType;
import io.tributary.topology.Aggregate;
import io.tributary.topology.AggregateFunction;
import java.math.BigDecimal;
import java.math.RoundingMode;

/** The named accumulator for each aggregate function and input type, with Spark's semantics. */
final class Accumulators {
    private Accumulators() {
    }

    static Accumulator of(Aggregate a) {
        return CastArguments.wrap(a, typed(a));
    }

    /** The accumulator of {@code a} over arguments of the types it folds (a STRING that Spark casts read as a DOUBLE). */
    private static Accumulator typed(Aggregate a) {
        int col = a.columnIndex();
        return switch (a.function()) {
            case COUNT -> a.countsRows() ? new Count(-1) : new Count(col);
            case COUNT_IF -> new CountIf(col);
            case SUM -> switch (a.resultType().kind()) {
                case LONG -> new SumLong(col, a.name());
                case DOUBLE -> new SumDouble(col);
                default -> new SumDecimal(col, a.name(), a.resultType());
            };
            case TRY_SUM -> switch (a.resultType().kind()) {
                case LONG -> new TrySums.OfLong(col);
                case DOUBLE -> new SumDouble(col);
                default -> new TrySums.OfDecimal(col, a.inputType(), a.resultType(), false);
            };
            case TRY_AVG -> a.resultType().kind() == DataType.Kind.DECIMAL
                    ? new TrySums.OfDecimal(col, a.inputType(), a.resultType(), true) : new AvgDouble(col);
            case AVG, MEAN -> a.resultType().kind() == DataType.Kind.DECIMAL
                    ? new AvgDecimal(col, a.resultType(), a.name()) : new AvgDouble(col);
            case MIN -> new MinMax(col, a.inputType(), -1);
            case MAX -> new MinMax(col, a.inputType(), 1);
            case FIRST, FIRST_VALUE -> new FirstLast(col, a.inputType(), true, ignoreNulls(a));
            case LAST, LAST_VALUE -> new FirstLast(col, a.inputType(), false, ignoreNulls(a));
            case ANY_VALUE -> new FirstLast(col, a.inputType(), true, ignoreNulls(a)); // Spark's any_value is first
            case STDDEV, STDDEV_SAMP, STD -> new CentralMoments(col, true, true);
            case STDDEV_POP -> new CentralMoments(col, false, true);
            case VARIANCE, VAR_SAMP -> new CentralMoments(col, true, false);
            case VAR_POP -> new CentralMoments(col, false, false);
            case BOOL_AND, EVERY -> new BoolFold(col, true);
            case BOOL_OR, SOME, ANY -> new BoolFold(col, false);
            case COLLECT_LIST, ARRAY_AGG -> new Collected(col, a.inputType(), false);
            case COLLECT_SET -> new Collected(col, a.inputType(), true);
            case BIT_AND -> new BitFold(col, a.inputType(), BitFold.Op.AND);
            case BIT_OR -> new BitFold(col, a.inputType(), BitFold.Op.OR);
            case BIT_XOR -> new BitFold(col, a.inputType(), BitFold.Op.XOR);
            case SKEWNESS -> new HigherMoments(col, false);
            case KURTOSIS -> new HigherMoments(col, true);
            case MAX_BY -> new ExtremumBy(col, a.inputType(), a.second().index(), a.second().type(), 1);
            case MIN_BY -> new ExtremumBy(col, a.inputType(), a.second().index(), a.second().type(), -1);
            case CORR -> new CoMoments(col, a.second().index(), CoMoments.Kind.CORR);
            case COVAR_POP -> new CoMoments(col, a.second().index(), CoMoments.Kind.COVAR_POP);
            case COVAR_SAMP -> new CoMoments(col, a.second().index(), CoMoments.Kind.COVAR_SAMP);
            case REGR_COUNT, REGR_AVGX, REGR_AVGY, REGR_SXX, REGR_SYY, REGR_SXY, REGR_SLOPE, REGR_INTERCEPT, REGR_R2 -> Regressions.of(a);
            case APPROX_COUNT_DISTINCT -> HyperLogLogPlusPlus.of(a);
            case HLL_SKETCH_AGG, HLL_UNION_AGG -> HllSketchAggregates.of(a);
            case THETA_SKETCH_AGG, THETA_UNION_AGG, THETA_INTERSECTION_AGG -> ThetaSketchAggregates.of(a);
            case KLL_SKETCH_AGG_BIGINT, KLL_SKETCH_AGG_FLOAT, KLL_SKETCH_AGG_DOUBLE, KLL_MERGE_AGG_BIGINT, KLL_MERGE_AGG_FLOAT, KLL_MERGE_AGG_DOUBLE ->
                    KllSketchAggregates.of(a);
            case PERCENTILE, MEDIAN, PERCENTILE_CONT, PERCENTILE_DISC, MODE -> ValueCounts.of(a);
            case PERCENTILE_APPROX, APPROX_PERCENTILE -> ApproxPercentiles.of(a);
            case LISTAGG, STRING_AGG -> ListAgg.of(a);
            case TUPLE_SKETCH_AGG_DOUBLE, TUPLE_SKETCH_AGG_INTEGER, TUPLE_UNION_AGG_DOUBLE, TUPLE_UNION_AGG_INTEGER, TUPLE_INTERSECTION_AGG_DOUBLE,
                 TUPLE_INTERSECTION_AGG_INTEGER -> TupleSketchAggregates.of(a);
            case VECTOR_SUM, VECTOR_AVG -> new VectorFold(col, a.function() == AggregateFunction.VECTOR_AVG, a.name(), a.function().sqlName());
            case SCHEMA_OF_VARIANT_AGG -> new VariantSchemaFold(col);
        };
    }

    /** count(*) counts rows; count(col) counts non-null values. Never null. */
    record Count(int col) implements Accumulator {
        public Object zero() {
            return 0L;
        }

        public Object add(Object s, Object[] row) {
            return col < 0 || row[col] != null ? (Long) s + 1 : s;
        }

        public Object merge(Object a, Object b) {
            return (Long) a + (Long) b;
        }

        public Object result(Object s) {
            return s;
        }

        public void write(ByteSink out, Object s) {
            out.writeLong((Long) s);
        }

        public Object read(ByteSource in) {
            return in.readLong();
        }
    }

    /** count_if(cond): the rows whose BOOLEAN argument is true (false and null are not counted). Never null. */
    record CountIf(int col) implements Accumulator {
        public Object zero() {
            return 0L;
        }

        public Object add(Object s, Object[] row) {
            return Boolean.TRUE.equals(row[col]) ? (Long) s + 1 : s;
        }

        public Object merge(Object a, Object b) {
            return (Long) a + (Long) b;
        }

        public Object result(Object s) {
            return s;
        }

        public void write(ByteSink out, Object s) {
            out.writeLong((Long) s);
        }

        public Object read(ByteSource in) {
            return in.readLong();
        }
    }

    /** sum of an integral column as BIGINT; null until a non-null value; overflow fails as in Spark's ANSI mode. */
    record SumLong(int col, String name) implements Accumulator {
        public Object zero() {
            return null;
        }

        public Object add(Object s, Object[] row) {
            Object v = row[col];
            if (v == null) {
                return s;
            }
            long x = ((Number) v).longValue();
            try {
                return s == null ? x : Math.addExact((Long) s, x);
            } catch (ArithmeticException e) {
                throw TopologyErrors.sumOverflowedLong(name);
            }
        }

        public Object merge(Object a, Object b) {
            if (a == null || b == null) {
                return a == null ? b : a;
            }
            try {
                return Math.addExact((Long) a, (Long) b);
            } catch (ArithmeticException e) {
                throw TopologyErrors.sumOverflowedLong(name);
            }
        }

        public Object result(Object s) {
            return s;
        }

        public void write(ByteSink out, Object s) {
            ValueCodec.write(out, DataType.LONG, s);
        }

        public Object read(ByteSource in) {
            return ValueCodec.read(in, DataType.LONG);
        }
    }

    /** sum of FLOAT or DOUBLE as DOUBLE, in arrival order; null until a non-null value. */
    record SumDouble(int col) implements Accumulator {
        public Object zero() {
            return null;
        }

        public Object add(Object s, Object[] row) {
            Object v = row[col];
            if (v == null) {
                return s;
            }
            double x = ((Number) v).doubleValue();
            return s == null ? x : (Double) s + x;
        }

        public Object merge(Object a, Object b) {
            return a == null || b == null ? (a == null ? b : a) : (Double) a + (Double) b;
        }

        public Object result(Object s) {
            return s;
        }

        public void write(ByteSink out, Object s) {
            ValueCodec.write(out, DataType.DOUBLE, s);
        }

        public Object read(ByteSource in) {
            return ValueCodec.read(in, DataType.DOUBLE);
        }
    }

    /** sum of DECIMAL(p,s) as DECIMAL(min(38,p+10),s); overflow fails as in Spark's ANSI mode. */
    record SumDecimal(int col, String name, DataType type) implements Accumulator {
        public Object zero() {
            return null;
        }

        public Object add(Object s, Object[] row) {
            Object v = row[col];
            if (v == null) {
                return s;
            }
            return checked(s == null ? (BigDecimal) v : ((BigDecimal) s).add((BigDecimal) v));
        }

        public Object merge(Object a, Object b) {
            return a == null || b == null ? (a == null ? b : a) : checked(((BigDecimal) a).add((BigDecimal) b));
        }

        private BigDecimal checked(BigDecimal sum) {
            if (sum.precision() - sum.scale() > type.precision() - type.scale()) {
                throw TopologyErrors.sumOverflowedDecimal(name, type.ddl());
            }
            return sum;
        }

        public Object result(Object s) {
            return s == null ? null : ((BigDecimal) s).setScale(type.scale(), RoundingMode.HALF_UP);
        }

        public void write(ByteSink out, Object s) {
            ValueCodec.write(out, DataType.decimal(38, type.scale()), s);
        }

        public Object read(ByteSource in) {
            return ValueCodec.read(in, DataType.decimal(38, type.scale()));
        }
    }

    /** avg of a non-decimal number: a DOUBLE sum over the non-null count; null when none. */
    record AvgDouble(int col) implements Accumulator {
        public Object zero() {
            return new double[] {0.0, 0.0};
        }

        public Object add(Object s, Object[] row) {
            Object v = row[col];
            if (v == null) {
                return s;
            }
            double[] a = (double[]) s;
            return new double[] {a[0] + ((Number) v).doubleValue(), a[1] + 1};
        }

        public Object merge(Object a, Object b) {
            double[] x = (double[]) a;
            double[] y = (double[]) b;
            return new double[] {x[0] + y[0], x[1] + y[1]};
        }

        public Object result(Object s) {
            double[] a = (double[]) s;
            return a[1] == 0 ? null : a[0] / a[1];
        }

        public void write(ByteSink out, Object s) {
            double[] a = (double[]) s;
            out.writeLong(Double.doubleToLongBits(a[0]));
            out.writeLong((long) a[1]);
        }

        public Object read(ByteSource in) {
            return new double[] {Double.longBitsToDouble(in.readLong()), in.readLong()};
        }
    }

    /** min (sign -1) or max (sign 1) by Spark's ordering; nulls are skipped. */
    record MinMax(int col, DataType type, int sign) implements Accumulator {
        public Object zero() {
            return null;
        }

        public Object add(Object s, Object[] row) {
            Object v = row[col];
            if (v == null) {
                return s;
            }
            return s == null || sign * SparkOrdering.compare(type, v, s) > 0 ? v : s;
        }

        public Object merge(Object a, Object b) {
            return a == null || b != null && sign * SparkOrdering.compare(type, b, a) > 0 ? b : a;
        }

        public Object result(Object s) {
            return s;
        }

        public void write(ByteSink out, Object s) {
            ValueCodec.writeExact(out, type, s);
        }

        public Object read(ByteSource in) {
            return ValueCodec.read(in, type);
        }
    }

    /**
     * first / last as Spark's default ({@code ignoreNulls = false}): the value of the first or
     * last row to arrive, null included. The state is a one-element array once a row was seen.
     */
    /** first(x, true), last(x, true), any_value(x, true): Spark's ignoreNulls, the second argument, a BOOLEAN constant. */
    private static boolean ignoreNulls(Aggregate a) {
        return a.second() != null && a.second().isConstant() && a.second().column().equals("true");
    }

    /** first and last; with {@code ignoreNulls} a null value is skipped (the state stays null until a value comes). */
    record FirstLast(int col, DataType type, boolean first, boolean ignoreNulls) implements Accumulator {
        public Object zero() {
            return null;
        }

        public Object add(Object s, Object[] row) {
            if (ignoreNulls && row[col] == null) {
                return s;
            }
            return first && s != null ? s : new Object[] {row[col]};
        }

        public Object merge(Object a, Object b) {
            return first ? (a != null ? a : b) : (b != null ? b : a);
        }

        public Object result(Object s) {
            return s == null ? null : ((Object[]) s)[0];
        }

        public void write(ByteSink out, Object s) {
            out.writeByte(s == null ? 0 : 1);
            if (s != null) {
                ValueCodec.writeExact(out, type, ((Object[]) s)[0]);
            }
        }

        public Object read(ByteSource in) {
            return in.readByte() == 0 ? null : new Object[] {ValueCodec.read(in, type)};
        }
    }
}
