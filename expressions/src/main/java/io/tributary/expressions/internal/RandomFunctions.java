package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.LongFunction;

/**
 * Spark's non-deterministic functions {@code rand}, {@code random}, {@code randn}, {@code uniform}, {@code randstr},
 * {@code shuffle} and {@code uuid}. Spark draws each call's values from its {@link XorShiftRandom} seeded with
 * {@code seed + partitionIndex}, restarted for every partition of every micro-batch; a Tributary batch is one partition,
 * index 0: a seeded call gives, over a batch's rows in order, the sequence Spark gives over partition 0, and starts it
 * again with the next batch. Without a seed, each batch draws a fresh one. A seed is a constant INT or BIGINT (NULL reads
 * as 0), as Spark's; anything else is refused at start.
 */
final class RandomFunctions {
    private static final SecureRandom SEEDS = new SecureRandom();
    /** The partition a batch is, in Spark's {@code seed + partitionIndex}. */
    static final int PARTITION = 0;

    private RandomFunctions() {
    }

    /** One call's generator: restarted at each batch start of the transform, from its seed or a fresh one. */
    static final class Draws<T> {
        private final Long seed;
        private final LongFunction<T> make;
        private T rng;

        Draws(Long seed, BatchClock clock, LongFunction<T> make) {
            this.seed = seed;
            this.make = make;
            restart();
            if (clock != null) {
                clock.onStart(this::restart);
            }
        }

        private void restart() {
            rng = make.apply((seed != null ? seed : SEEDS.nextLong()) + PARTITION);
        }

        T rng() {
            return rng;
        }
    }

    /** The functions whose every call gives another value: never a constant, as Spark's non-deterministic expressions are not foldable. */
    static final Set<String> NAMES = Set.of("rand", "random", "randn", "uniform", "randstr", "shuffle", "uuid");

    static void register(Consumer<FunctionDef> add) {
        String seeded = "; a constant seed (INT or BIGINT) gives Spark's sequence over a batch's rows, as over partition 0";
        FunctionDef rand = Fn.custom("rand", 0, 1, "rand([seed]) → DOUBLE", "never null", "a uniformly distributed value in [0, 1)" + seeded,
                (call, args) -> {
                    Draws<XorShiftRandom> d = draws(call, args, 0);
                    return call.applyTolerant(List.of(), DataType.DOUBLE, a -> d.rng().nextDouble());
                });
        add.accept(rand);
        add.accept(Fn.alias("random", rand));
        add.accept(Fn.custom("randn", 0, 1, "randn([seed]) → DOUBLE", "never null", "a value of the standard normal distribution" + seeded,
                (call, args) -> {
                    Draws<XorShiftRandom> d = draws(call, args, 0);
                    return call.applyTolerant(List.of(), DataType.DOUBLE, a -> d.rng().nextGaussian());
                }));
        add.accept(Fn.custom("uniform", 2, 3, "uniform(min NUMERIC, max NUMERIC[, seed]) → the wider of min's and max's types",
                "never null: 0 when min or max is NULL (a DOUBLE for a bare NULL), as Spark gives it",
                "a uniformly distributed value between min and max (constants), whole numbers truncated toward zero, a DECIMAL rounded"
                + " half up, NUMERIC_VALUE_OUT_OF_RANGE past it" + seeded,
                RandomFunctions::uniform));
        add.accept(Fn.custom("randstr", 1, 2, "randstr(length INT[, seed]) → STRING", "never null",
                "length random characters of 0-9, a-z and A-Z (length a constant)" + seeded, RandomFunctions::randstr));
        add.accept(Fn.custom("shuffle", 1, 2, "shuffle(array ARRAY<T>[, seed]) → ARRAY<T>", FunctionDef.NULL_IN_NULL_OUT,
                "the elements in a random order" + seeded, RandomFunctions::shuffle));
        add.accept(Fn.custom("uuid", 0, 1, "uuid([seed]) → STRING", "never null", "a random (version 4) UUID as 36 characters" + seeded,
                (call, args) -> {
                    Draws<MersenneTwister> d = twister(call, args, 0);
                    return call.applyTolerant(List.of(), DataType.STRING, a -> uuid(d.rng()));
                }));
    }

