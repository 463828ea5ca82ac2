package io.tributary.topology.internal;

import io.tributary.expressions.ThetaSketches;
import io.tributary.expressions.TupleSketches;
import io.tributary.expressions.TupleSketches.Kind;
import io.tributary.expressions.TupleSketches.Mode;
import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import io.tributary.topology.Aggregate;
import io.tributary.topology.AggregateFunction;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads Spark's tuple sketch aggregates: {@code tuple_sketch_agg_*(key, summary [, lgNomEntries [, mode]])},
 * {@code tuple_union_agg_*(sketch [, lgNomEntries [, mode]])} and {@code tuple_intersection_agg_*(sketch [, mode])} (double,
 * integer). The columns come first; lgNomEntries (an integer from 4 to 26, 12 by default) and the mode ({@code 'sum'}, the default,
 * {@code 'min'}, {@code 'max'}, {@code 'alwaysone'}) are constants, refused at start where Spark refuses them.
 */
final class TupleSketchParser {
    /** The forms, as an error lists them. */
    static final String FORMS = "tuple_sketch_agg_double(key, summary [, lgNomEntries [, mode]]), tuple_sketch_agg_integer(...),"
            + " tuple_union_agg_double(sketch [, lgNomEntries [, mode]]), tuple_union_agg_integer(...), tuple_intersection_agg_double(sketch"
            + " [, mode]), tuple_intersection_agg_integer(...)";
    private static final Pattern CALL = Pattern.compile("\\s*(tuple_(sketch|union|intersection)_agg_(double|integer))\\s*\\((.*)\\)\\s*",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d{1,9}[LlSsYy]?|'\\s*[+-]?\\d{1,9}\\s*'|\"\\s*[+-]?\\d{1,9}\\s*\"");

    /** An aggregate's constants: its lgNomEntries (that of a fresh intersection for tuple_intersection_agg) and mode. */
    record Constants(int lgNom, Mode mode) {
    }

    private TupleSketchParser() {
    }

    /** Whether {@code expression} is a call of one of the six. */
    static boolean isCall(String expression) {
        return expression != null && CALL.matcher(expression).matches();
    }

    /** The kind of summary of {@code f}. */
    static Kind kind(AggregateFunction f) {
        return f.name().endsWith("_DOUBLE") ? Kind.DOUBLE : Kind.INTEGER;
    }

    /** Parses one call; {@code key} names where it came from in the spec, for errors. */
    static Aggregate parse(String key, String name, String expression, Schema input) {
        Matcher m = CALL.matcher(expression);
        if (!m.matches()) {
            throw TopologyErrors.unreadableExpression(key, expression, FORMS);
        }
        String text = expression.strip();
        AggregateFunction f = AggregateFunction.valueOf(m.group(1).toUpperCase(Locale.ROOT));
        List<String> args = arguments(m.group(4));
        String which = m.group(2).toLowerCase(Locale.ROOT);
        int columns = which.equals("sketch") ? 2 : 1;
        int most = which.equals("intersection") ? 2 : columns + 2;
        if (args.size() < columns || args.size() > most || args.stream().anyMatch(String::isEmpty)) {
            throw SketchErrors.tupleArguments(key, text, f.sqlName(), FORMS);
        }
        Aggregate.Argument x = column(key, args.get(0), text, input);
        Aggregate.Argument summary = columns == 2 ? column(key, args.get(1), text, input) : null;
        List<String> constants = args.subList(columns, args.size());
        boolean lgNom = !which.equals("intersection");
        if (lgNom && !constants.isEmpty()) {
            lgNom(key, f, constants.get(0), text);
        }
        if (constants.size() == (lgNom ? 2 : 1)) {
            mode(key, f, constants.get(constants.size() - 1), text);
        }
        Kind kind = kind(f);
        if (columns == 2 ? TupleSketches.keyType(x.type()) == null : x.type().kind() != DataType.Kind.BINARY
                && x.type().kind() != DataType.Kind.STRING) { // a STRING sketch as Spark casts it to BINARY (TupleSketchAggregates.sketch)
            throw SketchErrors.notSketchable(key, text, x.type().ddl(), f.sqlName(), columns == 2
                    ? "a key of INT, BIGINT, FLOAT, DOUBLE, STRING, BINARY or an array of numbers (TINYINT, SMALLINT and DECIMAL as DOUBLE;"
                    + " DATE, TIMESTAMP and BOOLEAN as STRING; an array as ARRAY<INT> unless of BIGINT, as Spark casts them)" : "a BINARY sketch (or STRING, read as its UTF-8 bytes)");
        }
        if (summary != null && TupleSketches.summaryType(kind, summary.type()) == null) {
            throw SketchErrors.notSketchable(key, text, summary.type().ddl(), f.sqlName(), kind == Kind.DOUBLE
                    ? "a numeric or STRING summary (cast to DOUBLE)" : "a numeric or STRING summary (cast to INT, as Spark casts it)");
        }
        return new Aggregate(name, f, x.column(), x.index(), x.type(), DataType.BINARY, text, summary);
    }

