package io.tributary.topology.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.topology.Aggregate;
import io.tributary.topology.AggregateFunction;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** Reads {@code sum(amt)}, {@code count(*)}, ... into an {@link Aggregate} with Spark's result type. */
public final class AggregateParser {
    private static final String ARGUMENT = "(\\*|`(?:[^`]|``)+`|[^(),\\s]+)";
    private static final Pattern CALL = Pattern.compile("\\s*([A-Za-z_][A-Za-z_0-9]*)\\s*\\(\\s*" + ARGUMENT + "\\s*(?:,\\s*" + ARGUMENT
            + "\\s*)?\\)\\s*");
    private static final String FUNCTIONS = Arrays.stream(AggregateFunction.values())
            .filter(f -> !f.orderStatistic() && !f.tupleSketch() && f != AggregateFunction.LISTAGG && f != AggregateFunction.STRING_AGG)
            .map(f -> f == AggregateFunction.COUNT ? "count(*), count(col)" : f.sqlName() + (f.arity() == 2 ? "(col, col)"
                    : f == AggregateFunction.APPROX_COUNT_DISTINCT ? "(col [, rsd])" : f.takesConstant() ? "(col [, constant])" : "(col)"))
            .collect(Collectors.joining(", ")) + ", " + OrderStatisticParser.FUNCTIONS + ", " + ListAggParser.FORMS + ", "
            + TupleSketchParser.FORMS;

    private AggregateParser() {
    }

    /** Whether {@code text} is written as one call of a function over a column or {@code *} (or two columns), as an aggregate is. */
    public static boolean isCall(String text) {
        return text != null && CALL.matcher(text).matches();
    }

    /** Parses one aggregate; {@code key} names where it came from in the spec, for errors. */
    public static Aggregate parse(String key, String name, String expression, Schema input) {
        if (expression == null) {
            throw TopologyErrors.noExpression(key);
        }
        AggregateFunction statistic = OrderStatisticParser.function(expression);
        if (statistic != null) {
            return OrderStatisticParser.parse(key, name, statistic, expression, input);
        }
        if (ListAggParser.isCall(expression)) {
            return ListAggParser.parse(key, name, expression, input);
        }
        if (TupleSketchParser.isCall(expression)) {
            return TupleSketchParser.parse(key, name, expression, input);
        }
        Matcher m = CALL.matcher(expression);
        if (!m.matches()) {
            throw TopologyErrors.unreadableExpression(key, expression, FUNCTIONS);
        }
        AggregateFunction function = function(key, m.group(1), expression);
        String arg = m.group(2);
        if (function.takesConstant() && m.group(3) != null && !"*".equals(arg)) {
            Aggregate.Argument x = argument(key, arg, expression, input);
            return new Aggregate(name, function, x.column(), x.index(), x.type(), resultType(key, function, x.type(), expression.strip()),
                    expression.strip(), function == AggregateFunction.APPROX_COUNT_DISTINCT ? HyperLogLogPlusPlus.relativeSd(key, m.group(3),
                    expression.strip()) : function.name().startsWith("THETA_") ? ThetaSketchAggregates.constant(key, function, m.group(3),
                    expression.strip()) : KllSketchAggregates.kll(function) ? KllSketchAggregates.constant(key, function, m.group(3),
                    expression.strip()) : HllSketchAggregates.constant(key, function, m.group(3), expression.strip()));
        }
        if (m.group(3) != null && ignoresNulls(function)) { // first(x, true): Spark's ignoreNulls, a BOOLEAN constant
            Aggregate.Argument x = argument(key, arg, expression, input);
            String flag = m.group(3).toLowerCase(Locale.ROOT);
            if (!flag.equals("true") && !flag.equals("false")) {
                throw TopologyErrors.notBoolean(key, expression.strip(), m.group(3), function.sqlName());
            }
            return new Aggregate(name, function, x.column(), x.index(), x.type(), resultType(key, function, x.type(), expression.strip()),
                    expression.strip(), Aggregate.Argument.constant(flag, DataType.BOOLEAN));
        }
        if ((m.group(3) == null ? 1 : 2) != function.arity()) {
            throw TopologyErrors.wrongArgumentCount(key, expression.strip(), function.sqlName(), function.arity());
        }
        if (arg.equals("*") || "*".equals(m.group(3))) {
            if (function != AggregateFunction.COUNT) {
                throw TopologyErrors.starNotAggregate(key, function.sqlName());
            }
            return new Aggregate(name, function, null, -1, null, DataType.LONG, expression.strip());
        }
        Aggregate.Argument x = argument(key, arg, expression, input);
        Aggregate.Argument ord = m.group(3) == null ? null : argument(key, m.group(3), expression, input);
        if (ord != null && (function == AggregateFunction.MAX_BY || function == AggregateFunction.MIN_BY)) {
            primitive(key, ord.type(), expression.strip()); // ordered by Spark's ordering of a primitive type
        } else if (ord != null) {
            resultType(key, function, ord.type(), expression.strip()); // corr, the covariances and regr_*: both numbers
        }
        DataType result = resultType(key, function, function == AggregateFunction.REGR_AVGX ? ord.type() : x.type(), expression.strip());
        return new Aggregate(name, function, x.column(), x.index(), x.type(), result, expression.strip(), ord);
    }

