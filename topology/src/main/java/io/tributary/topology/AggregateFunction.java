package io.tributary.topology;

import java.util.Locale;

/** The aggregate functions a {@link AggregateSpec} can select, named as in Spark SQL. */
public enum AggregateFunction {
    COUNT, COUNT_IF, SUM, MIN, MAX, AVG, FIRST, LAST;

    /** The function's name as written in a spec: {@code sum}, {@code count}, {@code count_if}, ... */
    public String sqlName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
