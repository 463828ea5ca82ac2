package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import java.util.ArrayList;
import java.util.List;

/** Shorthands that build registry entries. */
final class Fn {
    private Fn() {
    }

    /**
     * A function with fixed argument types (each argument implicitly cast to its type), the optional
     * trailing ones filled with their defaults, a result type, and null in, null out.
     *
     * @param required how many of {@code types} must be given
     */
    static FunctionDef fixed(String name, String doc, DataType result, int required, List<DataType> types, List<Object> defaults, Kernel kernel) {
        String sig = name + "(" + String.join(", ", types.stream().map(DataType::ddl).toList()) + ") → " + result.ddl();
        return new FunctionDef(name, required, types.size(), sig, FunctionDef.NULL_IN_NULL_OUT, doc, (call, args) -> {
            List<Bound> cast = new ArrayList<>();
            for (int i = 0; i < types.size(); i++) {
                Bound b = i < args.size() ? args.get(i) : new Bound.Literal(defaults.get(i - required), types.get(i), String.valueOf(defaults.get(i - required)));
                cast.add(call.as(b, types.get(i)));
            }
            return call.apply(cast, result, kernel);
        });
    }

    static FunctionDef fixed(String name, String doc, DataType result, List<DataType> types, Kernel kernel) {
        return fixed(name, doc, result, types.size(), types, List.of(), kernel);
    }

    static FunctionDef unary(String name, String doc, DataType arg, DataType result, Kernel.Unary kernel) {
        return fixed(name, doc, result, List.of(arg), kernel);
    }

    static FunctionDef binary(String name, String doc, DataType a, DataType b, DataType result, Kernel.Binary kernel) {
        return fixed(name, doc, result, List.of(a, b), kernel);
    }

    /** A registry entry of another name resolving as {@code def} does: Spark's aliases (ceiling, substr, power ...). */
    static FunctionDef alias(String name, FunctionDef def) {
        String sig = def.signature().startsWith(def.name() + "(") ? name + def.signature().substring(def.name().length()) : def.signature();
        return new FunctionDef(name, def.minArgs(), def.maxArgs(), sig, def.nulls(),
                "the same as " + def.name(), def.resolver());
    }

    static FunctionDef custom(String name, int min, int max, String signature, String nulls, String doc, FunctionDef.Resolver resolver) {
        return new FunctionDef(name, min, max, signature, nulls, doc, resolver);
    }
}
