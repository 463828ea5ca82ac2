package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.FLOAT;

import io.tributary.schema.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Spark's scalar vector functions over ARRAY&lt;FLOAT&gt;: cosine similarity, inner product, L2 distance, norm and
 * normalize, in FLOAT arithmetic summed in Spark's order (eight products at a time, then the rest), so that each
 * value is Spark's to the last bit. A null element gives null.
 */
final class VectorFunctions {
    private static final int BLOCK = 8;

    private VectorFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(pair("vector_cosine_similarity", "the cosine of the angle between the vectors: their inner product over the product of"
                + " their L2 norms; null when either is empty or of norm zero", VectorFunctions::cosine));
        add.accept(pair("vector_inner_product", "the sum of the products of the elements at each index; 0.0 for empty vectors",
                VectorFunctions::inner));
        add.accept(pair("vector_l2_distance", "the Euclidean distance between the vectors; 0.0 for empty vectors", VectorFunctions::distance));
        add.accept(Fn.custom("vector_norm", 1, 2, "vector_norm(v ARRAY<FLOAT>[, degree FLOAT]) → FLOAT", FunctionDef.NULL_IN_NULL_OUT,
                "the vector's L1 (degree 1.0), L2 (2.0, the default) or infinity norm (CAST('Infinity' AS FLOAT)); 0.0 for an empty vector;"
                        + " INVALID_VECTOR_NORM_DEGREE for another degree", (call, args) -> norm(call, args, false)));
        add.accept(Fn.custom("vector_normalize", 1, 2, "vector_normalize(v ARRAY<FLOAT>[, degree FLOAT]) → ARRAY<FLOAT>",
                FunctionDef.NULL_IN_NULL_OUT, "the vector divided by its norm of that degree (as vector_norm); null when the norm is"
                        + " zero", (call, args) -> norm(call, args, true)));
    }

    @FunctionalInterface
    private interface PairKernel {
        Float apply(float[] a, float[] b);
    }

    private static FunctionDef pair(String name, String doc, PairKernel kernel) {
        return Fn.custom(name, 2, 2, name + "(a ARRAY<FLOAT>, b ARRAY<FLOAT>) → FLOAT", "null if a vector or one of its elements is null",
                doc + "; VECTOR_DIMENSION_MISMATCH when their lengths differ", (call, args) -> {
                    List<Bound> vs = List.of(vector(call, args.get(0)), vector(call, args.get(1)));
                    return call.apply(vs, FLOAT, (Kernel.Binary) (x, y) -> {
                        List<?> a = (List<?>) x;
                        List<?> b = (List<?>) y;
                        if (a.size() != b.size()) {
                            throw Failure.of("VECTOR_DIMENSION_MISMATCH", name + " needs vectors of one dimension, and they have "
                                    + a.size() + " and " + b.size());
                        }
                        float[] fa = floats(a);
                        float[] fb = floats(b);
                        return fa == null || fb == null ? null : kernel.apply(fa, fb);
                    });
                });
    }

    private static Bound norm(Analyzer.Call call, List<Bound> args, boolean normalize) {
        Bound v = vector(call, args.get(0));
        Bound degree = args.size() > 1 ? args.get(1) : new Bound.Literal(2.0f, FLOAT, "2.0F");
        if (!FLOAT.equals(degree.type())) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] the degree of " + call.name() + " is a FLOAT (2.0F), and '"
                    + degree.text() + "' is " + Types.name(degree.type()));
        }
        String name = call.name();
        return call.apply(List.of(v, degree), normalize ? DataType.array(FLOAT) : FLOAT, (Kernel.Binary) (x, d) -> {
            float[] a = floats((List<?>) x);
            float p = (Float) d;
            if (p != 1.0f && p != 2.0f && p != Float.POSITIVE_INFINITY) {
                throw Failure.of("INVALID_VECTOR_NORM_DEGREE", name + " takes a degree of 1.0, 2.0 or infinity, and it is " + p);
            }
            if (a == null) {
                return null;
            }
            float n = p == 1.0f ? l1(a) : p == 2.0f ? l2(a) : inf(a);
            return normalize ? divided((List<?>) x, a, n) : (Object) n;
        });
    }

    private static Bound vector(Analyzer.Call call, Bound b) {
        if (!DataType.array(FLOAT).equals(b.type())) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] " + call.name() + " takes vectors of ARRAY<FLOAT>, and '" + b.text()
                    + "' is " + Types.name(b.type()));
        }
        return b;
    }

    /** The elements, or null if one is null. */
    private static float[] floats(List<?> v) {
        float[] out = new float[v.size()];
        for (int i = 0; i < out.length; i++) {
            if (v.get(i) == null) {
                return null;
            }
            out[i] = (Float) v.get(i);
        }
        return out;
    }

    private static Float cosine(float[] a, float[] b) {
        if (a.length == 0) {
            return null;
        }
        float dot = 0f;
        float na = 0f;
        float nb = 0f;
        int i = 0;
        for (int end = a.length / BLOCK * BLOCK; i < end; i += BLOCK) {
            float d = a[i] * b[i];
            float x = a[i] * a[i];
            float y = b[i] * b[i];
            for (int j = i + 1; j < i + BLOCK; j++) {
                d += a[j] * b[j];
                x += a[j] * a[j];
                y += b[j] * b[j];
            }
            dot += d;
            na += x;
            nb += y;
        }
        for (; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        float denominator = (float) Math.sqrt(na * nb);
        return denominator < Float.MIN_NORMAL ? null : dot / denominator;
    }

    private static Float inner(float[] a, float[] b) {
        float dot = 0f;
        int i = 0;
        for (int end = a.length / BLOCK * BLOCK; i < end; i += BLOCK) {
            float d = a[i] * b[i];
            for (int j = i + 1; j < i + BLOCK; j++) {
                d += a[j] * b[j];
            }
            dot += d;
        }
        for (; i < a.length; i++) {
            dot += a[i] * b[i];
        }
        return dot;
    }

    private static Float distance(float[] a, float[] b) {
        float sum = 0f;
        int i = 0;
        for (int end = a.length / BLOCK * BLOCK; i < end; i += BLOCK) {
            float d0 = a[i] - b[i];
            float s = d0 * d0;
            for (int j = i + 1; j < i + BLOCK; j++) {
                float d = a[j] - b[j];
                s += d * d;
            }
            sum += s;
        }
        for (; i < a.length; i++) {
            float d = a[i] - b[i];
            sum += d * d;
        }
        return (float) Math.sqrt(sum);
    }

    private static float l1(float[] a) {
        float sum = 0f;
        int i = 0;
        for (int end = a.length / BLOCK * BLOCK; i < end; i += BLOCK) {
            float s = Math.abs(a[i]);
            for (int j = i + 1; j < i + BLOCK; j++) {
                s += Math.abs(a[j]);
            }
            sum += s;
        }
        for (; i < a.length; i++) {
            sum += Math.abs(a[i]);
        }
        return sum;
    }

    private static float l2(float[] a) {
        float sum = 0f;
        int i = 0;
        for (int end = a.length / BLOCK * BLOCK; i < end; i += BLOCK) {
            float s = a[i] * a[i];
            for (int j = i + 1; j < i + BLOCK; j++) {
                s += a[j] * a[j];
            }
            sum += s;
        }
        for (; i < a.length; i++) {
            sum += a[i] * a[i];
        }
        return (float) Math.sqrt(sum);
    }

    /** The largest magnitude; NaN elements are passed over, as Spark's comparison passes them. */
    private static float inf(float[] a) {
        float max = 0f;
        for (float x : a) {
            if (Math.abs(x) > max) {
                max = Math.abs(x);
            }
        }
        return max;
    }

    private static Object divided(List<?> original, float[] a, float norm) {
        if (a.length == 0) {
            return original;
        }
        if (norm < Float.MIN_NORMAL) {
            return null;
        }
        List<Object> out = new ArrayList<>(a.length);
        for (float x : a) {
            out.add(x / norm);
        }
        return out;
    }
}
