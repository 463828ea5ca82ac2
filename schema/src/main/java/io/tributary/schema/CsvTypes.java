package io.tributary.schema;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * Spark's inference of a CSV column's type ({@code CSVInferSchema}), shared by the CSV file source and {@code schema_of_csv}:
 * a value is INT, BIGINT, DECIMAL(n, 0), DOUBLE, BOOLEAN, DATE, TIMESTAMP or STRING, and a column's values merge into the
 * narrowest type that holds them all.
 */
public final class CsvTypes {
    private static final Pattern BIG_INTEGER = Pattern.compile("[+-]?\\d+");
    private static final Pattern ISO_DATE = Pattern.compile("\\d{4}-\\d{1,2}-\\d{1,2}");
    private static final Pattern STRICT_DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");

    private CsvTypes() {
    }

    /**
     * Spark's CSV inference of one value: INT, BIGINT, DECIMAL(n, 0), DOUBLE, BOOLEAN, DATE, TIMESTAMP, else STRING.
     *
     * @param defaultDates true when {@code times} reads dates by Spark's default pattern (no {@code dateFormat}), which the
     *     inference takes strictly: {@code yyyy-MM-dd}
     */
    public static DataType of(String t, TimeTexts times, boolean defaultDates) {
        return of(t, times, defaultDates, null);
    }

    /**
     * As {@link #of(String, TimeTexts, boolean)}, with three of Spark's rules the file source leaves out: a value equal to one
     * of {@code doubles} (the {@code nanValue}, {@code positiveInf} and {@code negativeInf} options) is a DOUBLE, a date by
     * the default pattern has two-digit months and days ({@code 2024-1-1} is a TIMESTAMP), and a timestamp text may be
     * shorter than a date ({@code 2024-01} is a TIMESTAMP).
     *
     * @param doubles null for the file source's rules
     */
    public static DataType of(String t, TimeTexts times, boolean defaultDates, Set<String> doubles) {
        boolean spark = doubles != null;
        if (spark && doubles.contains(t)) {
            return DataType.DOUBLE;
        }
        try {
            Integer.parseInt(t);
            return DataType.INT;
        } catch (NumberFormatException e) {
            // wider
        }
        try {
            Long.parseLong(t);
            return DataType.LONG;
        } catch (NumberFormatException e) {
            // wider
        }
        if (BIG_INTEGER.matcher(t).matches()) {
            int digits = t.replaceFirst("^[+-]?0*", "").length();
            return digits <= 38 ? DataType.decimal(Math.max(digits, 1), 0) : DataType.DOUBLE; // Spark: DECIMAL(n, 0) past BIGINT
        }
        try {
            Double.parseDouble(t);
            return DataType.DOUBLE;
        } catch (NumberFormatException e) {
            // not a number
        }
        if (t.equalsIgnoreCase("true") || t.equalsIgnoreCase("false")) {
            return DataType.BOOLEAN;
        }
        if (defaultDates ? (spark ? STRICT_DATE : ISO_DATE).matcher(t).matches() && times.days(t) != null : times.days(t) != null) {
            return DataType.DATE; // Spark's prefersDate: a date before a timestamp
        }
        if ((spark || t.length() >= 10) && times.micros(t, true) != null) {
            return DataType.TIMESTAMP;
        }
        return DataType.STRING;
    }

    /** The type of a column holding values of types {@code a} (null: none yet) and {@code b}, as Spark merges them. */
    public static DataType merge(DataType a, DataType b) {
        if (a == null || a.equals(b)) {
            return b;
        }
        if (isNumber(a) && isNumber(b)) {
            if (a.kind() == DataType.Kind.DOUBLE || b.kind() == DataType.Kind.DOUBLE) {
                return DataType.DOUBLE;
            }
            if (a.kind() != DataType.Kind.DECIMAL && b.kind() != DataType.Kind.DECIMAL) {
                return DataType.LONG;
            }
            int digits = Math.max(integerDigits(a), integerDigits(b));
            return digits > 38 ? DataType.DOUBLE : DataType.decimal(digits, 0);
        }
        boolean times = (a.kind() == DataType.Kind.DATE || a.kind() == DataType.Kind.TIMESTAMP)
                && (b.kind() == DataType.Kind.DATE || b.kind() == DataType.Kind.TIMESTAMP);
        if (times) {
            return DataType.TIMESTAMP; // Spark: a date column with a timestamp in it is a timestamp column
        }
        return DataType.STRING;
    }

    private static boolean isNumber(DataType t) {
        return switch (t.kind()) {
            case INT, LONG, DOUBLE, DECIMAL -> true;
            default -> false;
        };
    }

    private static int integerDigits(DataType t) {
        return switch (t.kind()) {
            case INT -> 10;
            case LONG -> 20;
            default -> t.precision() - t.scale();
        };
    }
}
