package io.tributary.topology.internal;

import io.tributary.schema.TributaryException;

/** The refusals of Spark's exact order statistics (percentile, median, percentile_cont, percentile_disc, mode), in Spark's terms. */
public final class OrderStatisticErrors {
    private OrderStatisticErrors() {
    }

    /** When an order statistic (percentile, median, percentile_cont, percentile_disc, mode) is written with other arguments than it takes. */
    public static TributaryException orderStatisticArguments(String key, String expression, String sqlName, String forms) {
        return new TributaryException(key + ": " + sqlName + " is not written as Spark takes it in '" + expression + "'; write one of "
                + forms);
    }

    /** When an order statistic's argument has a type it does not take (Spark's DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE). */
    public static TributaryException orderStatisticType(String key, String expression, String argument, String ddl, String needed) {
        return new TributaryException(key + ": " + argument + " of " + expression + " is a " + ddl + ", where Spark takes " + needed
                + " (DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE); cast it in the select list");
    }

    /** When a percentage, or mode's deterministic flag, reads a column (Spark's DATATYPE_MISMATCH.NON_FOLDABLE_INPUT). */
    public static TributaryException notConstant(String key, String expression, String argument) {
        return new TributaryException(key + ": " + argument + " in " + expression + " must be a constant, as Spark requires "
                + "(DATATYPE_MISMATCH.NON_FOLDABLE_INPUT); write a number such as 0.5, or array(0.25, 0.75)");
    }

    /** When a percentage is not a number. */
    public static TributaryException percentageNotNumber(String key, String expression, String argument) {
        return new TributaryException(key + ": the percentage " + argument + " of " + expression + " is not a number; Spark takes a "
                + "number between 0 and 1, or an array of them (DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE)");
    }

    /** When a percentage is NULL. */
    public static TributaryException percentageNull(String key, String expression, String argument) {
        return new TributaryException(key + ": the percentage " + argument + " of " + expression + " is NULL; Spark requires a "
                + "number between 0 and 1 (DATATYPE_MISMATCH.UNEXPECTED_NULL)");
    }

    /** When a percentage is outside [0, 1]. */
    public static TributaryException percentageOutOfRange(String key, String expression, String argument) {
        return new TributaryException(key + ": the percentage " + argument + " of " + expression + " must be between 0.0 and 1.0, "
                + "as Spark requires (DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE)");
    }

    /** When a row gives percentile a negative frequency: Spark fails the query. */
    public static TributaryException negativeFrequency(String name, long frequency) {
        return new TributaryException("aggregate.select." + name + ": a row's frequency is " + frequency
                + "; percentile takes no negative frequency (Spark fails the query: NEGATIVE_VALUES_IN_FREQUENCY_EXPRESSION)");
    }

    /** When percentile_approx's accuracy is NULL or out of range (Spark's DATATYPE_MISMATCH.UNEXPECTED_NULL or VALUE_OUT_OF_RANGE). */
    public static TributaryException accuracy(String key, String expression, String argument, String what, String condition) {
        return new TributaryException(key + ": the accuracy " + argument + " of " + expression + " " + what + "; Spark takes a positive "
                + "integer up to 2147483647 (DATATYPE_MISMATCH." + condition + ")");
    }

    /** vector_sum or vector_avg over arrays of two lengths (Spark fails the query: VECTOR_DIMENSION_MISMATCH). */
    static TributaryException vectorDimensionMismatch(String name, String function, int left, int right) {
        return new TributaryException("aggregate.select." + name + ": vectors passed to " + function + " must have the same dimension, but"
                + " got " + left + " and " + right + " (Spark fails the query: VECTOR_DIMENSION_MISMATCH)");
    }
}
