package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** Comparisons, logic, null tests, IN, LIKE and RLIKE as Spark evaluates them. */
final class Predicates {
    private Predicates() {
    }

    /** Spark's ordering of one type's values: -0.0 equals 0.0 and NaN is the greatest double and equals itself; text by code point;
     * arrays and structs element by element, field by field ({@link Orderings}). */
    @SuppressWarnings("unchecked")
    static Comparator<Object> ordering(DataType type) {
        return switch (type.kind()) {
            case DOUBLE, FLOAT -> (a, b) -> {
                double x = ((Number) a).doubleValue();
                double y = ((Number) b).doubleValue();
                return x == y ? 0 : Double.compare(x, y);
            };
            case STRING -> (a, b) -> compareText((String) a, (String) b);
            case DECIMAL -> (a, b) -> ((BigDecimal) a).compareTo((BigDecimal) b);
            case BINARY -> (a, b) -> java.util.Arrays.compareUnsigned((byte[]) a, (byte[]) b);
            case ARRAY, STRUCT -> Orderings.of(type);
            default -> (a, b) -> ((Comparable<Object>) a).compareTo(b);
        };
    }

    static int compareText(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                if (Character.isSurrogate(x) || Character.isSurrogate(y)) {
                    return Integer.compare(a.codePointAt(i), b.codePointAt(i));
                }
                return Character.compare(x, y);
            }
        }
        return Integer.compare(a.length(), b.length());
    }

    static DataType comparable(Analyzer.Call call, List<Bound> args) {
        DataType common = null;
        for (Bound b : args) {
            DataType next = common != null && b.type() != null && (common.isNested() || b.type().isNested())
                    ? NestedTypes.common(common, b.type(), false) : Types.common(common, b.type());
            if (next == null && b.type() != null) {
                throw call.typeError("cannot compare " + String.join(" with ", args.stream().map(a -> a.text() + " (" + Types.name(a.type()) + ")").toList())
                        + "; cast one side to the other's type");
            }
            common = next;
        }
        if (Variants.holdsVariant(common)) {
            throw call.typeError("[DATATYPE_MISMATCH.INVALID_ORDERING_TYPE] " + call.name() + " cannot compare values of " + Types.name(common)
                    + ": a VARIANT has no order or equality in Spark; compare a part of it cast to a type: v:a::int = 1");
        }
        if (CalendarIntervals.holdsCalendar(common)) {
            throw call.typeError("[DATATYPE_MISMATCH.INVALID_ORDERING_TYPE] " + call.name() + " cannot compare values of " + Types.name(common)
                    + ": Spark gives an INTERVAL of months, days and microseconds no order or equality; compare the timestamps it moves"
                    + " (ts + make_interval(...) < end) or its text, CAST(... AS STRING)");
        }
        if (StructFunctions.holdsMap(common)) {
            throw call.typeError("[DATATYPE_MISMATCH.INVALID_ORDERING_TYPE] " + call.name() + " cannot compare values of " + common.ddl()
                    + ": maps have no order or equality in Spark; compare their entries (map_entries, element_at)");
        }
        return common;
    }

    static Bound compare(Analyzer.Call call, List<Bound> args) {
        DataType common = comparable(call, args);
        List<Bound> cast = new ArrayList<>();
        for (Bound b : args) {
            cast.add(call.as(b, common));
        }
        String op = call.name();
        if (common == null) {
            return op.equals("<=>") ? new Bound.Literal(true, DataType.BOOLEAN, call.text()) : new Bound.Literal(null, DataType.BOOLEAN, call.text());
        }
        Comparator<Object> order = ordering(common);
        if (op.equals("<=>")) {
            return call.applyTolerant(cast, DataType.BOOLEAN, (Kernel.Binary) (a, b) ->
                    a == null || b == null ? a == b : order.compare(a, b) == 0);
        }
        Kernel.Binary k = switch (op) {
            case "=" -> (a, b) -> order.compare(a, b) == 0;
            case "<" -> (a, b) -> order.compare(a, b) < 0;
            case "<=" -> (a, b) -> order.compare(a, b) <= 0;
            case ">" -> (a, b) -> order.compare(a, b) > 0;
            default -> (a, b) -> order.compare(a, b) >= 0;
        };
        return call.apply(cast, DataType.BOOLEAN, k);
    }

    static Bound logic(Analyzer.Call call, List<Bound> args) {
        Bound l = call.as(args.get(0), DataType.BOOLEAN);
        Bound r = call.as(args.get(1), DataType.BOOLEAN);
        return new Bound.Logic(call.name().equals("and"), l, r, call.text());
    }

    static Bound not(Analyzer.Call call, List<Bound> args) {
        return call.apply(List.of(call.as(args.get(0), DataType.BOOLEAN)), DataType.BOOLEAN, (Kernel.Unary) v -> !(Boolean) v);
    }

    static Bound isNull(Analyzer.Call call, List<Bound> args) {
        boolean wantNull = call.name().equals("isnull");
        return call.applyTolerant(args, DataType.BOOLEAN, (Kernel.Unary) v -> (v == null) == wantNull);
    }

    static Bound in(Analyzer.Call call, List<Bound> args) {
        DataType common = comparable(call, args);
        List<Bound> cast = args.stream().map(b -> call.as(b, common)).toList();
        Comparator<Object> order = common == null ? (a, b) -> 0 : ordering(common);
        return new Bound.In(cast.get(0), cast.subList(1, cast.size()), (a, b) -> order.compare(a, b) == 0, call.text());
    }

    static Bound like(Analyzer.Call call, List<Bound> args) {
        List<Bound> text = args.stream().map(b -> call.as(b, DataType.STRING)).toList();
        char escape = '\\';
        if (args.size() == 3) {
            if (!(args.get(2) instanceof Bound.Literal lit) || lit.value() == null || ((String) lit.value()).length() != 1) {
                throw call.typeError("the ESCAPE of LIKE must be one character");
            }
            escape = ((String) lit.value()).charAt(0);
        }
        char esc = escape;
        Kernel.Binary k;
        if (call.name().equals("like")) {
            Pattern p = text.get(1) instanceof Bound.Literal lit && lit.value() != null ? compiledOrNull((String) lit.value(), esc) : null;
            if (p != null) {
                k = (a, b) -> p.matcher((String) a).matches();
            } else {
                k = (a, b) -> likePattern((String) b, esc).matcher((String) a).matches();
            }
        } else if (text.get(1) instanceof Bound.Literal lit && lit.value() != null) {
            Pattern p = regex(call, (String) lit.value());
            k = (a, b) -> p.matcher((String) a).find();
        } else {
            k = (a, b) -> Pattern.compile((String) b).matcher((String) a).find();
        }
        return call.apply(text.subList(0, 2), DataType.BOOLEAN, k);
    }

    static Pattern regex(Analyzer.Call call, String pattern) {
        try {
            return Pattern.compile(pattern);
        } catch (PatternSyntaxException e) {
            throw call.typeError("the regular expression '" + pattern + "' is invalid: " + e.getDescription());
        }
    }

    /** The pattern compiled once, or null when it fails (then it fails on each row, as Spark's does). */
    private static Pattern compiledOrNull(String like, char escape) {
        try {
            return likePattern(like, escape);
        } catch (Failure f) {
            return null;
        }
    }

    /** A LIKE pattern as a Java regex: {@code _} one character, {@code %} any, {@code escape} makes the next one literal. */
    static Pattern likePattern(String like, char escape) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < like.length(); i++) {
            char c = like.charAt(i);
            if (c == escape) {
                if (i + 1 == like.length()) {
                    throw Failure.of("INVALID_FORMAT.ESC_AT_THE_END", "the LIKE pattern '" + like + "' ends with its escape character");
                }
                char n = like.charAt(++i);
                if (n != '_' && n != '%' && n != escape) {
                    throw Failure.of("INVALID_FORMAT.ESC_IN_THE_MIDDLE", "in the LIKE pattern '" + like + "' the escape character precedes '" + n
                            + "'; it may precede only _, % and itself");
                }
                sb.append(Pattern.quote(String.valueOf(n)));
            } else if (c == '_') {
                sb.append('.');
            } else if (c == '%') {
                sb.append(".*");
            } else {
                sb.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(sb.toString(), Pattern.DOTALL);
    }

    /** {@code a || b}: text concatenation, null if either is null. */
    static Bound concatPipe(Analyzer.Call call, List<Bound> args) {
        List<Bound> text = args.stream().map(b -> call.as(b, DataType.STRING)).toList();
        return call.apply(text, DataType.STRING, (Kernel.Binary) (a, b) -> (String) a + b);
    }
}