    /** first, last, any_value and their aliases, which take Spark's ignoreNulls as a second, constant argument. */
    private static boolean ignoresNulls(AggregateFunction f) {
        return f == AggregateFunction.FIRST || f == AggregateFunction.LAST || f == AggregateFunction.FIRST_VALUE
                || f == AggregateFunction.LAST_VALUE || f == AggregateFunction.ANY_VALUE;
    }

    private static Aggregate.Argument argument(String key, String arg, String expression, Schema input) {
        String column = arg.startsWith("`") ? arg.substring(1, arg.length() - 1).replace("``", "`") : arg;
        int index = input.indexOf(column);
        if (index < 0) {
            throw TopologyErrors.aggregateColumnNotInSchema(key, column, expression.strip(), input.toDdl());
        }
        return new Aggregate.Argument(input.field(index).name(), index, input.field(index).type());
    }

    private static AggregateFunction function(String key, String text, String expression) {
        try {
            return AggregateFunction.valueOf(text.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw TopologyErrors.unknownFunction(key, text, expression.strip(), FUNCTIONS);
        }
    }

    static DataType resultType(String key, AggregateFunction function, DataType in, String expression) {
        return switch (function) {
            case COUNT -> DataType.LONG;
            case COUNT_IF -> {
                if (in.kind() != DataType.Kind.BOOLEAN) {
                    throw TopologyErrors.notBoolean(key, expression, in.ddl(), function.sqlName());
                }
                yield DataType.LONG;
            }
            case MIN, MAX, FIRST, LAST, ANY_VALUE, FIRST_VALUE, LAST_VALUE, MAX_BY, MIN_BY -> primitive(key, in, expression);
            case COLLECT_LIST, COLLECT_SET, ARRAY_AGG -> DataType.array(primitive(key, in, expression));
            case BOOL_AND, EVERY, BOOL_OR, SOME, ANY -> {
                if (in.kind() != DataType.Kind.BOOLEAN) {
                    throw TopologyErrors.notBoolean(key, expression, in.ddl(), function.sqlName());
                }
                yield DataType.BOOLEAN;
            }
            case BIT_AND, BIT_OR, BIT_XOR -> switch (in.kind()) {
                case BYTE, SHORT, INT, LONG -> in;
                default -> throw TopologyErrors.notIntegral(key, expression, in.ddl(), function.sqlName());
            };
            case APPROX_COUNT_DISTINCT -> HyperLogLogPlusPlus.hashable(key, in, expression);
            case HLL_SKETCH_AGG, HLL_UNION_AGG -> HllSketchAggregates.resultType(key, function, in, expression);
            case THETA_SKETCH_AGG, THETA_UNION_AGG, THETA_INTERSECTION_AGG -> ThetaSketchAggregates.resultType(key, function, in, expression);
            case KLL_SKETCH_AGG_BIGINT, KLL_SKETCH_AGG_FLOAT, KLL_SKETCH_AGG_DOUBLE, KLL_MERGE_AGG_BIGINT, KLL_MERGE_AGG_FLOAT, KLL_MERGE_AGG_DOUBLE ->
                    KllSketchAggregates.resultType(key, function, in, expression);
            case STDDEV, STDDEV_SAMP, STDDEV_POP, VARIANCE, VAR_SAMP, VAR_POP, STD, SKEWNESS, KURTOSIS, CORR, COVAR_POP, COVAR_SAMP,
                 REGR_COUNT, REGR_SXX, REGR_SYY, REGR_SXY, REGR_SLOPE, REGR_INTERCEPT, REGR_R2 -> switch (in.kind()) {
                case BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, DECIMAL, STRING -> // a STRING as Spark casts it to DOUBLE (CastArguments)
                        function == AggregateFunction.REGR_COUNT ? DataType.LONG : DataType.DOUBLE;
                default -> throw notNumeric(key, function, in, expression);
            };
            case PERCENTILE, MEDIAN, PERCENTILE_CONT, PERCENTILE_DISC -> DataType.DOUBLE; // OrderStatisticParser reads them
            case MODE, PERCENTILE_APPROX, APPROX_PERCENTILE -> primitive(key, in, expression); // OrderStatisticParser reads the estimates
            case LISTAGG, STRING_AGG -> ListAggParser.resultType(key, function, in, expression);
            case SCHEMA_OF_VARIANT_AGG -> { // over the schema_of_variant texts the source computes of its VARIANT argument
                if (in.kind() != DataType.Kind.STRING) {
                    throw TopologyErrors.notVariant(key, expression, in.ddl());
                }
                yield DataType.STRING;
            }
            case TUPLE_SKETCH_AGG_DOUBLE, TUPLE_SKETCH_AGG_INTEGER, TUPLE_UNION_AGG_DOUBLE, TUPLE_UNION_AGG_INTEGER, TUPLE_INTERSECTION_AGG_DOUBLE,
                 TUPLE_INTERSECTION_AGG_INTEGER -> DataType.BINARY; // TupleSketchParser reads them
            case VECTOR_SUM, VECTOR_AVG -> {
                if (in.kind() != DataType.Kind.ARRAY || in.element().kind() != DataType.Kind.FLOAT) {
                    throw TopologyErrors.notFloatArray(key, expression, in.ddl(), function.sqlName());
                }
                yield in;
            }
            case SUM, TRY_SUM -> switch (in.kind()) {
                case BYTE, SHORT, INT, LONG -> DataType.LONG;
                case FLOAT, DOUBLE, STRING, TIMESTAMP -> DataType.DOUBLE; // a TIMESTAMP as its seconds since 1970 (CastArguments)
                case DECIMAL -> DataType.decimal(Math.min(38, in.precision() + 10), in.scale());
                default -> throw notNumeric(key, function, in, expression);
            };
            case AVG, MEAN, TRY_AVG, REGR_AVGX, REGR_AVGY -> switch (in.kind()) {
                case BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, STRING -> DataType.DOUBLE;
                case TIMESTAMP -> { // avg, mean and try_avg as sum; Spark's regr_avgx and regr_avgy cast no TIMESTAMP
                    if (function == AggregateFunction.REGR_AVGX || function == AggregateFunction.REGR_AVGY) {
                        throw notNumeric(key, function, in, expression);
                    }
                    yield DataType.DOUBLE;
                }
                case DECIMAL -> DataType.decimal(Math.min(38, in.precision() + 4), Math.min(38, in.scale() + 4));
                default -> throw notNumeric(key, function, in, expression);
            };
        };
    }

    private static DataType primitive(String key, DataType in, String expression) {
        if (in.isNested()) {
            throw TopologyErrors.nonPrimitiveAggregate(key, expression, in.kind());
        }
        return in;
    }

    private static TributaryException notNumeric(String key, AggregateFunction f, DataType in, String expression) {
        return TopologyErrors.notNumeric(key, expression, in.ddl(), f.sqlName());
    }
}
