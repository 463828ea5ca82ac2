package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;

/** IF, COALESCE and its cousins, NULLIF, GREATEST and LEAST: their arguments meet in one type, as Spark's. */
final class ConditionalFunctions {
    private ConditionalFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("if", 3, 3, "if(cond BOOLEAN, a T, b T) → T", "b when cond is null", "a when cond is true, else b",
                (call, args) -> {
                    DataType type = common(call, args.subList(1, 3));
                    return new Bound.Case(List.of(call.as(args.get(0), DataType.BOOLEAN)), List.of(call.as(args.get(1), type)),
                            call.as(args.get(2), type), type, call.text());
                }));
        FunctionDef coalesce = Fn.custom("coalesce", 1, -1, "coalesce(T, ...) → T", "null only if every argument is null",
                "the first argument that is not null", ConditionalFunctions::coalesce);
        add.accept(coalesce);
        add.accept(Fn.custom("nvl", 2, 2, "nvl(a T, b T) → T", "null only if both are null", "a, or b when a is null", ConditionalFunctions::coalesce));
        add.accept(Fn.custom("ifnull", 2, 2, "ifnull(a T, b T) → T", "null only if both are null", "a, or b when a is null", ConditionalFunctions::coalesce));
        add.accept(Fn.custom("nvl2", 3, 3, "nvl2(a, b T, c T) → T", "c when a is null", "b when a is not null, else c", (call, args) -> {
            DataType type = common(call, args.subList(1, 3));
            Bound notNull = call.applyTolerant(List.of(args.get(0)), DataType.BOOLEAN, (Kernel.Unary) v -> v != null);
            return new Bound.Case(List.of(notNull), List.of(call.as(args.get(1), type)), call.as(args.get(2), type), type, call.text());
        }));
        add.accept(Fn.custom("nullif", 2, 2, "nullif(a T, b T) → T", "a when b is null", "null when a equals b, else a", (call, args) -> {
            DataType type = Predicates.comparable(call, args);
            Comparator<Object> order = type == null ? (x, y) -> 0 : Predicates.ordering(type);
            Bound a = call.as(args.get(0), type);
            Bound b = call.as(args.get(1), type);
            DataType result = args.get(0).type();
            Bound compared = call.applyTolerant(List.of(args.get(0), a, b), result, v ->
                    v[1] == null ? null : v[2] != null && order.compare(v[1], v[2]) == 0 ? null : v[0]); // a as it is, not cast back
            // Spark's NullIf is if(a = b, NULL, a): b is not evaluated where a is null
            Bound aIsNull = call.applyTolerant(List.of(args.get(0)), DataType.BOOLEAN, (Kernel.Unary) v -> v == null);
            return new Bound.Case(List.of(aIsNull), List.of(new Bound.Literal(null, result, "NULL")), compared, result, call.text());
        }));
        add.accept(Fn.custom("greatest", 2, -1, "greatest(T, ...) → T", "nulls skipped; null if all are null",
                "the greatest argument (NaN above any double)", (call, args) -> extreme(call, args, 1)));
        add.accept(Fn.custom("least", 2, -1, "least(T, ...) → T", "nulls skipped; null if all are null", "the least argument",
                (call, args) -> extreme(call, args, -1)));
    }

    static DataType common(Analyzer.Call call, List<Bound> args) {
        DataType type = null;
        for (Bound b : args) {
            DataType next = Types.common(type, b.type());
            if (next == null && b.type() != null) {
                throw call.typeError("the arguments have no common type: "
                        + String.join(", ", args.stream().map(a -> a.text() + " " + Types.name(a.type())).toList()));
            }
            type = next;
        }
        return type;
    }

    private static Bound coalesce(Analyzer.Call call, List<Bound> args) {
        DataType type = common(call, args);
        List<Bound> cast = new ArrayList<>();
        for (Bound b : args) {
            cast.add(call.as(b, type));
        }
        return new Bound.Coalesce(cast, type, call.text());
    }

    private static Bound extreme(Analyzer.Call call, List<Bound> args, int sign) {
        boolean text = args.stream().anyMatch(b -> b.type() != null && b.type().kind() == DataType.Kind.STRING);
        if (text && args.stream().anyMatch(b -> b.type() != null && b.type().kind() != DataType.Kind.STRING)) {
            // Spark widens greatest's and least's arguments without promoting text (DATATYPE_MISMATCH.DATA_DIFF_TYPES)
            throw call.typeError("the arguments mix text with other types (" + String.join(", ", args.stream()
                    .map(a -> a.text() + " " + Types.name(a.type())).toList()) + "); cast them to one type (DATATYPE_MISMATCH.DATA_DIFF_TYPES)");
        }
        DataType type = common(call, args);
        List<Bound> cast = args.stream().map(b -> call.as(b, type)).toList();
        Comparator<Object> order = type == null ? (x, y) -> 0 : Orderings.of(call, type);
        return call.applyTolerant(cast, type, a -> {
            Object best = null;
            for (Object v : a) {
                if (v != null && (best == null || sign * order.compare(v, best) > 0)) {
                    best = v;
                }
            }
            return best;
        });
    }
}
