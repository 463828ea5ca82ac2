package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import java.util.List;

/**
 * An expression resolved against an input schema: every column a position, every function its
 * kernel, every node its type (null for NULL's own type, Spark's VOID). Implicit casts are
 * {@link Apply} nodes of their own. Both the {@link Interpreter} and the {@link Compiler} read it.
 */
public sealed interface Bound {
    DataType type();

    String text();

    /** Whether {@code b} is a constant (Spark's foldable): a literal, or functions of literals only, none of them random. */
    static boolean constant(Bound b) {
        return b instanceof Literal
                || b instanceof Apply a && !RandomFunctions.NAMES.contains(a.name()) && a.args().stream().allMatch(Bound::constant);
    }

    record Literal(Object value, DataType type, String text) implements Bound {
    }

    /** Column {@code index} of the row, then the struct fields {@code path} below it. */
    record Column(int index, int[] path, DataType type, String text) implements Bound {
    }

    /**
     * A function applied to its arguments. Unless {@code nullTolerant}, a null argument gives null without calling
     * the kernel (Spark's {@code NullIntolerant}).
     */
    record Apply(String name, List<Bound> args, Kernel kernel, boolean nullTolerant, DataType type, String text) implements Bound {
    }

    /** AND and OR with SQL's three-valued logic; the right side is evaluated only when it decides. */
    record Logic(boolean and, Bound left, Bound right, String text) implements Bound {
        @Override
        public DataType type() {
            return DataType.BOOLEAN;
        }
    }

    /** CASE WHEN, IF, and COALESCE's cousins: the first condition that is true picks its value. */
    record Case(List<Bound> conditions, List<Bound> values, Bound otherwise, DataType type, String text) implements Bound {
    }

    /** {@code child}, or null where its evaluation fails (Spark's {@code TryEval}, the whole of a {@code try_} call). */
    record Try(Bound child) implements Bound {
        @Override
        public DataType type() {
            return child.type();
        }

        @Override
        public String text() {
            return child.text();
        }
    }

    /** The first argument that is not null. */
    record Coalesce(List<Bound> args, DataType type, String text) implements Bound {
    }

    /** {@code value IN (list)}: true on a match, else null if any side is null, else false; {@code equal} compares two non-null values. */
    record In(Bound value, List<Bound> list, Kernel.Binary equal, String text) implements Bound {
        @Override
        public DataType type() {
            return DataType.BOOLEAN;
        }
    }

    /**
     * A lambda's body with the frame slots its parameters are read from: the frame is the row followed by the
     * slots of every lambda parameter of the expression, each parameter a {@link Column} of its own slot.
     */
    record Lambda(int[] slots, Bound body, String text) implements Bound {
        @Override
        public DataType type() {
            return body.type();
        }
    }

    /**
     * A higher-order function (transform, filter, aggregate ...): its value arguments, the first {@code strict} of which
     * give null when null, its lambdas, and the frame's size, every lambda slot below it.
     */
    record HigherOrder(String name, List<Bound> args, int strict, List<Lambda> lambdas, int frame, HigherOrderKernel kernel,
            DataType type, String text) implements Bound {
    }
}
