package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.BINARY;
import static io.tributary.schema.DataType.DOUBLE;
import static io.tributary.schema.DataType.INT;
import static io.tributary.schema.DataType.LONG;
import static io.tributary.schema.DataType.STRING;

import io.tributary.expressions.ExpressionException;
import io.tributary.expressions.ThetaSketches;
import io.tributary.expressions.TupleSketches;
import io.tributary.expressions.TupleSketches.Kind;
import io.tributary.expressions.TupleSketches.Mode;
import io.tributary.schema.DataType;
import java.util.List;
import java.util.function.Consumer;

/**
 * Spark 4.2's scalar functions over tuple sketches (the BINARY values of tuple_sketch_agg_*, tuple_union_agg_* and
 * tuple_intersection_agg_*), nine for each kind of summary (double, integer): {@code tuple_sketch_estimate_*},
 * {@code tuple_sketch_theta_*}, {@code tuple_sketch_summary_*}, {@code tuple_union_*}, {@code tuple_intersection_*},
 * {@code tuple_difference_*} and their {@code _theta_} forms over a tuple sketch and a Theta sketch, computed by
 * {@link TupleSketches} with the library Spark uses. The lgNomEntries (an INT, 4 to 26) and the mode (sum, min, max, alwaysone) are
 * constants, refused when they are not as Spark refuses them; bytes that are no tuple sketch of the kind fail the row with
 * TUPLE_INVALID_INPUT_SKETCH_BUFFER (or _FAMILY for a sketch of another kind).
 */
final class TupleSketchFunctions {
    private static final String MODES = "sum, min, max or alwaysone";

