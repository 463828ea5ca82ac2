package io.tributary.expressions;

import io.tributary.schema.DataType;
import java.nio.charset.StandardCharsets;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;
import org.apache.datasketches.hll.Union;
import org.apache.datasketches.memory.Memory;

/**
 * Spark's HyperLogLog sketches (Apache DataSketches' {@code HllSketch}, in the version Spark 4.2 ships), the one place that reaches
 * the library: {@code hll_sketch_agg}'s buffer, fed and merged as Spark's {@code HllSketchAgg} feeds and merges it, {@code
 * hll_union_agg}'s union ({@code HllUnionAgg}), and the scalars {@code hll_sketch_estimate} and {@code hll_union}. A sketch leaves
 * as {@code toUpdatableByteArray()}, type HLL_8, as Spark writes it, so that Spark reads Tributary's sketches and the reverse. A
 * buffer that is no sketch, or sketches of different lgConfigK where they must agree, fail with Spark's error class (a buffer
 * cut short too, where Spark fails with the library's bare MemoryBoundsException).
 */
public final class HllSketches {
    /** Spark's default lgConfigK, and its bounds (DataSketches' own). */
    public static final int DEFAULT_LG_K = 12;
    public static final int MIN_LG_K = 4;
    public static final int MAX_LG_K = 21;
    private static final TgtHllType TARGET = TgtHllType.HLL_8;

    private HllSketches() {
    }

    /** Whether hll_sketch_agg takes a column of {@code type}: INT, BIGINT, STRING and BINARY (Spark's types, after its casts). */
    public static boolean sketches(DataType type) {
        return switch (type.kind()) {
            case BYTE, SHORT, INT, LONG, STRING, BINARY -> true;
            default -> false;
        };
    }

    /** An empty sketch of lgConfigK {@code lgK}, as hll_sketch_agg's buffer starts. */
    public static HllSketch empty(int lgK) {
        return new HllSketch(lgK, TARGET);
    }

    /**
     * {@code sketch} fed one non-null value as Spark's HllSketchAgg.update feeds it: an integer as a BIGINT, text as its UTF-8
     * bytes (the empty text skipped), bytes as they are (DataSketches skips empty ones). The sketch is changed in place.
     */
    public static void update(HllSketch sketch, Object value) {
        if (value instanceof String s) {
            if (!s.isEmpty()) {
                sketch.update(s.getBytes(StandardCharsets.UTF_8));
            }
        } else if (value instanceof byte[] b) {
            sketch.update(b);
        } else {
            sketch.update(((Number) value).longValue());
        }
    }

    /** Spark's HllSketchAgg.merge: a union of {@code a}'s lgConfigK updated with {@code a}, then {@code b}. */
    public static HllSketch merge(HllSketch a, HllSketch b) {
        Union union = new Union(a.getLgConfigK());
        union.update(a);
        union.update(b);
        return union.getResult(TARGET);
    }

    /** The bytes Spark writes of a sketch (its buffer between stages, in the state store, and the aggregate's value). */
    public static byte[] bytes(HllSketch sketch) {
        return sketch.toUpdatableByteArray();
    }

    /** A sketch read back from {@link #bytes} (Spark's deserialize). */
    public static HllSketch sketch(byte[] bytes) {
        return HllSketch.heapify(bytes);
    }

    /**
     * hll_union_agg's buffer ({@code null} before any sketch) after one more sketch, as Spark's HllUnionAgg.update: the first
     * sketch's lgConfigK makes the union; later sketches of another lgConfigK fail unless {@code allowDifferent}. In place.
     */
    public static Union unionUpdate(Union union, byte[] sketchBytes, boolean allowDifferent) {
        HllSketch sketch;
        try {
            sketch = HllSketch.wrap(Memory.wrap(sketchBytes));
        } catch (RuntimeException | Error e) {
            throw invalidBuffer("hll_union_agg");
        }
        Union out = union == null ? new Union(sketch.getLgConfigK()) : union;
        compare(out.getLgConfigK(), sketch.getLgConfigK(), allowDifferent, "hll_union_agg");
        out.update(sketch);
        return out;
    }

    /** Spark's HllUnionAgg.merge of two buffers (either may be {@code null}): {@code a} updated with {@code b}'s result. */
    public static Union unionMerge(Union a, Union b, boolean allowDifferent) {
        if (a == null || b == null) {
            return a == null ? b : a;
        }
        compare(a.getLgConfigK(), b.getLgConfigK(), allowDifferent, "hll_union_agg");
        a.update(b.getResult(TARGET));
        return a;
    }

    /** The bytes of hll_union_agg's buffer, as Spark serializes it and as the aggregate's value (an empty union of lgConfigK 12 for none). */
    public static byte[] unionBytes(Union union) {
        return (union == null ? new Union() : union).toUpdatableByteArray();
    }

    /** hll_union_agg's buffer read back from {@link #unionBytes}. */
    public static Union union(byte[] bytes) {
        return Union.heapify(bytes);
    }

    /** A copy of a union buffer, to keep the one it came from unchanged. */
    public static Union copy(Union union) {
        return union == null ? null : Union.heapify(union.toUpdatableByteArray());
    }

    /** Spark's hll_sketch_estimate: the sketch's estimate rounded to a BIGINT. */
    public static long estimate(byte[] sketchBytes) {
        try {
            return Math.round(HllSketch.heapify(Memory.wrap(sketchBytes)).getEstimate());
        } catch (RuntimeException | Error e) {
            throw invalidBuffer("hll_sketch_estimate");
        }
    }

    /** Spark's hll_union(a, b, allowDifferent): a union of the smaller lgConfigK over both sketches. */
    public static byte[] union(byte[] a, byte[] b, boolean allowDifferent) {
        HllSketch left = read(a, "hll_union");
        HllSketch right = read(b, "hll_union");
        compare(left.getLgConfigK(), right.getLgConfigK(), allowDifferent, "hll_union");
        Union union = new Union(Math.min(left.getLgConfigK(), right.getLgConfigK()));
        union.update(left);
        union.update(right);
        return union.getResult(TARGET).toUpdatableByteArray();
    }

    /** Spark's HLL_INVALID_LG_K check of hll_sketch_agg's constant; {@code null} when it holds, else the reason. */
    public static String invalidLgK(int lgK) {
        return lgK >= MIN_LG_K && lgK <= MAX_LG_K ? null : "[HLL_INVALID_LG_K] Invalid call to hll_sketch_agg; the `lgConfigK` value must be "
                + "between " + MIN_LG_K + " and " + MAX_LG_K + ", inclusive: " + lgK + ".";
    }

    private static HllSketch read(byte[] bytes, String function) {
        try {
            return HllSketch.heapify(Memory.wrap(bytes));
        } catch (RuntimeException | Error e) {
            throw invalidBuffer(function);
        }
    }

    private static void compare(int left, int right, boolean allowDifferent, String function) {
        if (!allowDifferent && left != right) {
            throw ExpressionErrors.hllDifferentLgK(function, left, right);
        }
    }

    private static ExpressionException invalidBuffer(String function) {
        return ExpressionErrors.hllInvalidBuffer(function);
    }
}