    /** Spark's XORShiftRandom of a call whose seed, if given, is argument {@code index}. */
    private static Draws<XorShiftRandom> draws(Analyzer.Call call, List<Bound> args, int index) {
        return new Draws<>(seed(call, args, index, "SEED_EXPRESSION_IS_UNFOLDABLE"), call.clock(), XorShiftRandom::new);
    }

    /** Commons Math's MersenneTwister, as Spark's shuffle and uuid draw from, of a call whose seed, if given, is argument {@code index}. */
    private static Draws<MersenneTwister> twister(Analyzer.Call call, List<Bound> args, int index) {
        return new Draws<>(seed(call, args, index, "INVALID_PARAMETER_VALUE.LONG"), call.clock(), MersenneTwister::new);
    }

    /** The constant seed of argument {@code index}, 0 for NULL, null when none is given; refused when not a constant INT or BIGINT. */
    private static Long seed(Analyzer.Call call, List<Bound> args, int index, String unfoldable) {
        if (args.size() <= index) {
            return null;
        }
        Bound b = args.get(index);
        if (b.type() != null && !Types.is(b.type(), Kind.INT) && !Types.is(b.type(), Kind.LONG)) {
            throw call.typeError("[" + (unfoldable.startsWith("SEED") ? "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" : unfoldable)
                    + "] the seed of " + call.name() + " is a constant INT or BIGINT, and '" + b.text() + "' is " + Types.name(b.type()));
        }
        if (!Bound.constant(b)) {
            throw call.typeError("[" + unfoldable + "] the seed of " + call.name() + " must be a constant, and '" + b.text() + "' is not one");
        }
        Object v = Interpreter.eval(b, new Object[0]);
        return v == null ? 0L : ((Number) v).longValue();
    }

    /** The value of a constant argument (Spark's foldable), or a refusal naming it. */
    private static Object constant(Analyzer.Call call, Bound b, String what) {
        if (!Bound.constant(b)) {
            throw call.typeError("[DATATYPE_MISMATCH.NON_FOLDABLE_INPUT] the " + what + " of " + call.name() + " must be a constant, and '"
                    + b.text() + "' is not one");
        }
        return Interpreter.eval(b, new Object[0]);
    }

    /** Spark's {@code RandomUUIDGenerator.getNextUUID}: two longs of the generator made a version 4, IETF variant UUID. */
    static String uuid(MersenneTwister rng) {
        long most = (rng.nextLong() & 0xFFFFFFFFFFFF0FFFL) | 0x0000000000004000L;
        long least = (rng.nextLong() | 0x8000000000000000L) & 0xBFFFFFFFFFFFFFFFL;
        return new UUID(most, least).toString();
    }