    private TupleSketchFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        for (Kind kind : Kind.values()) {
            register(add, kind);
        }
    }

    private static void register(Consumer<FunctionDef> add, Kind kind) {
        String s = kind.suffix();
        String agg = "tuple_sketch_agg_" + s;
        String e = "tuple_sketch_estimate_" + s;
        add.accept(Fn.custom(e, 1, 1, e + "(sketch BINARY) → DOUBLE", FunctionDef.NULL_IN_NULL_OUT,
                "the estimated number of distinct keys a tuple sketch (of " + agg + ", tuple_union_agg_" + s + ", ...) holds;"
                        + " TUPLE_INVALID_INPUT_SKETCH_BUFFER for bytes that are no sketch",
                (call, args) -> call.apply(List.of(typed(call, args.get(0), BINARY)), DOUBLE,
                        (Kernel.Unary) v -> SketchFunctions.failing(() -> TupleSketches.estimate(kind, (byte[]) v)))));
        String t = "tuple_sketch_theta_" + s;
        add.accept(Fn.custom(t, 1, 1, t + "(sketch BINARY) → DOUBLE", FunctionDef.NULL_IN_NULL_OUT,
                "the sampling rate (theta, 0 to 1) of a tuple sketch: 1.0 while it keeps every key",
                (call, args) -> call.apply(List.of(typed(call, args.get(0), BINARY)), DOUBLE,
                        (Kernel.Unary) v -> SketchFunctions.failing(() -> TupleSketches.theta(kind, (byte[]) v)))));
        String m = "tuple_sketch_summary_" + s;
        DataType summary = kind == Kind.DOUBLE ? DOUBLE : LONG;
        add.accept(Fn.custom(m, 1, 2, m + "(sketch BINARY[, mode STRING]) → " + summary.ddl(), FunctionDef.NULL_IN_NULL_OUT,
                "the kept keys' summaries combined by mode (a constant): sum (the default), min, max, or alwaysone (how many);"
                        + " 0 for an empty sketch",
                (call, args) -> {
                    Mode mode = args.size() > 1 ? mode(call, args.get(1)) : Mode.SUM;
                    return call.apply(List.of(typed(call, args.get(0), BINARY)), summary,
                            (Kernel.Unary) v -> SketchFunctions.failing(() -> TupleSketches.summaries(kind, (byte[]) v, mode)));
                }));
        for (boolean theta : new boolean[] {false, true}) {
            String second = theta ? "theta BINARY" : "b BINARY";
            String of = theta ? "a tuple sketch and a Theta sketch (whose keys get the mode's empty summary: 0 for sum, 1 for alwaysone)"
                    : "two tuple sketches";
            String u = theta ? "tuple_union_theta_" + s : "tuple_union_" + s;
            add.accept(Fn.custom(u, 2, 4, u + "(a BINARY, " + second + "[, lgNomEntries INT[, mode STRING]]) → BINARY",
                    FunctionDef.NULL_IN_NULL_OUT, "the union of " + of + ", of 2^lgNomEntries nominal entries (12 by default; 4 to 26),"
                            + " summaries of one key combined by mode (sum by default; " + MODES + ")",
                    (call, args) -> {
                        int lgNom = args.size() > 2 ? lgNom(call, args.get(2)) : TupleSketches.DEFAULT_LG_NOM;
                        Mode mode = args.size() > 3 ? mode(call, args.get(3)) : Mode.SUM;
                        return call.apply(List.of(typed(call, args.get(0), BINARY), typed(call, args.get(1), BINARY)), BINARY,
                                (Kernel.Binary) (a, b) -> SketchFunctions.failing(() -> TupleSketches.union(kind, (byte[]) a, (byte[]) b, lgNom,
                                        mode, theta)));
                    }));
            String i = theta ? "tuple_intersection_theta_" + s : "tuple_intersection_" + s;
            add.accept(Fn.custom(i, 2, 3, i + "(a BINARY, " + second + "[, mode STRING]) → BINARY", FunctionDef.NULL_IN_NULL_OUT,
                    "the intersection of " + of + ": the keys both hold, their summaries combined by mode (sum by default; " + MODES + ")",
                    (call, args) -> {
                        Mode mode = args.size() > 2 ? mode(call, args.get(2)) : Mode.SUM;
                        return call.apply(List.of(typed(call, args.get(0), BINARY), typed(call, args.get(1), BINARY)), BINARY,
                                (Kernel.Binary) (a, b) -> SketchFunctions.failing(() -> TupleSketches.intersection(kind, (byte[]) a, (byte[]) b,
                                        mode, theta)));
                    }));
            String d = theta ? "tuple_difference_theta_" + s : "tuple_difference_" + s;
            add.accept(Fn.custom(d, 2, 2, d + "(a BINARY, " + second + ") → BINARY", FunctionDef.NULL_IN_NULL_OUT,
                    "the difference of " + (theta ? "a tuple sketch and a Theta sketch" : "two tuple sketches")
                            + ": the keys of a that b does not hold, with a's summaries",
                    (call, args) -> call.apply(List.of(typed(call, args.get(0), BINARY), typed(call, args.get(1), BINARY)), BINARY,
                            (Kernel.Binary) (a, b) -> SketchFunctions.failing(() -> TupleSketches.difference(kind, (byte[]) a, (byte[]) b,
                                    theta)))));
        }
    }

    /** An argument of exactly {@code type} (or NULL): Spark casts nothing to a sketch's BINARY, lgNomEntries' INT or a mode's STRING. */
    private static Bound typed(Analyzer.Call call, Bound b, DataType type) {
        if (b.type() != null && !Types.is(b.type(), type.kind())) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] " + call.name() + " needs a " + type.ddl() + ", and '" + b.text()
                    + "' is " + Types.name(b.type()));
        }
        return call.as(b, type);
    }

    /** The constant value of {@code b}, a {@code what} of the call: refused when it is not a constant or is null, as Spark refuses it. */
    private static Object constant(Analyzer.Call call, Bound b, DataType type, String what) {
        Bound typed = typed(call, b, type);
        if (!Bound.constant(typed)) {
            throw call.typeError("[DATATYPE_MISMATCH.NON_FOLDABLE_INPUT] the " + what + " of " + call.name() + " must be a constant, and '"
                    + b.text() + "' is not one");
        }
        Object v = Interpreter.eval(typed, new Object[0]);
        if (v == null) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_NULL] the " + what + " of " + call.name() + " must not be null");
        }
        return v;
    }

    private static Mode mode(Analyzer.Call call, Bound b) {
        String text = (String) constant(call, b, STRING, "mode");
        try {
            return Mode.parse(text, call.name());
        } catch (ExpressionException e) {
            throw call.typeError("[DATATYPE_MISMATCH.TYPE_CHECK_FAILURE_WITH_HINT] [" + e.condition() + "] " + e.reason());
        }
    }

    private static int lgNom(Analyzer.Call call, Bound b) {
        int lgNom = (Integer) constant(call, b, INT, "lgNomEntries");
        String invalid = ThetaSketches.invalidLgNom(call.name(), lgNom);
        if (invalid != null) {
            throw call.typeError("[DATATYPE_MISMATCH.TYPE_CHECK_FAILURE_WITH_HINT] " + invalid);
        }
        return lgNom;
    }
}
