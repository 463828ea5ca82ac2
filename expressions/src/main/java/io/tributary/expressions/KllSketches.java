package io.tributary.expressions;

import io.tributary.schema.DataType;
import org.apache.datasketches.common.SketchesArgumentException;
import org.apache.datasketches.kll.KllDoublesSketch;
import org.apache.datasketches.kll.KllFloatsSketch;
import org.apache.datasketches.kll.KllLongsSketch;
import org.apache.datasketches.kll.KllSketch;
import org.apache.datasketches.memory.Memory;

/**
 * Spark's KLL quantile sketches (Apache DataSketches' {@code KllLongsSketch}, {@code KllFloatsSketch} and {@code KllDoublesSketch},
 * in the version Spark 4.2 ships), the one place that reaches the library for them: the buffers of {@code kll_sketch_agg_*} and
 * {@code kll_merge_agg_*}, fed and merged as Spark's KllSketchAgg* and KllMergeAgg* feed and merge them, and the scalars
 * {@code kll_sketch_get_n_*}, {@code kll_sketch_get_quantile_*}, {@code kll_sketch_get_rank_*}, {@code kll_sketch_merge_*} and
 * {@code kll_sketch_to_string_*}. A sketch leaves as its compact {@code toByteArray()}, as Spark writes it.
 *
 * <p>The library compacts a level by keeping the odd or the even items, drawn from one {@code java.util.Random} of the JVM that
 * nobody seeds: a sketch that has compacted (more than k items fed, or merged) differs from run to run, in Spark as here. Up to k
 * items a sketch holds them all, in the order fed, and is Spark's byte for byte.
 */
public final class KllSketches {
    /** Spark's default k, and its bounds. */
    public static final int DEFAULT_K = 200;
    public static final int MIN_K = 8;
    public static final int MAX_K = 65535;

    /** The three kinds of sketch, named as the functions' suffixes. */
    public enum Kind {
        BIGINT(DataType.LONG), FLOAT(DataType.FLOAT), DOUBLE(DataType.DOUBLE);

        private final DataType item;

        Kind(DataType item) {
            this.item = item;
        }

        /** The type of the sketch's items, of a quantile it gives and of a value whose rank it gives. */
        public DataType item() {
            return item;
        }

        /** The suffix of the functions over this kind: {@code bigint}, {@code float}, {@code double}. */
        public String suffix() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private KllSketches() {
    }

    /** Whether kll_sketch_agg of {@code kind} takes a column of {@code type} (Spark's ExpectsInputTypes: no implicit cast). */
    public static boolean sketches(Kind kind, DataType type) {
        return switch (kind) {
            case BIGINT -> switch (type.kind()) {
                case BYTE, SHORT, INT, LONG -> true;
                default -> false;
            };
            case FLOAT -> type.kind() == DataType.Kind.FLOAT;
            case DOUBLE -> type.kind() == DataType.Kind.FLOAT || type.kind() == DataType.Kind.DOUBLE;
        };
    }

    /** An empty sketch of {@code k}, as the aggregates' buffers start. */
    public static KllSketch empty(Kind kind, int k) {
        return switch (kind) {
            case BIGINT -> KllLongsSketch.newHeapInstance(k);
            case FLOAT -> KllFloatsSketch.newHeapInstance(k);
            case DOUBLE -> KllDoublesSketch.newHeapInstance(k);
        };
    }

    /** {@code sketch} fed one non-null value, as Spark's update: an integer as a long, a FLOAT widened for the doubles (NaN skipped). */
    public static void update(KllSketch sketch, Object value) {
        if (sketch instanceof KllLongsSketch s) {
            s.update(((Number) value).longValue());
        } else if (sketch instanceof KllFloatsSketch s) {
            s.update(((Number) value).floatValue());
        } else {
            ((KllDoublesSketch) sketch).update(((Number) value).doubleValue());
        }
    }

    /**
     * Spark's merge of two buffers: {@code into} merged with {@code other}, in place; returns {@code into}. Sketches the library
     * cannot merge fail with KLL_INVALID_INPUT_SKETCH_BUFFER, naming {@code function}.
     */
    public static KllSketch merge(KllSketch into, KllSketch other, String function) {
        try {
            into.merge(other);
        } catch (RuntimeException e) {
            throw ExpressionErrors.kllInvalidBuffer(function);
        }
        return into;
    }

