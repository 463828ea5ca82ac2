package io.tributary.expressions.internal;

import java.util.List;

/**
 * One function of the registry: its Spark name, how many arguments it takes, its signature and null
 * behaviour as the docs print them, one line of doc, and how it resolves against typed arguments.
 *
 * @param maxArgs the most arguments it takes, -1 for any number
 */
public record FunctionDef(String name, int minArgs, int maxArgs, String signature, String nulls, String doc, Resolver resolver) {
    /** Null behaviour of most functions (Spark's {@code NullIntolerant}). */
    public static final String NULL_IN_NULL_OUT = "null if any argument is null";

    /** Builds the typed node of one call, its arguments already resolved. */
    @FunctionalInterface
    public interface Resolver {
        Bound resolve(Analyzer.Call call, List<Bound> args);
    }

    public String arity() {
        if (maxArgs == minArgs) {
            return Integer.toString(minArgs);
        }
        return maxArgs < 0 ? minArgs + " or more" : minArgs + " to " + maxArgs;
    }
}
