package io.tributary.topology.internal;

import io.tributary.expressions.SelectItems;
import io.tributary.expressions.Transform;
import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.topology.Aggregate;
import io.tributary.topology.AggregateFunction;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads Spark's exact order statistics into an {@link Aggregate}: {@code percentile(x, p [, frequency])} (p a number or an
 * array of numbers), {@code median(x)}, {@code percentile_cont(p) WITHIN GROUP (ORDER BY x [DESC])}, {@code percentile_disc(...)},
 * {@code mode(x [, deterministic])} and {@code mode() WITHIN GROUP (ORDER BY x [DESC])}, with Spark's result types and its
 * refusals at start. {@code x} and {@code frequency} are columns (the service computes an expression into one); the others are
 * constants, evaluated once.
 */
final class OrderStatisticParser {
    static final String FUNCTIONS = "percentile(col, p [, frequency]), median(col), percentile_cont(p) WITHIN GROUP (ORDER BY col [DESC]), "
            + "percentile_disc(p) WITHIN GROUP (ORDER BY col [DESC]), mode(col [, deterministic]), mode() WITHIN GROUP (ORDER BY col [DESC]), "
            + ApproxPercentileParser.FORMS;

    /** What a constant is compiled over: no column it may read (a schema has one column at least). */
    private static final Schema NO_COLUMNS = Schema.parse("`_no columns_` INT");

    private OrderStatisticParser() {
    }

    /** The order statistic {@code expression} calls, or null when it calls another function. */
    static AggregateFunction function(String expression) {
        int paren = expression.indexOf('(');
        if (paren < 0) {
            return null;
        }
        String name = expression.substring(0, paren).strip().toUpperCase(Locale.ROOT);
        try {
            AggregateFunction f = AggregateFunction.valueOf(name);
            return f.orderStatistic() ? f : null;
        } catch (IllegalArgumentException notOne) {
            return null;
        }
    }

    static Aggregate parse(String key, String name, AggregateFunction function, String expression, Schema input) {
        String text = expression.strip();
        List<String> call;
        try {
            call = SelectItems.aggregateCall(text);
        } catch (TributaryException e) {
            throw TopologyErrors.unreadableExpression(key, text, OrderStatisticParser.FUNCTIONS);
        }
        List<String> args = new ArrayList<>(call.subList(1, call.size()));
        boolean within = !args.isEmpty() && args.get(args.size() - 1).startsWith("WITHIN GROUP "); // SelectItems.aggregateCall's form
        boolean descending = within && args.remove(args.size() - 1).endsWith("DESC");
        if (function == AggregateFunction.PERCENTILE_APPROX || function == AggregateFunction.APPROX_PERCENTILE) {
            if (within || args.size() < 2 || args.size() > 3 || args.contains("*")) {
                throw OrderStatisticErrors.orderStatisticArguments(key, text, function.sqlName(), ApproxPercentileParser.FORMS);
            }
            return ApproxPercentileParser.parse(key, name, function, text, column(key, args.get(0), text, input), args);
        }
        boolean needsWithin = function == AggregateFunction.PERCENTILE_CONT || function == AggregateFunction.PERCENTILE_DISC;
        int least = function == AggregateFunction.PERCENTILE || needsWithin ? 2 : 1;
        int most = function == AggregateFunction.PERCENTILE ? 3 : function == AggregateFunction.MEDIAN || needsWithin ? least : 2;
        if (needsWithin != within && function != AggregateFunction.MODE || within && function == AggregateFunction.MODE && args.size() != 1
                || args.size() < least || args.size() > most || args.contains("*")) {
            throw OrderStatisticErrors.orderStatisticArguments(key, text, function.sqlName(), OrderStatisticParser.FUNCTIONS);
        }
        Aggregate.Argument x = column(key, args.get(0), text, input);
        Aggregate.Argument frequency = function == AggregateFunction.PERCENTILE && args.size() == 3 ? column(key, args.get(2), text, input) : null;
        if (frequency != null && !integral(frequency.type())) {
            throw OrderStatisticErrors.orderStatisticType(key, text, frequency.column(), frequency.type().ddl(), "an integral number (frequency)");
        }
        DataType result;
        Aggregate.Constants constants;
        if (function == AggregateFunction.MODE) {
            if (x.type().isNested()) {
                throw TopologyErrors.nonPrimitiveAggregate(key, text, x.type().kind());
            }
            boolean deterministic = args.size() == 2 && Boolean.TRUE.equals(constant(key, text, args.get(1), DataType.BOOLEAN));
            constants = new Aggregate.Constants(List.of(), false, descending, within || deterministic);
            result = x.type();
        } else {
            if (!numeric(x.type()) && x.type().kind() != DataType.Kind.STRING) { // text as Spark's CAST(x AS DOUBLE): CastArguments
                throw OrderStatisticErrors.orderStatisticType(key, text, x.column(), x.type().ddl(), "a number");
            }
            Object p = function == AggregateFunction.MEDIAN ? 0.5 : percentages(key, text, args.get(1));
            boolean array = p instanceof List<?>;
            List<Double> percentages = array ? castList(p) : List.of((Double) p);
            constants = new Aggregate.Constants(percentages, array, descending, false);
            result = array ? DataType.array(DataType.DOUBLE) : DataType.DOUBLE; // percentile_disc too, as Spark 4.2 gives it
        }
        return new Aggregate(name, function, x.column(), x.index(), x.type(), result, text, frequency, constants);
    }

