package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.BINARY;
import static io.tributary.schema.DataType.BOOLEAN;
import static io.tributary.schema.DataType.LONG;

import io.tributary.expressions.ExpressionException;
import io.tributary.expressions.HllSketches;
import io.tributary.schema.DataType;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Spark's scalar functions over HyperLogLog sketches (the BINARY values hll_sketch_agg and hll_union_agg give):
 * {@code hll_sketch_estimate} and {@code hll_union}, computed by {@link HllSketches} with the library Spark uses, so that a
 * union is Spark's byte for byte. A buffer that is no sketch fails the row with HLL_INVALID_INPUT_SKETCH_BUFFER.
 */
final class SketchFunctions {
    private SketchFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("hll_sketch_estimate", 1, 1, "hll_sketch_estimate(sketch BINARY) → BIGINT", FunctionDef.NULL_IN_NULL_OUT,
                "the estimated number of distinct values a HyperLogLog sketch (of hll_sketch_agg or hll_union_agg) counted;"
                        + " HLL_INVALID_INPUT_SKETCH_BUFFER for bytes that are no sketch",
                (call, args) -> call.apply(List.of(typed(call, args.get(0), BINARY)), LONG,
                        (Kernel.Unary) v -> failing(() -> HllSketches.estimate((byte[]) v)))));
        add.accept(Fn.custom("hll_union", 2, 3, "hll_union(a BINARY, b BINARY[, allowDifferentLgConfigK BOOLEAN]) → BINARY",
                FunctionDef.NULL_IN_NULL_OUT, "the union of two HyperLogLog sketches, of the smaller lgConfigK; sketches of different"
                        + " lgConfigK fail with HLL_UNION_DIFFERENT_LG_K unless allowDifferentLgConfigK is true (false by default)",
                (call, args) -> call.apply(List.of(typed(call, args.get(0), BINARY), typed(call, args.get(1), BINARY),
                        args.size() > 2 ? typed(call, args.get(2), BOOLEAN) : new Bound.Literal(false, BOOLEAN, "false")), BINARY,
                        a -> failing(() -> HllSketches.union((byte[]) a[0], (byte[]) a[1], (Boolean) a[2])))));
    }

    /** An argument of exactly {@code type} (or NULL): Spark casts nothing to a sketch's BINARY or to the BOOLEAN flag. */
    private static Bound typed(Analyzer.Call call, Bound b, DataType type) {
        if (b.type() != null && !Types.is(b.type(), type.kind())) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] " + call.name() + " needs a " + type.ddl() + ", and '" + b.text()
                    + "' is " + Types.name(b.type()));
        }
        return call.as(b, type);
    }

    /** A sketch's failure as the row's failure, with Spark's error class. */
    static Object failing(Supplier<Object> f) {
        try {
            return f.get();
        } catch (ExpressionException e) {
            throw Failure.of(e.condition(), e.reason());
        }
    }
}
