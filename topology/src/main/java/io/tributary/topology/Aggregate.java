package io.tributary.topology;

import io.tributary.schema.DataType;

/**
 * One named aggregate of an {@link AggregateSpec}, e.g. {@code t = sum(amt)}.
 *
 * @param name the output column
 * @param function the aggregate function
 * @param column the input column it reads, or null for {@code count(*)}
 * @param columnIndex the position of {@code column} in the input schema, or -1 for {@code count(*)}
 * @param inputType the type of {@code column}, or null for {@code count(*)}
 * @param resultType Spark's result type: sum of an integral type is BIGINT, of FLOAT/DOUBLE is
 *     DOUBLE, of DECIMAL(p,s) is DECIMAL(min(38,p+10),s); count is BIGINT; avg is DOUBLE
 *     (DECIMAL(min(38,p+4),min(38,s+4)) for a decimal input); min, max, first, last keep the input type
 * @param expression the text as written, e.g. {@code sum(amt)}
 * @param second the second argument of a function of two ({@code amt} of {@code max_by(user, amt)}), percentile's frequency, else null
 * @param constants an order statistic's constant arguments ({@link AggregateFunction#orderStatistic}), else null
 * @param joining listagg's and string_agg's delimiter and WITHIN GROUP keys, else null
 */
public record Aggregate(String name, AggregateFunction function, String column, int columnIndex,
                        DataType inputType, DataType resultType, String expression, Argument second, Constants constants,
                        Joining joining) {

    /**
     * An order statistic's constants: the percentages (one, or an array when {@code array}), whether WITHIN GROUP orders
     * descending, and mode's tie rule ({@code lowest}: the least value of those with the greatest count, else Spark's default).
     */
    public record Constants(java.util.List<Double> percentages, boolean array, boolean descending, boolean lowest) {
    }

    /**
     * listagg's and string_agg's constants: the delimiter (a String, a byte[] for BINARY values; empty when not given) and the
     * keys of WITHIN GROUP (ORDER BY ...), none without it.
     */
    public record Joining(Object delimiter, java.util.List<SortKey> orderBy) {
    }

    /** One key of WITHIN GROUP (ORDER BY ...): the column it reads, descending or not, and where NULLs go. */
    public record SortKey(Argument key, boolean descending, boolean nullsFirst) {
    }

    /** An aggregate with an order statistic's constants, or none. */
    public Aggregate(String name, AggregateFunction function, String column, int columnIndex, DataType inputType, DataType resultType,
                     String expression, Argument second, Constants constants) {
        this(name, function, column, columnIndex, inputType, resultType, expression, second, constants, null);
    }

    /** An aggregate without constants. */
    public Aggregate(String name, AggregateFunction function, String column, int columnIndex, DataType inputType, DataType resultType,
                     String expression, Argument second) {
        this(name, function, column, columnIndex, inputType, resultType, expression, second, null);
    }

    /**
     * A column an aggregate reads: its name, its position in the input schema and its type; or a constant (the {@code 0.01} of
     * {@code approx_count_distinct(user, 0.01)}): its text as {@code column}, index -1, and its type.
     */
    public record Argument(String column, int index, DataType type) {
        /** A constant argument, {@code 0.01}, of the given type. */
        public static Argument constant(String text, DataType type) {
            return new Argument(text, -1, type);
        }

        /** True for a constant argument. */
        public boolean isConstant() {
            return index < 0;
        }
    }

    /** An aggregate of one argument (or of none, {@code count(*)}). */
    public Aggregate(String name, AggregateFunction function, String column, int columnIndex, DataType inputType, DataType resultType,
                     String expression) {
        this(name, function, column, columnIndex, inputType, resultType, expression, null);
    }

    /** True for {@code count(*)}, which counts rows rather than non-null values. */
    public boolean countsRows() {
        return column == null;
    }

    @Override
    public String toString() {
        return name + " = " + expression;
    }
}