    /** The constants of a call {@link #parse} read. */
    static Constants constants(Aggregate a) {
        Matcher m = CALL.matcher(a.expression());
        if (!m.matches()) {
            throw new IllegalArgumentException(a.expression());
        }
        List<String> args = arguments(m.group(4));
        String which = m.group(2).toLowerCase(Locale.ROOT);
        List<String> constants = args.subList(which.equals("sketch") ? 2 : 1, args.size());
        boolean takesLgNom = !which.equals("intersection");
        int lgNom = takesLgNom && !constants.isEmpty() ? integer(constants.get(0)) : TupleSketches.DEFAULT_LG_NOM;
        Mode mode = constants.size() == (takesLgNom ? 2 : 1) ? Mode.parse(unquoted(constants.get(constants.size() - 1)), a.function().sqlName())
                : Mode.SUM;
        return new Constants(lgNom, mode);
    }

    private static void lgNom(String key, AggregateFunction f, String text, String expression) {
        if (!INTEGER.matcher(text).matches()) {
            throw SketchErrors.notConstant(key, expression, f.sqlName(), text, "an integer constant, the lgNomEntries (Spark's DATATYPE_MISMATCH."
                    + spark(text) + ")");
        }
        String invalid = ThetaSketches.invalidLgNom(f.sqlName(), integer(text));
        if (invalid != null) {
            throw SketchErrors.invalidLgNom(key, expression, invalid);
        }
    }

    private static void mode(String key, AggregateFunction f, String text, String expression) {
        boolean quoted = text.length() >= 2 && (text.startsWith("'") && text.endsWith("'") || text.startsWith("\"") && text.endsWith("\""));
        if (!quoted && !text.matches("[+-]?[\\d.]+[A-Za-z]*")) {
            throw SketchErrors.notConstant(key, expression, f.sqlName(), text, "a constant mode: 'sum', 'min', 'max' or 'alwaysone' (Spark's"
                    + " DATATYPE_MISMATCH." + spark(text) + ")");
        }
        try {
            Mode.parse(quoted ? unquoted(text) : text, f.sqlName());
        } catch (io.tributary.expressions.ExpressionException e) {
            throw SketchErrors.invalidMode(key, expression, "[" + e.condition() + "] " + e.reason());
        }
    }

    /** Spark's DATATYPE_MISMATCH subclass of a constant that is not one: a null, a column, or a constant of the wrong type. */
    private static String spark(String text) {
        return text.equalsIgnoreCase("null") ? "UNEXPECTED_NULL" : text.matches("`.*`|[A-Za-z_][A-Za-z_0-9]*") ? "NON_FOLDABLE_INPUT"
                : "UNEXPECTED_INPUT_TYPE";
    }

    private static int integer(String text) {
        return Integer.parseInt(unquoted(text).strip().replaceAll("[LlSsYy]$", ""));
    }

    private static String unquoted(String text) {
        return text.length() >= 2 && (text.startsWith("'") || text.startsWith("\"")) ? text.substring(1, text.length() - 1) : text;
    }

    private static Aggregate.Argument column(String key, String arg, String expression, Schema input) {
        String column = arg.startsWith("`") && arg.endsWith("`") ? arg.substring(1, arg.length() - 1).replace("``", "`") : arg;
        int index = input.indexOf(column);
        if (index < 0) {
            throw TopologyErrors.aggregateColumnNotInSchema(key, column, expression, input.toDdl());
        }
        return new Aggregate.Argument(input.field(index).name(), index, input.field(index).type());
    }

    /** The call's arguments, split at the commas outside quotes and backquotes, stripped. */
    private static List<String> arguments(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
            } else if (c == ',') {
                out.add(cur.toString().strip());
                cur.setLength(0);
                continue;
            }
            cur.append(c);
        }
        out.add(cur.toString().strip());
        return out;
    }
}
