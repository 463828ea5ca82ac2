package io.tributary.expressions;

import io.tributary.schema.DataType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.datasketches.common.Family;
import org.apache.datasketches.memory.Memory;
import org.apache.datasketches.theta.CompactSketch;
import org.apache.datasketches.theta.Intersection;
import org.apache.datasketches.theta.SetOperation;
import org.apache.datasketches.theta.Sketch;
import org.apache.datasketches.theta.Union;
import org.apache.datasketches.theta.UpdateSketch;

/**
 * Spark's Theta sketches (Apache DataSketches' theta package, in the version Spark 4.2 ships), the one place that reaches the
 * library: {@code theta_sketch_agg}'s sketch, {@code theta_union_agg}'s union and {@code theta_intersection_agg}'s intersection,
 * fed as Spark's ThetaSketchAgg, ThetaUnionAgg and ThetaIntersectionAgg feed them, and the scalars {@code theta_sketch_estimate},
 * {@code theta_union}, {@code theta_intersection} and {@code theta_difference}. A sketch leaves as Spark writes it, a compact,
 * compressed sketch ({@code toByteArrayCompressed()}), so that Spark reads Tributary's sketches and the reverse. Bytes that are
 * no compact Theta sketch fail with Spark's error class.
 */
public final class ThetaSketches {
    /** Spark's default lgNomEntries, and its bounds. */
    public static final int DEFAULT_LG_NOM = 12;
    public static final int MIN_LG_NOM = 4;
    public static final int MAX_LG_NOM = 26;

    private ThetaSketches() {
    }

    /** Whether theta_sketch_agg takes a column of {@code type}: INT, BIGINT, FLOAT, DOUBLE, STRING, BINARY, ARRAY of INT or BIGINT. */
    public static boolean sketches(DataType type) {
        return switch (type.kind()) {
            case INT, LONG, FLOAT, DOUBLE, STRING, BINARY -> true;
            case ARRAY -> type.element() != null && (type.element().kind() == DataType.Kind.INT || type.element().kind() == DataType.Kind.LONG);
            default -> false;
        };
    }

    /** Spark's SKETCH_INVALID_LG_NOM_ENTRIES check; {@code null} when {@code lgNom} holds, else Spark's message. */
    public static String invalidLgNom(String function, int lgNom) {
        return lgNom >= MIN_LG_NOM && lgNom <= MAX_LG_NOM ? null
                : "[SKETCH_INVALID_LG_NOM_ENTRIES] " + ExpressionErrors.sketchInvalidLgNomEntries(function, MIN_LG_NOM, MAX_LG_NOM, lgNom).reason();
    }

    /** An empty update sketch of {@code lgNom}, as theta_sketch_agg's buffer starts. */
    public static UpdateSketch newSketch(int lgNom) {
        return UpdateSketch.builder().setLogNominalEntries(lgNom).build();
    }

    /**
     * {@code sketch} fed one non-null value of {@code type} as ThetaSketchAgg.update feeds it: an INT as a BIGINT, a FLOAT as a
     * DOUBLE, text as its UTF-8 bytes, an array as an int[] or long[] (a null element as 0, as an unsafe array reads it);
     * empty text, bytes and arrays skipped. In place.
     */
    public static void update(UpdateSketch sketch, Object value, DataType type) {
        switch (type.kind()) {
            case INT, LONG -> sketch.update(((Number) value).longValue());
            case FLOAT, DOUBLE -> sketch.update(((Number) value).doubleValue());
            case STRING -> sketch.update(((String) value).getBytes(StandardCharsets.UTF_8));
            case BINARY -> sketch.update((byte[]) value);
            case ARRAY -> {
                List<?> list = (List<?>) value;
                if (type.element().kind() == DataType.Kind.INT) {
                    int[] a = new int[list.size()];
                    for (int i = 0; i < a.length; i++) {
                        a[i] = list.get(i) == null ? 0 : ((Number) list.get(i)).intValue();
                    }
                    sketch.update(a);
                } else {
                    long[] a = new long[list.size()];
                    for (int i = 0; i < a.length; i++) {
                        a[i] = list.get(i) == null ? 0L : ((Number) list.get(i)).longValue();
                    }
                    sketch.update(a);
                }
            }
            default -> throw new IllegalArgumentException("theta_sketch_agg of " + type.ddl());
        }
    }

