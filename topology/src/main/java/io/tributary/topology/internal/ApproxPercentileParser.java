package io.tributary.topology.internal;

import io.tributary.schema.DataType;
import io.tributary.topology.Aggregate;
import io.tributary.topology.AggregateFunction;
import java.util.List;

/**
 * Reads {@code percentile_approx(x, p [, accuracy])} and {@code approx_percentile} into an {@link Aggregate}, with Spark's
 * result type (the input's, or an array of it when {@code p} is an array) and its refusals at start: {@code p} and
 * {@code accuracy} constants, each percentage in [0, 1], the accuracy (10000 unless given) in [1, 2147483647]. The accuracy is
 * kept as the aggregate's constant second argument.
 */
final class ApproxPercentileParser {
    static final String FORMS = "percentile_approx(col, p [, accuracy]), approx_percentile(col, p [, accuracy])";
    private static final int DEFAULT_ACCURACY = 10_000;

    private ApproxPercentileParser() {
    }

    static Aggregate parse(String key, String name, AggregateFunction function, String text, Aggregate.Argument x, List<String> args) {
        switch (x.type().kind()) {
            case BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, DECIMAL, DATE, TIMESTAMP, TIMESTAMP_NTZ, STRING -> { // text as its DOUBLE: CastArguments
            }
            default -> throw OrderStatisticErrors.orderStatisticType(key, text, x.column(), x.type().ddl(),
                    "a number, a DATE, a TIMESTAMP or an interval");
        }
        Object p = OrderStatisticParser.percentages(key, text, args.get(1));
        boolean array = p instanceof List<?>;
        List<Double> percentages = array ? OrderStatisticParser.castList(p) : List.of((Double) p);
        int accuracy = args.size() == 3 ? accuracy(key, text, args.get(2)) : DEFAULT_ACCURACY;
        DataType type = x.type().kind() == DataType.Kind.STRING ? DataType.DOUBLE : x.type();
        DataType result = array ? DataType.array(type) : type;
        return new Aggregate(name, function, x.column(), x.index(), x.type(), result, text,
                Aggregate.Argument.constant(String.valueOf(accuracy), DataType.INT), new Aggregate.Constants(percentages, array, false, false));
    }

    /** The accuracy, a constant integral number in [1, 2147483647], as Spark requires it when the query starts. */
    private static int accuracy(String key, String expression, String text) {
        Object v = OrderStatisticParser.constant(key, expression, text, null);
        if (v == null) {
            throw OrderStatisticErrors.accuracy(key, expression, text, "is NULL", "UNEXPECTED_NULL");
        }
        if (!(v instanceof Byte || v instanceof Short || v instanceof Integer || v instanceof Long)) {
            throw OrderStatisticErrors.orderStatisticType(key, expression, text, "non-integral constant", "an integral number (accuracy)");
        }
        long a = ((Number) v).longValue();
        if (a <= 0 || a > Integer.MAX_VALUE) {
            throw OrderStatisticErrors.accuracy(key, expression, text, "is " + a + ", outside (0, 2147483647]", "VALUE_OUT_OF_RANGE");
        }
        return (int) a;
    }
}
