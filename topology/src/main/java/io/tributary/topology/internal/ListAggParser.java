package io.tributary.topology.internal;

import io.tributary.expressions.Having;
import io.tributary.expressions.Transform;
import io.tributary.expressions.SelectItems;
import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.topology.Aggregate;
import io.tributary.topology.AggregateFunction;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads {@code listagg(x [, delimiter]) [WITHIN GROUP (ORDER BY key [ASC|DESC] [NULLS FIRST|LAST], ...)]} and {@code string_agg}
 * into an {@link Aggregate}, with Spark 4.2's types and refusals at start: {@code x} BINARY (a BINARY result) or of a type Spark
 * casts to STRING (a STRING result), the delimiter a constant of the same kind (or NULL, or left out: empty), the keys columns of
 * a type Spark orders (the service computes an expression into one). A call reaches here in the form
 * {@code SelectItems.aggregateCall} gives: {@code x}, the delimiter, then each key followed by its direction
 * ({@code WITHIN GROUP DESC NULLS LAST}).
 */
final class ListAggParser {
    static final String FORMS = "listagg(col [, delimiter]) [WITHIN GROUP (ORDER BY col [ASC|DESC] [NULLS FIRST|LAST], ...)],"
            + " string_agg(...) alike";

    /** What a constant is compiled over: no column it may read. */
    private static final Schema NO_COLUMNS = Schema.parse("`_no columns_` INT");

    private ListAggParser() {
    }

    /** Whether {@code expression} calls listagg or string_agg. */
    static boolean isCall(String expression) {
        int paren = expression.indexOf('(');
        String name = paren < 0 ? "" : expression.substring(0, paren).strip().toLowerCase(Locale.ROOT);
        return name.equals("listagg") || name.equals("string_agg");
    }

    static Aggregate parse(String key, String name, String expression, Schema input) {
        String text = expression.strip();
        List<String> call;
        try {
            call = SelectItems.aggregateCall(text);
        } catch (TributaryException e) {
            throw TopologyErrors.unreadableExpression(key, text, FORMS);
        }
        AggregateFunction function = AggregateFunction.valueOf(call.get(0).toUpperCase(Locale.ROOT));
        List<String> args = new ArrayList<>(call.subList(1, call.size()));
        List<String[]> sortItems = new ArrayList<>();
        while (args.size() >= 2 && args.get(args.size() - 1).startsWith(Having.WITHIN_GROUP)) {
            sortItems.add(0, new String[] {args.get(args.size() - 2), args.get(args.size() - 1)});
            args.subList(args.size() - 2, args.size()).clear();
        }
        if (args.isEmpty() || args.size() > 2 || args.contains("*")) {
            throw OrderStatisticErrors.orderStatisticArguments(key, text, function.sqlName(), FORMS);
        }
        Aggregate.Argument x = OrderStatisticParser.column(key, args.get(0), text, input);
        DataType type = resultType(key, function, x.type(), text);
        Object delimiter = args.size() == 2 ? delimiter(key, text, args.get(1), type) : empty(type);
        List<Aggregate.SortKey> keys = new ArrayList<>();
        for (String[] item : sortItems) {
            Aggregate.Argument k = OrderStatisticParser.column(key, item[0], text, input);
            if (k.type().isNested()) {
                throw TopologyErrors.nonPrimitiveAggregate(key, text, k.type().kind());
            }
            keys.add(new Aggregate.SortKey(k, item[1].contains(" DESC"), item[1].endsWith("NULLS FIRST")));
        }
        return new Aggregate(name, function, x.column(), x.index(), x.type(), type, text, null, null,
                new Aggregate.Joining(delimiter, List.copyOf(keys)));
    }

    /** BINARY for BINARY values, else STRING (Spark casts a number, a date, a timestamp, a boolean); a nested type refused. */
    static DataType resultType(String key, AggregateFunction function, DataType in, String expression) {
        if (in.isNested()) {
            throw ListAggErrors.notStringOrBinary(key, expression, in.ddl(), function.sqlName());
        }
        return in.kind() == DataType.Kind.BINARY ? in : DataType.STRING;
    }

    private static Object empty(DataType type) {
        return type.kind() == DataType.Kind.BINARY ? new byte[0] : "";
    }

    /**
     * The delimiter's value: a constant, BINARY for BINARY values, else cast to STRING as Spark casts it ({@code 1} is
     * {@code '1'}); NULL is no delimiter.
     */
    private static Object delimiter(String key, String expression, String text, DataType type) {
        Object v = text.strip().equalsIgnoreCase("NULL") ? null : constant(key, expression, text);
        if (v == null) {
            return empty(type);
        }
        if (v instanceof byte[] != (type.kind() == DataType.Kind.BINARY)) {
            throw ListAggErrors.delimiterType(key, expression, text, type.ddl());
        }
        return v instanceof byte[] || v instanceof String ? v : constant(key, expression, "CAST((" + text + ") AS STRING)");
    }

    private static Object constant(String key, String expression, String text) {
        if (SelectItems.isColumn(text)) { // a column, though over no columns `user` would read as current_user()
            throw ListAggErrors.delimiterNotConstant(key, expression, text);
        }
        try {
            Transform t = Transform.compile(NO_COLUMNS, null, List.of(text + " AS `c`"));
            return t.apply(new Object[1])[0];
        } catch (TributaryException notConstant) {
            throw ListAggErrors.delimiterNotConstant(key, expression, text);
        }
    }
}
