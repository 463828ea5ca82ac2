package io.tributary.expressions;

import io.tributary.expressions.internal.Casts;
import io.tributary.expressions.internal.Failure;
import io.tributary.expressions.internal.Kernel;
import io.tributary.schema.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The casts Spark's analyzer adds around an aggregate's argument whose type the function does not take (AnsiTypeCoercion's
 * implicit casts: {@code stddev} of a STRING reads {@code CAST(x AS DOUBLE)}), for the aggregations that read the argument from a
 * column: a value cast as Spark's ANSI {@code CAST} casts it, and failing as it fails.
 */
public final class ImplicitCast {
    private ImplicitCast() {
    }

    /**
     * The cast of a value of {@code from} to {@code to} (an array element by element), null for null; one that fails throws
     * {@link ExpressionException} naming {@code CAST(argument AS to)} and Spark's error class ({@code CAST_INVALID_INPUT},
     * {@code CAST_OVERFLOW}).
     */
    public static UnaryOperator<Object> of(DataType from, DataType to, String argument) {
        String text = "CAST(" + argument + " AS " + to.ddl() + ")";
        if (from.equals(to)) {
            return UnaryOperator.identity();
        }
        if (from.kind() == DataType.Kind.ARRAY && to.kind() == DataType.Kind.ARRAY) {
            Kernel.Unary element = Casts.kernel(from.element(), to.element());
            return v -> {
                if (v == null) {
                    return null;
                }
                List<Object> out = new ArrayList<>();
                for (Object e : (List<?>) v) {
                    out.add(e == null ? null : cast(element, e, text));
                }
                return out;
            };
        }
        Kernel.Unary kernel = Casts.kernel(from, to);
        return v -> v == null ? null : cast(kernel, v, text);
    }

    private static Object cast(Kernel.Unary kernel, Object v, String text) {
        try {
            return kernel.apply1(v);
        } catch (Failure f) {
            throw ExpressionErrors.failed(text, f.condition(), f.reason());
        }
    }
}
