package io.tributary.expressions;

import io.tributary.expressions.internal.Hashing;
import io.tributary.schema.DataType;
import java.util.function.ToLongFunction;

/** Spark's hashes of a value, for the parts of Tributary that hash as Spark does (an aggregate's HyperLogLog++ registers). */
public final class SparkHash {
    private SparkHash() {
    }

    /**
     * Spark's {@code XxHash64Function.hash(value, type, seed)} of a non-null value of {@code type} (Spark's {@code xxhash64} of
     * one column with that seed); a type Spark cannot hash, a map, is refused with IllegalArgumentException.
     */
    public static ToLongFunction<Object> xxhash64(DataType type, long seed) {
        return Hashing.xxhash64(type, seed);
    }
}