    @SuppressWarnings("unchecked")
    static List<Double> castList(Object p) {
        return (List<Double>) p;
    }

    /** A percentage or an array of them, each in [0, 1], as Spark requires them when the query starts. */
    static Object percentages(String key, String expression, String text) {
        Object v = constant(key, expression, text, null);
        if (v instanceof List<?> list) {
            List<Double> out = new ArrayList<>();
            for (Object e : list) {
                out.add(percentage(key, expression, text, e));
            }
            return List.copyOf(out);
        }
        return percentage(key, expression, text, v);
    }

    private static Double percentage(String key, String expression, String text, Object v) {
        if (v == null) {
            throw OrderStatisticErrors.percentageNull(key, expression, text);
        }
        if (!(v instanceof Number n) || v instanceof Double && Double.isNaN((Double) v)) {
            throw OrderStatisticErrors.percentageNotNumber(key, expression, text);
        }
        double p = n.doubleValue();
        if (p < 0 || p > 1) {
            throw OrderStatisticErrors.percentageOutOfRange(key, expression, text);
        }
        return p;
    }

    /** The value of a constant argument ({@code 0.5}, {@code array(0.25, 0.75)}, {@code true}); a column in it is refused. */
    static Object constant(String key, String expression, String text, DataType expected) {
        Transform t;
        try {
            t = Transform.compile(NO_COLUMNS, null, List.of(text + " AS `c`"));
        } catch (TributaryException e) {
            throw OrderStatisticErrors.notConstant(key, expression, text);
        }
        DataType type = t.output().field(0).type();
        if (expected != null && type.kind() != expected.kind()) {
            throw OrderStatisticErrors.orderStatisticType(key, expression, text, type.ddl(), expected.ddl());
        }
        Object v = t.apply(new Object[1])[0];
        if (v instanceof java.math.BigDecimal d) {
            return d.doubleValue();
        }
        return v;
    }

    static Aggregate.Argument column(String key, String arg, String expression, Schema input) {
        String column = SelectItems.isColumn(arg) ? SelectItems.name(arg) : arg;
        int index = input.indexOf(column);
        if (index < 0) {
            throw TopologyErrors.aggregateColumnNotInSchema(key, column, expression, input.toDdl());
        }
        return new Aggregate.Argument(input.field(index).name(), index, input.field(index).type());
    }

    private static boolean numeric(DataType t) {
        return switch (t.kind()) {
            case BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, DECIMAL -> true;
            default -> false;
        };
    }

    private static boolean integral(DataType t) {
        return switch (t.kind()) {
            case BYTE, SHORT, INT, LONG -> true;
            default -> false;
        };
    }
}
