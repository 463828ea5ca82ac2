package io.tributary.expressions.internal;

import io.tributary.expressions.ExpressionErrors;
import io.tributary.schema.DataType;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Spark's functions of the current time, which a streaming query evaluates once per micro-batch
 * ({@code CurrentBatchTimestamp}): every row of a batch reads the batch's start from the transform's {@link BatchClock},
 * in the session time zone, UTC.
 */
final class BatchTimeFunctions {
    private static final Map<String, DataType> TYPES = Map.of(
            "current_timestamp", DataType.TIMESTAMP,
            "now", DataType.TIMESTAMP,
            "current_date", DataType.DATE,
            "curdate", DataType.DATE,
            "localtimestamp", DataType.TIMESTAMP_NTZ,
            "current_timezone", DataType.STRING);
    static final String ZONE = "UTC";
    private static final String CURRENT_TIME = "current_time";

    private BatchTimeFunctions() {
    }

    static boolean isBatchTime(String name) {
        return TYPES.containsKey(name.toLowerCase(Locale.ROOT)) || name.equalsIgnoreCase(CURRENT_TIME);
    }

    /** Whether {@code name} is one Spark also reads without parentheses ({@code CURRENT_DATE}), when no column has that name. */
    static boolean isKeyword(String name) {
        return name.equalsIgnoreCase("current_date") || name.equalsIgnoreCase("current_timestamp") || name.equalsIgnoreCase(CURRENT_TIME);
    }

    /** The call {@code c} of one of them; refused when it has arguments or when no batch runs the expression ({@code clock} null). */
    static Bound resolve(Node.Call c, BatchClock clock, String source, Function<Node, Bound> resolver) {
        String name = c.name().toLowerCase(Locale.ROOT);
        if (name.equals(CURRENT_TIME)) {
            return currentTime(c, clock, source, resolver);
        }
        DataType type = TYPES.get(name);
        if (!c.args().isEmpty()) {
            throw ExpressionErrors.wrongArity(source, c.position(), c.name(), "0", c.args().size(), name + "() → " + Types.name(type));
        }
        if (clock == null) {
            throw ExpressionErrors.noBatchTime(source, c.position(), c.text());
        }
        clock.markRead();
        Kernel k = switch (name) {
            case "current_timestamp", "now", "localtimestamp" -> args -> clock.micros();
            case "current_date", "curdate" -> args -> clock.days();
            default -> args -> ZONE;
        };
        return new Bound.Apply(name, List.of(), k, true, type, c.text());
    }

    /**
     * {@code current_time([p])}: the batch's start as a time of day in UTC, TIME(p) of p digits of fraction (6 by default); p a
     * constant from 0 to 6, as Spark requires.
     */
    private static Bound currentTime(Node.Call c, BatchClock clock, String source, Function<Node, Bound> resolver) {
        String sig = "current_time([precision INT]) → TIME(precision)";
        if (c.args().size() > 1) {
            throw ExpressionErrors.wrongArity(source, c.position(), c.name(), "0 or 1", c.args().size(), sig);
        }
        int precision = 6;
        if (c.args().size() == 1) {
            Node arg = c.args().get(0);
            Object p;
            try {
                Bound b = resolver.apply(arg);
                p = Types.integral(b.type()) ? Interpreter.eval(b, new Object[0]) : null;
            } catch (RuntimeException notConstant) {
                p = null;
            }
            if (!(p instanceof Number n) || n.longValue() < 0 || n.longValue() > 6) {
                throw ExpressionErrors.typeMismatch(source, arg.position(), arg.text(), "the precision of current_time is a whole number"
                        + " from 0 to 6 known at start (Spark's DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE), and '" + arg.text() + "' is not");
            }
            precision = n.intValue();
        }
        if (clock == null) {
            throw ExpressionErrors.noBatchTime(source, c.position(), c.text());
        }
        clock.markRead();
        int p = precision;
        return new Bound.Apply(CURRENT_TIME, List.of(), args -> Times.ofMicros(clock.micros(), p), true, Times.type(p), c.text());
    }
}
