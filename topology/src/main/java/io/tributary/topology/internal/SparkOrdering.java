package io.tributary.topology.internal;

import io.tributary.schema.DataType;
import java.math.BigDecimal;
import java.util.Arrays;

/** Spark's ordering of non-null values: NaN above all numbers, -0.0 equal to 0.0, strings by code point, binary unsigned. */
final class SparkOrdering {
    private SparkOrdering() {
    }

    static int compare(DataType type, Object a, Object b) {
        return switch (type.kind()) {
            case BYTE, SHORT, INT, DATE -> Integer.compare(((Number) a).intValue(), ((Number) b).intValue());
            case LONG, TIMESTAMP, TIMESTAMP_NTZ -> Long.compare((Long) a, (Long) b);
            case FLOAT, DOUBLE -> compareDoubles(((Number) a).doubleValue(), ((Number) b).doubleValue());
            case DECIMAL -> ((BigDecimal) a).compareTo((BigDecimal) b);
            case STRING -> compareCodePoints((String) a, (String) b);
            case BOOLEAN -> Boolean.compare((Boolean) a, (Boolean) b);
            case BINARY -> Arrays.compareUnsigned((byte[]) a, (byte[]) b);
            default -> throw new IllegalArgumentException("no ordering for " + type.ddl());
        };
    }

    private static int compareDoubles(double x, double y) {
        return x == y ? 0 : Double.compare(x, y);
    }

    private static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Boolean.compare(i < a.length(), j < b.length());
    }
}
