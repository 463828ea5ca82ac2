package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.BINARY;
import static io.tributary.schema.DataType.DOUBLE;
import static io.tributary.schema.DataType.LONG;
import static io.tributary.schema.DataType.STRING;

import io.tributary.expressions.KllSketches;
import io.tributary.expressions.KllSketches.Kind;
import io.tributary.schema.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Spark 4.2's scalar functions over KLL quantile sketches (the BINARY values of kll_sketch_agg_* and kll_merge_agg_*), five for
 * each kind of sketch (bigint, float, double): {@code kll_sketch_get_n_*}, {@code kll_sketch_get_quantile_*},
 * {@code kll_sketch_get_rank_*}, {@code kll_sketch_merge_*} and {@code kll_sketch_to_string_*}, computed by {@link KllSketches}
 * with the library Spark uses. Bytes that are no sketch of the kind fail the row with KLL_INVALID_INPUT_SKETCH_BUFFER, a rank
 * outside 0 to 1 with KLL_SKETCH_INVALID_QUANTILE_RANGE.
 */
final class KllFunctions {
    private KllFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        for (Kind kind : Kind.values()) {
            register(add, kind);
        }
    }

    private static void register(Consumer<FunctionDef> add, Kind kind) {
        String s = kind.suffix();
        String item = kind.item().ddl();
        String n = "kll_sketch_get_n_" + s;
        add.accept(Fn.custom(n, 1, 1, n + "(sketch BINARY) → BIGINT", FunctionDef.NULL_IN_NULL_OUT,
                "how many values a KLL sketch of kll_sketch_agg_" + s + " was fed",
                (call, args) -> call.apply(List.of(call.as(args.get(0), BINARY)), LONG,
                        (Kernel.Unary) v -> SketchFunctions.failing(() -> KllSketches.n(kind, (byte[]) v, n)))));
        String q = "kll_sketch_get_quantile_" + s;
        add.accept(Fn.custom(q, 2, 2, q + "(sketch BINARY, rank DOUBLE or ARRAY<DOUBLE>) → " + item + " or ARRAY<" + item + ">",
                FunctionDef.NULL_IN_NULL_OUT, "the value at a normalized rank (0 to 1, a constant) of a KLL sketch, or the values at"
                        + " an array of ranks; KLL_SKETCH_INVALID_QUANTILE_RANGE outside 0 to 1, KLL_INVALID_INPUT_SKETCH_BUFFER for an"
                        + " empty sketch or bytes that are no sketch",
                (call, args) -> {
                    Bound sketch = call.as(args.get(0), BINARY);
                    Bound rank = constant(call, args.get(1), "rank");
                    if (isArray(rank)) {
                        return call.apply(List.of(sketch, numeric(call, rank, Types.arrayOf(DOUBLE))), Types.arrayOf(kind.item()),
                                (Kernel.Binary) (b, r) -> SketchFunctions.failing(() -> new ArrayList<>(List.of(KllSketches.quantiles(kind, (byte[]) b,
                                        doubles((List<?>) r), q)))));
                    }
                    return call.apply(List.of(sketch, numeric(call, rank, DOUBLE)), kind.item(),
                            (Kernel.Binary) (b, r) -> SketchFunctions.failing(() -> KllSketches.quantile(kind, (byte[]) b, (Double) r, q)));
                }));
        String r = "kll_sketch_get_rank_" + s;
        add.accept(Fn.custom(r, 2, 2, r + "(sketch BINARY, value " + item + " or ARRAY<" + item + ">) → DOUBLE or ARRAY<DOUBLE>",
                FunctionDef.NULL_IN_NULL_OUT, "the normalized rank (0 to 1) of a value (a constant) in a KLL sketch: the share of the"
                        + " values fed at or below it; of each value of an array; KLL_INVALID_INPUT_SKETCH_BUFFER for an empty sketch or"
                        + " bytes that are no sketch",
                (call, args) -> {
                    Bound sketch = call.as(args.get(0), BINARY);
                    Bound value = constant(call, args.get(1), "quantile");
                    if (isArray(value)) {
                        return call.apply(List.of(sketch, numeric(call, value, Types.arrayOf(kind.item()))), Types.arrayOf(DOUBLE),
                                (Kernel.Binary) (b, v) -> SketchFunctions.failing(() -> boxed(KllSketches.ranks(kind, (byte[]) b, ((List<?>) v).toArray(), r))));
                    }
                    return call.apply(List.of(sketch, numeric(call, value, kind.item())), DOUBLE,
                            (Kernel.Binary) (b, v) -> SketchFunctions.failing(() -> KllSketches.rank(kind, (byte[]) b, v, r)));
                }));
        String m = "kll_sketch_merge_" + s;
        add.accept(Fn.custom(m, 2, 2, m + "(a BINARY, b BINARY) → BINARY", FunctionDef.NULL_IN_NULL_OUT,
                "the KLL sketch of the values both sketches were fed (the first's k kept, the smaller k for the error)",
                (call, args) -> call.apply(List.of(call.as(args.get(0), BINARY), call.as(args.get(1), BINARY)), BINARY,
                        (Kernel.Binary) (a, b) -> SketchFunctions.failing(() -> KllSketches.merged(kind, (byte[]) a, (byte[]) b, m)))));
        String t = "kll_sketch_to_string_" + s;
        add.accept(Fn.custom(t, 1, 1, t + "(sketch BINARY) → STRING", FunctionDef.NULL_IN_NULL_OUT,
                "the library's summary of a KLL sketch (k, n, levels, min and max items) as text",
                (call, args) -> call.apply(List.of(call.as(args.get(0), BINARY)), STRING,
                        (Kernel.Unary) v -> SketchFunctions.failing(() -> KllSketches.text(kind, (byte[]) v, t)))));
    }

    /** {@code b} (a constant) as {@code type}: a number, or an array of numbers, cast to it whatever its type, as Spark's implicit casts do. */
    private static Bound numeric(Analyzer.Call call, Bound b, DataType type) {
        if (!isArray(b)) {
            return b.type() != null && Types.numeric(b.type()) ? call.castTo(b, type) : call.as(b, type);
        }
        DataType from = b.type().element();
        if (from == null || !Types.numeric(from) || from.equals(type.element())) {
            return call.as(b, type);
        }
        Kernel.Unary cast = Casts.kernel(from, type.element());
        Object values = Interpreter.eval(b, new Object[0]);
        if (values == null) {
            return new Bound.Literal(null, type, b.text());
        }
        List<Object> out = new ArrayList<>();
        for (Object v : (List<?>) values) {
            out.add(cast.apply1(v));
        }
        return new Bound.Literal(out, type, b.text());
    }

    private static boolean isArray(Bound b) {
        return b.type() != null && b.type().kind() == DataType.Kind.ARRAY;
    }

    /**
     * The rank or value argument, which Spark requires constant (its NON_FOLDABLE_INPUT); an array of them must hold no null, as
     * Spark takes only an array whose type says so (its UNEXPECTED_INPUT_TYPE).
     */
    private static Bound constant(Analyzer.Call call, Bound b, String what) {
        if (!Bound.constant(b)) {
            throw call.typeError("[DATATYPE_MISMATCH.NON_FOLDABLE_INPUT] the " + what + " of " + call.name() + " must be a constant, and '"
                    + b.text() + "' is not one");
        }
        if (isArray(b) && Interpreter.eval(b, new Object[0]) instanceof List<?> l && l.contains(null)) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] the " + what + " of " + call.name() + " must be an array without"
                    + " nulls, and '" + b.text() + "' holds one");
        }
        return b;
    }

    private static double[] doubles(List<?> ranks) {
        double[] out = new double[ranks.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = ((Number) ranks.get(i)).doubleValue();
        }
        return out;
    }

    private static List<Object> boxed(double[] values) {
        List<Object> out = new ArrayList<>(values.length);
        for (double v : values) {
            out.add(v);
        }
        return out;
    }
}