    private static Bound uniform(Analyzer.Call call, List<Bound> args) {
        Bound min = args.get(0);
        Bound max = args.get(1);
        for (Bound b : List.of(min, max)) {
            if (b.type() != null && !Types.numeric(b.type())) {
                throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] min and max of uniform are numbers, and '" + b.text() + "' is "
                        + Types.name(b.type()));
            }
        }
        Object lo = constant(call, min, "min");
        Object hi = constant(call, max, "max");
        Draws<XorShiftRandom> d = draws(call, args, 2);
        // a NULL bound reads as a DOUBLE (a NULL of a type as that type), and then every value is 0, as Spark 4.2 gives it
        DataType type = uniformType(min.type() == null ? DataType.DOUBLE : min.type(), max.type() == null ? DataType.DOUBLE : max.type());
        boolean zero = lo == null || hi == null;
        double from = zero ? 0 : ((Number) lo).doubleValue();
        double to = zero ? 0 : ((Number) hi).doubleValue();
        Kind kind = type.kind();
        Kernel.Unary decimal = kind == Kind.DECIMAL ? Casts.kernel(DataType.DOUBLE, type) : null; // Spark's ANSI cast: past the type, the row fails
        return call.applyTolerant(List.of(), type, a -> {
            double r = from + d.rng().nextDouble() * (to - from);
            return switch (kind) {
                case BYTE -> (byte) r;
                case SHORT -> (short) r;
                case INT -> (int) r;
                case LONG -> (long) r;
                case FLOAT -> (float) r;
                case DECIMAL -> decimal.apply1(r);
                default -> r;
            };
        });
    }

    /**
     * Spark's result type of uniform: BIGINT, INT, SMALLINT or TINYINT between whole numbers (the wider), else DOUBLE with a DOUBLE,
     * FLOAT with a FLOAT, the wider DECIMAL of two (Spark's isWiderThan, else the second), a DECIMAL with a whole number.
     */
    private static DataType uniformType(DataType a, DataType b) {
        if (Types.integral(a) && Types.integral(b)) {
            for (Kind k : List.of(Kind.LONG, Kind.INT, Kind.SHORT, Kind.BYTE)) {
                if (a.kind() == k || b.kind() == k) {
                    return Types.is(a, k) ? a : b;
                }
            }
        }
        if (Types.is(a, Kind.DOUBLE) || Types.is(b, Kind.DOUBLE)) {
            return DataType.DOUBLE;
        }
        if (Types.is(a, Kind.FLOAT) || Types.is(b, Kind.FLOAT)) {
            return DataType.FLOAT;
        }
        if (Types.is(a, Kind.DECIMAL) && Types.is(b, Kind.DECIMAL)) {
            boolean wider = a.precision() - a.scale() >= b.precision() - b.scale() && a.scale() >= b.scale();
            return wider ? a : b;
        }
        return Types.is(a, Kind.DECIMAL) ? a : b;
    }

    private static Bound randstr(Analyzer.Call call, List<Bound> args) {
        Bound length = args.get(0);
        if (length.type() != null && !Types.integral(length.type()) && !Types.is(length.type(), Kind.STRING)) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] the length of randstr is a whole number, and '" + length.text()
                    + "' is " + Types.name(length.type()));
        }
        if (!Bound.constant(length)) {
            throw call.typeError("[DATATYPE_MISMATCH.NON_FOLDABLE_INPUT] the length of randstr must be a constant, and '" + length.text()
                    + "' is not one");
        }
        Draws<XorShiftRandom> d = draws(call, args, 1);
        Bound len = length.type() != null && Types.integral(length.type()) ? length : call.as(length, DataType.INT);
        return call.applyTolerant(List.of(len), DataType.STRING, (Kernel.Unary) n -> {
            int chars = n == null ? 0 : ((Number) n).intValue();
            if (chars < 0) {
                throw Failure.of("INVALID_PARAMETER_VALUE.LENGTH", "the length of randstr must be 0 or more, not " + chars);
            }
            return randstr(d.rng(), chars);
        });
    }

    /** Spark's {@code ExpressionImplUtils.randStr}: each character from |nextInt() % 62| over 0-9, a-z, A-Z. */
    static String randstr(XorShiftRandom rng, int length) {
        char[] out = new char[length];
        for (int i = 0; i < length; i++) {
            int v = Math.abs(rng.nextInt() % 62);
            out[i] = (char) (v < 10 ? '0' + v : v < 36 ? 'a' + v - 10 : 'A' + v - 36);
        }
        return new String(out);
    }

    private static Bound shuffle(Analyzer.Call call, List<Bound> args) {
        Bound array = args.get(0);
        if (array.type() != null && !Types.is(array.type(), Kind.ARRAY)) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] shuffle needs an ARRAY, and '" + array.text() + "' is "
                    + Types.name(array.type()));
        }
        Draws<MersenneTwister> d = twister(call, args, 1);
        DataType type = array.type() == null ? Types.arrayOf(null) : array.type();
        return call.apply(List.of(call.as(array, type)), type, (Kernel.Unary) v -> shuffled((List<?>) v, d.rng()));
    }

    /** Spark's {@code RandomIndicesGenerator}: an inside-out Fisher-Yates shuffle of the indices, each drawn by nextInt(i + 1). */
    static List<Object> shuffled(List<?> in, MersenneTwister rng) {
        int n = in.size();
        int[] indices = new int[n];
        for (int i = 0; i < n; i++) {
            int j = rng.nextInt(i + 1);
            if (j != i) {
                indices[i] = indices[j];
            }
            indices[j] = i;
        }
        List<Object> out = new ArrayList<>(n);
        for (int i : indices) {
            out.add(in.get(i));
        }
        return out;
    }
}
