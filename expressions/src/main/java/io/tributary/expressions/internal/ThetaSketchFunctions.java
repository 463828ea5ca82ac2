package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.BINARY;
import static io.tributary.schema.DataType.INT;
import static io.tributary.schema.DataType.LONG;

import io.tributary.expressions.ExpressionException;
import io.tributary.expressions.ThetaSketches;
import io.tributary.schema.DataType;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Spark's scalar functions over Theta sketches (the BINARY values theta_sketch_agg, theta_union_agg and theta_intersection_agg
 * give): {@code theta_sketch_estimate}, {@code theta_union}, {@code theta_intersection} and {@code theta_difference}, computed by
 * {@link ThetaSketches} with the library Spark uses, so that a result is Spark's byte for byte. Bytes that are no compact Theta
 * sketch fail the row with THETA_INVALID_INPUT_SKETCH_BUFFER (or _FAMILY for a sketch of another kind).
 */
final class ThetaSketchFunctions {
    private ThetaSketchFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("theta_sketch_estimate", 1, 1, "theta_sketch_estimate(sketch BINARY) → BIGINT", FunctionDef.NULL_IN_NULL_OUT,
                "the estimated number of distinct values a Theta sketch (of theta_sketch_agg, theta_union_agg, ...) holds;"
                        + " THETA_INVALID_INPUT_SKETCH_BUFFER for bytes that are no sketch",
                (call, args) -> call.apply(List.of(typed(call, args.get(0), BINARY)), LONG,
                        (Kernel.Unary) v -> failing(() -> ThetaSketches.estimate((byte[]) v)))));
        add.accept(Fn.custom("theta_union", 2, 3, "theta_union(a BINARY, b BINARY[, lgNomEntries INT]) → BINARY", FunctionDef.NULL_IN_NULL_OUT,
                "the union of two Theta sketches, of 2^lgNomEntries nominal entries (12 by default; 4 to 26, else"
                        + " SKETCH_INVALID_LG_NOM_ENTRIES)",
                (call, args) -> call.apply(List.of(typed(call, args.get(0), BINARY), typed(call, args.get(1), BINARY),
                        args.size() > 2 ? typed(call, args.get(2), INT) : new Bound.Literal(ThetaSketches.DEFAULT_LG_NOM, INT, "12")), BINARY,
                        a -> failing(() -> ThetaSketches.union((byte[]) a[0], (byte[]) a[1], (Integer) a[2])))));
        add.accept(Fn.custom("theta_intersection", 2, 2, "theta_intersection(a BINARY, b BINARY) → BINARY", FunctionDef.NULL_IN_NULL_OUT,
                "the intersection of two Theta sketches: the values both hold",
                (call, args) -> call.apply(List.of(typed(call, args.get(0), BINARY), typed(call, args.get(1), BINARY)), BINARY,
                        a -> failing(() -> ThetaSketches.intersection((byte[]) a[0], (byte[]) a[1])))));
        add.accept(Fn.custom("theta_difference", 2, 2, "theta_difference(a BINARY, b BINARY) → BINARY", FunctionDef.NULL_IN_NULL_OUT,
                "the difference of two Theta sketches: the values of a that b does not hold",
                (call, args) -> call.apply(List.of(typed(call, args.get(0), BINARY), typed(call, args.get(1), BINARY)), BINARY,
                        a -> failing(() -> ThetaSketches.difference((byte[]) a[0], (byte[]) a[1])))));
    }

    /** An argument of exactly {@code type} (or NULL): Spark casts nothing to a sketch's BINARY or to lgNomEntries' INT. */
    private static Bound typed(Analyzer.Call call, Bound b, DataType type) {
        if (b.type() != null && !Types.is(b.type(), type.kind())) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] " + call.name() + " needs a " + type.ddl() + ", and '" + b.text()
                    + "' is " + Types.name(b.type()));
        }
        return call.as(b, type);
    }

    /** A sketch's failure as the row's failure, with Spark's error class. */
    private static Object failing(Supplier<Object> f) {
        try {
            return f.get();
        } catch (ExpressionException e) {
            throw Failure.of(e.condition(), e.reason());
        }
    }
}
