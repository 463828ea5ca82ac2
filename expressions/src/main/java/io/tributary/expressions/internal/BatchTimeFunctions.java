package io.tributary.expressions.internal;

import io.tributary.expressions.ExpressionErrors;
import io.tributary.schema.DataType;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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

    private BatchTimeFunctions() {
    }

    static boolean isBatchTime(String name) {
        return TYPES.containsKey(name.toLowerCase(Locale.ROOT));
    }

    /** Whether {@code name} is one Spark also reads without parentheses ({@code CURRENT_DATE}), when no column has that name. */
    static boolean isKeyword(String name) {
        return name.equalsIgnoreCase("current_date") || name.equalsIgnoreCase("current_timestamp");
    }

    /** The call {@code c} of one of them; refused when it has arguments or when no batch runs the expression ({@code clock} null). */
    static Bound resolve(Node.Call c, BatchClock clock, String source) {
        String name = c.name().toLowerCase(Locale.ROOT);
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
}
