package io.tributary.expressions.internal;

/**
 * What a function computes from its argument values, never null ones unless the function is null-tolerant
 * ({@link Bound.Apply#nullTolerant()}). One- and two-argument functions implement the specialised forms,
 * which the compiled form calls without an argument array.
 */
@FunctionalInterface
public interface Kernel {
    Object apply(Object[] args);

    /** A function of one argument. */
    @FunctionalInterface
    interface Unary extends Kernel {
        Object apply1(Object a);

        @Override
        default Object apply(Object[] args) {
            return apply1(args[0]);
        }
    }

    /** A function of two arguments. */
    @FunctionalInterface
    interface Binary extends Kernel {
        Object apply2(Object a, Object b);

        @Override
        default Object apply(Object[] args) {
            return apply2(args[0], args[1]);
        }
    }
}
