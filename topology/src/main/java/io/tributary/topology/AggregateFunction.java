package io.tributary.topology;

import java.util.Locale;

/**
 * The aggregate functions a {@link AggregateSpec} can select, named as in Spark SQL. Spark's aliases are functions of their
 * own here, so that a column is named and refused as the user wrote it: {@code stddev} and {@code std} are {@code stddev_samp},
 * {@code variance} is {@code var_samp}, {@code every} is {@code bool_and}, {@code some} and {@code any} are {@code bool_or},
 * {@code mean} is {@code avg}, {@code first_value} and {@code last_value} are {@code first} and {@code last}, {@code array_agg} is
 * {@code collect_list}. {@code max_by(x, ord)}, {@code min_by(x, ord)}, {@code corr(x, y)}, {@code covar_pop}, {@code covar_samp} and the
 * {@code regr_*} functions ({@code regr_slope(y, x)}) take two arguments; {@code approx_count_distinct(x [, rsd])} one, and a
 * constant relative standard deviation. {@code percentile(x, p [, frequency])}, {@code median(x)},
 * {@code percentile_cont(p) WITHIN GROUP (ORDER BY x)}, {@code percentile_disc} and {@code mode(x [, deterministic])} are Spark's
 * exact order statistics ({@link #orderStatistic}); {@code percentile_approx(x, p [, accuracy])} and {@code approx_percentile} its
 * estimate, with constant arguments as those. {@code vector_sum(v)} and {@code vector_avg(v)} fold ARRAY&lt;FLOAT&gt; element by element.
 * {@code hll_sketch_agg(x [, lgConfigK])} and {@code hll_union_agg(sketch [, allowDifferentLgConfigK])} give Spark's HyperLogLog
 * sketches, BINARY; {@code theta_sketch_agg(x [, lgNomEntries])}, {@code theta_union_agg(sketch [, lgNomEntries])} and
 * {@code theta_intersection_agg(sketch)} its Theta sketches. {@code listagg(x [, delimiter]) [WITHIN GROUP (ORDER BY ...)]}
 * and {@code string_agg} join STRING or BINARY values, other types cast to STRING (read by {@code ListAggParser}); {@code kll_sketch_agg_*(x [, k])} and
 * {@code kll_merge_agg_*(sketch [, k])} (bigint, float, double) its KLL quantile sketches. {@code schema_of_variant_agg(v)} merges
 * the schemas of VARIANT values, read from the STRING column the source computes of each row's {@code schema_of_variant(v)}.
 * {@code tuple_sketch_agg_*(key, summary [, lgNomEntries [, mode]])}, {@code tuple_union_agg_*(sketch [, lgNomEntries [, mode]])}
 * and {@code tuple_intersection_agg_*(sketch [, mode])} (double, integer) its tuple sketches (read by {@code TupleSketchParser}).
 */
public enum AggregateFunction {
    COUNT, COUNT_IF, SUM, MIN, MAX, AVG, FIRST, LAST, ANY_VALUE,
    STDDEV, STDDEV_SAMP, STDDEV_POP, VARIANCE, VAR_SAMP, VAR_POP,
    BOOL_AND, EVERY, BOOL_OR, SOME, ANY,
    COLLECT_LIST, COLLECT_SET,
    MEAN, STD, FIRST_VALUE, LAST_VALUE, ARRAY_AGG, TRY_SUM, TRY_AVG, BIT_AND, BIT_OR, BIT_XOR, SKEWNESS, KURTOSIS,
    MAX_BY, MIN_BY, CORR, COVAR_POP, COVAR_SAMP,
    REGR_COUNT, REGR_AVGX, REGR_AVGY, REGR_SXX, REGR_SYY, REGR_SXY, REGR_SLOPE, REGR_INTERCEPT, REGR_R2,
    APPROX_COUNT_DISTINCT, PERCENTILE, MEDIAN, PERCENTILE_CONT, PERCENTILE_DISC, MODE, PERCENTILE_APPROX, APPROX_PERCENTILE,
    VECTOR_SUM, VECTOR_AVG, HLL_SKETCH_AGG, HLL_UNION_AGG,
    LISTAGG, STRING_AGG, THETA_SKETCH_AGG, THETA_UNION_AGG, THETA_INTERSECTION_AGG,
    KLL_SKETCH_AGG_BIGINT, KLL_SKETCH_AGG_FLOAT, KLL_SKETCH_AGG_DOUBLE, KLL_MERGE_AGG_BIGINT, KLL_MERGE_AGG_FLOAT, KLL_MERGE_AGG_DOUBLE,
    SCHEMA_OF_VARIANT_AGG,
    TUPLE_SKETCH_AGG_DOUBLE, TUPLE_SKETCH_AGG_INTEGER, TUPLE_UNION_AGG_DOUBLE, TUPLE_UNION_AGG_INTEGER, TUPLE_INTERSECTION_AGG_DOUBLE,
    TUPLE_INTERSECTION_AGG_INTEGER;

    /** The function's name as written in a spec: {@code sum}, {@code count}, {@code count_if}, ... */
    public String sqlName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The number of column arguments: two for {@code max_by(x, ord)}, {@code min_by}, {@code corr(x, y)}, the covariances and the
     * {@code regr_*} functions, else one.
     */
    public int arity() {
        return this == MAX_BY || this == MIN_BY || this == CORR || this == COVAR_POP || this == COVAR_SAMP || name().startsWith("REGR_")
                ? 2 : 1;
    }

    /**
     * True for a function whose last argument may be a constant instead: {@code approx_count_distinct(x, rsd)}, the hll_ and kll_
     * ones, theta_sketch_agg and theta_union_agg.
     */
    public boolean takesConstant() {
        return this == APPROX_COUNT_DISTINCT || this == HLL_SKETCH_AGG || this == HLL_UNION_AGG
                || this == THETA_SKETCH_AGG || this == THETA_UNION_AGG || name().startsWith("KLL_");
    }

    /** True for Spark's exact order statistics, whose constant arguments (a percentage, a tie rule, an ordering) the column follows. */
    public boolean orderStatistic() {
        return this == PERCENTILE || this == MEDIAN || this == PERCENTILE_CONT || this == PERCENTILE_DISC || this == MODE
                || this == PERCENTILE_APPROX || this == APPROX_PERCENTILE;
    }

    /** True for Spark's tuple sketch aggregates, whose arguments after the columns are constants: lgNomEntries, the summary mode. */
    public boolean tupleSketch() {
        return name().startsWith("TUPLE_");
    }

    /** True for the functions whose result depends on the order rows arrive in: first, last, any_value, collect_list and their aliases. */
    public boolean ordered() {
        return this == FIRST || this == LAST || this == ANY_VALUE || this == COLLECT_LIST || this == FIRST_VALUE || this == LAST_VALUE
                || this == ARRAY_AGG;
    }
}