    /** The bytes Spark writes of theta_sketch_agg's update sketch (rebuilt, compacted, compressed). */
    public static byte[] bytes(UpdateSketch sketch) {
        return sketch.rebuild().compact().toByteArrayCompressed();
    }

    /** The bytes Spark writes of a compact sketch. */
    public static byte[] bytes(CompactSketch sketch) {
        return sketch.toByteArrayCompressed();
    }

    /** Spark's deserialize of an aggregation buffer: the compact sketch of {@link #bytes}. */
    public static CompactSketch heapify(byte[] bytes) {
        return CompactSketch.heapify(Memory.wrap(bytes));
    }

    /** The updatable bytes of an update sketch (its whole hash table), to keep a batch's sketch between rows. */
    public static byte[] updatableBytes(UpdateSketch sketch) {
        return sketch.toByteArray();
    }

    /** An update sketch read back from {@link #updatableBytes}. */
    public static UpdateSketch updateSketch(byte[] bytes) {
        return UpdateSketch.heapify(Memory.wrap(bytes));
    }

    /** An empty union of {@code lgNom}. */
    public static Union newUnion(int lgNom) {
        return SetOperation.builder().setLogNominalEntries(lgNom).buildUnion();
    }

    /** An empty intersection (Spark builds it with the builder's defaults). */
    public static Intersection newIntersection() {
        return SetOperation.builder().buildIntersection();
    }

    /** A union or an intersection's bytes (its whole state), to keep a batch's buffer between rows. */
    public static byte[] setOperationBytes(SetOperation op) {
        return op instanceof Union u ? u.toByteArray() : ((Intersection) op).toByteArray();
    }

    /** A union or an intersection read back from {@link #setOperationBytes}. */
    public static SetOperation setOperation(byte[] bytes) {
        return SetOperation.heapify(Memory.wrap(bytes));
    }

    /**
     * Spark's ThetaSketchUtils.wrapCompactSketch: the compact sketch in {@code bytes}, THETA_INVALID_INPUT_SKETCH_BUFFER for bytes
     * that are none, THETA_INVALID_INPUT_SKETCH_BUFFER_FAMILY for a sketch of another family.
     */
    public static CompactSketch wrap(byte[] bytes, String function) {
        Memory memory = Memory.wrap(bytes);
        Family family;
        try {
            family = Family.idToFamily(memory.getByte(2) & 0xFF);
        } catch (Exception e) {
            throw ExpressionErrors.thetaInvalidBuffer(function);
        }
        if (family != Family.COMPACT) {
            throw ExpressionErrors.thetaInvalidFamily(function, family.toString());
        }
        try {
            return CompactSketch.wrap(memory);
        } catch (RuntimeException | Error e) {
            throw ExpressionErrors.thetaInvalidBuffer(function);
        }
    }

    /** Spark's theta_sketch_estimate: the sketch's estimate rounded to a BIGINT. */
    public static long estimate(byte[] sketch) {
        return Math.round(wrap(sketch, "theta_sketch_estimate").getEstimate());
    }

    /** Spark's theta_union(a, b, lgNomEntries). */
    public static byte[] union(byte[] a, byte[] b, int lgNom) {
        if (lgNom < MIN_LG_NOM || lgNom > MAX_LG_NOM) {
            throw ExpressionErrors.sketchInvalidLgNomEntries("theta_union", MIN_LG_NOM, MAX_LG_NOM, lgNom);
        }
        Sketch left = wrap(a, "theta_union");
        Sketch right = wrap(b, "theta_union");
        return newUnion(lgNom).union(left, right).toByteArrayCompressed();
    }

    /** Spark's theta_intersection(a, b). */
    public static byte[] intersection(byte[] a, byte[] b) {
        Sketch left = wrap(a, "theta_intersection");
        Sketch right = wrap(b, "theta_intersection");
        return newIntersection().intersect(left, right).toByteArrayCompressed();
    }

    /** Spark's theta_difference(a, b): the values of {@code a} not in {@code b}. */
    public static byte[] difference(byte[] a, byte[] b) {
        Sketch left = wrap(a, "theta_difference");
        Sketch right = wrap(b, "theta_difference");
        return SetOperation.builder().buildANotB().aNotB(left, right).toByteArrayCompressed();
    }
}