    /** The bytes Spark writes of a sketch (between stages, in the state store, and as the aggregate's value). */
    public static byte[] bytes(KllSketch sketch) {
        if (sketch instanceof KllLongsSketch s) {
            return s.toByteArray();
        } else if (sketch instanceof KllFloatsSketch s) {
            return s.toByteArray();
        }
        return ((KllDoublesSketch) sketch).toByteArray();
    }

    /** A sketch read back from {@link #bytes} (Spark's heapify); KLL_INVALID_INPUT_SKETCH_BUFFER, naming {@code function}, if none. */
    public static KllSketch sketch(Kind kind, byte[] bytes, String function) {
        try {
            Memory m = Memory.wrap(bytes);
            return switch (kind) {
                case BIGINT -> KllLongsSketch.heapify(m);
                case FLOAT -> KllFloatsSketch.heapify(m);
                case DOUBLE -> KllDoublesSketch.heapify(m);
            };
        } catch (RuntimeException e) {
            throw ExpressionErrors.kllInvalidBuffer(function);
        }
    }

    /** Spark's KLL_SKETCH_K_OUT_OF_RANGE check of the constant k; {@code null} when it holds, else the reason. */
    public static String invalidK(String function, int k) {
        return k >= MIN_K && k <= MAX_K ? null : "[KLL_SKETCH_K_OUT_OF_RANGE] For function " + function + ", the k parameter must be between "
                + MIN_K + " and " + MAX_K + " (inclusive), but got " + k + ".";
    }

    /** kll_sketch_get_n_*: how many items the sketch was fed. */
    public static long n(Kind kind, byte[] bytes, String function) {
        return sketch(kind, bytes, function).getN();
    }

    /** kll_sketch_to_string_*: the library's summary of the sketch. */
    public static String text(Kind kind, byte[] bytes, String function) {
        return sketch(kind, bytes, function).toString();
    }

    /** kll_sketch_merge_*: the first sketch merged with the second, as bytes. */
    public static byte[] merged(Kind kind, byte[] a, byte[] b, String function) {
        return bytes(merge(sketch(kind, a, function), sketch(kind, b, function), function));
    }

    /** kll_sketch_get_quantile_*: the item at normalized rank {@code rank} (0 to 1, inclusive) of a non-empty sketch. */
    public static Object quantile(Kind kind, byte[] bytes, double rank, String function) {
        return quantiles(kind, bytes, new double[] {rank}, function)[0];
    }

    /** kll_sketch_get_quantile_* of an array of ranks: one item per rank. */
    public static Object[] quantiles(Kind kind, byte[] bytes, double[] ranks, String function) {
        KllSketch s = sketch(kind, bytes, function);
        try {
            Object[] out = new Object[ranks.length];
            for (int i = 0; i < ranks.length; i++) {
                out[i] = switch (kind) {
                    case BIGINT -> ((KllLongsSketch) s).getQuantile(ranks[i]);
                    case FLOAT -> ((KllFloatsSketch) s).getQuantile(ranks[i]);
                    case DOUBLE -> ((KllDoublesSketch) s).getQuantile(ranks[i]);
                };
            }
            return out;
        } catch (SketchesArgumentException e) {
            throw e.getMessage() != null && e.getMessage().contains("normalized rank") ? ExpressionErrors.kllQuantileRange(function)
                    : ExpressionErrors.kllInvalidBuffer(function);
        } catch (RuntimeException e) {
            throw ExpressionErrors.kllInvalidBuffer(function);
        }
    }

    /** kll_sketch_get_rank_*: the normalized rank (inclusive) of {@code value} in a non-empty sketch. */
    public static double rank(Kind kind, byte[] bytes, Object value, String function) {
        return ranks(kind, bytes, new Object[] {value}, function)[0];
    }

    /** kll_sketch_get_rank_* of an array of values (no nulls): one rank per value. */
    public static double[] ranks(Kind kind, byte[] bytes, Object[] values, String function) {
        KllSketch s = sketch(kind, bytes, function);
        try {
            double[] out = new double[values.length];
            for (int i = 0; i < values.length; i++) {
                Number v = (Number) values[i];
                out[i] = switch (kind) {
                    case BIGINT -> ((KllLongsSketch) s).getRank(v.longValue());
                    case FLOAT -> ((KllFloatsSketch) s).getRank(v.floatValue());
                    case DOUBLE -> ((KllDoublesSketch) s).getRank(v.doubleValue());
                };
            }
            return out;
        } catch (RuntimeException e) {
            throw ExpressionErrors.kllInvalidBuffer(function);
        }
    }
}
