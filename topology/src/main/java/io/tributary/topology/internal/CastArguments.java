package io.tributary.topology.internal;

import io.tributary.expressions.ExpressionException;
import io.tributary.expressions.ImplicitCast;
import io.tributary.schema.DataType;
import io.tributary.topology.Aggregate;
import io.tributary.topology.AggregateFunction;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * An aggregate of a STRING column that Spark's analyzer casts to DOUBLE before aggregating (AnsiTypeCoercion: a function that takes
 * numbers reads text as a DOUBLE): {@code sum}, {@code avg}, the moments ({@code stddev}, {@code variance}, {@code skewness},
 * {@code kurtosis} and their forms), {@code corr}, the covariances, the {@code regr_} functions, {@code percentile},
 * {@code median}, {@code percentile_cont}, {@code percentile_disc} and {@code percentile_approx}; and a TIMESTAMP column of {@code sum}, {@code avg} and their forms, read as
 * its seconds since 1970 ({@code CAST(ts AS DOUBLE)}), as Spark 4.2's analyzer casts it. Each row's text is cast as
 * Spark's ANSI {@code CAST(x AS DOUBLE)} casts it, then folded by the accumulator of a DOUBLE; text that is no number fails the
 * aggregation, as it fails Spark's query ({@code CAST_INVALID_INPUT}).
 */
record CastArguments(Accumulator of, int first, UnaryOperator<Object> firstCast, int second, UnaryOperator<Object> secondCast, String name,
        String expression) implements ForwardingAccumulator {
    /** The functions that read a STRING argument as a DOUBLE. */
    static final Set<AggregateFunction> TEXT_AS_DOUBLE = EnumSet.of(AggregateFunction.SUM, AggregateFunction.TRY_SUM, AggregateFunction.AVG,
            AggregateFunction.MEAN, AggregateFunction.TRY_AVG, AggregateFunction.STDDEV, AggregateFunction.STDDEV_SAMP,
            AggregateFunction.STDDEV_POP, AggregateFunction.STD, AggregateFunction.VARIANCE, AggregateFunction.VAR_SAMP,
            AggregateFunction.VAR_POP, AggregateFunction.SKEWNESS, AggregateFunction.KURTOSIS, AggregateFunction.CORR,
            AggregateFunction.COVAR_POP, AggregateFunction.COVAR_SAMP, AggregateFunction.REGR_COUNT, AggregateFunction.REGR_AVGX,
            AggregateFunction.REGR_AVGY, AggregateFunction.REGR_SXX, AggregateFunction.REGR_SYY, AggregateFunction.REGR_SXY,
            AggregateFunction.REGR_SLOPE, AggregateFunction.REGR_INTERCEPT, AggregateFunction.REGR_R2, AggregateFunction.PERCENTILE,
            AggregateFunction.MEDIAN, AggregateFunction.PERCENTILE_CONT, AggregateFunction.PERCENTILE_DISC, AggregateFunction.PERCENTILE_APPROX,
            AggregateFunction.APPROX_PERCENTILE);

    /** The functions that read a TIMESTAMP argument as a DOUBLE, its seconds since 1970 (Spark 4.2 casts it for these alone). */
    static final Set<AggregateFunction> TIME_AS_DOUBLE = EnumSet.of(AggregateFunction.SUM, AggregateFunction.TRY_SUM, AggregateFunction.AVG,
            AggregateFunction.MEAN, AggregateFunction.TRY_AVG);

    /** Whether {@code f} reads an argument of {@code type} as Spark's cast of it to DOUBLE. */
    static boolean castsToDouble(AggregateFunction f, DataType type) {
        return type != null && (type.kind() == DataType.Kind.STRING && TEXT_AS_DOUBLE.contains(f)
                || type.kind() == DataType.Kind.TIMESTAMP && TIME_AS_DOUBLE.contains(f));
    }

    /** {@code of}, the accumulator of {@code a} over DOUBLE arguments, reading {@code a}'s STRING arguments cast; {@code of} where none is. */
    static Accumulator wrap(Aggregate a, Accumulator of) {
        boolean first = castsToDouble(a.function(), a.inputType());
        boolean second = a.second() != null && castsToDouble(a.function(), a.second().type());
        if (!first && !second) {
            return of;
        }
        CastArguments cast = new CastArguments(of, first ? a.columnIndex() : -1, first ? ImplicitCast.of(a.inputType(), DataType.DOUBLE,
                a.column()) : null, second ? a.second().index() : -1, second ? ImplicitCast.of(a.second().type(), DataType.DOUBLE,
                a.second().column()) : null, a.name(), a.expression());
        return of instanceof CollectionAccumulator c ? new InPlace(c, cast) : cast;
    }

    /** The row with its STRING arguments cast; the aggregation fails on text that is no number. */
    Object[] cast(Object[] row) {
        Object[] cast = row.clone();
        try {
            if (first >= 0) {
                cast[first] = firstCast.apply(row[first]);
            }
            if (second >= 0) {
                cast[second] = secondCast.apply(row[second]);
            }
        } catch (ExpressionException e) {
            throw TopologyErrors.castFailed(name, expression, e);
        }
        return cast;
    }

    /** The same over an accumulator whose state is a whole collection, folded in place. */
    record InPlace(CollectionAccumulator of, CastArguments cast) implements CollectionAccumulator, ForwardingAccumulator {
        public Object addInPlace(Object s, Object[] row) {
            return of.addInPlace(s, cast.cast(row));
        }

        public Object add(Object s, Object[] row) {
            return of.add(s, cast.cast(row));
        }
    }

    public Object add(Object s, Object[] row) {
        return of.add(s, cast(row));
    }
}
