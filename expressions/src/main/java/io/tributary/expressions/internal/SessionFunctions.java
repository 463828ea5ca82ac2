package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.STRING;

import io.tributary.schema.BuildVersion;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Spark's session constants, as a Tributary job answers them: the catalog and database Spark names by default
 * ({@code spark_catalog}, {@code default}), the operating-system user running the service, and a version of Spark's
 * shape whose first field is the Spark release whose semantics Tributary follows.
 */
final class SessionFunctions {
    static final String CATALOG = "spark_catalog";
    static final String DATABASE = "default";
    static final String SPARK_VERSION = "4.2.0";
    private static final Set<String> KEYWORDS = Set.of("current_user", "user", "session_user");

    private SessionFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(constant("current_catalog", "'" + CATALOG + "', the catalog Spark names by default; Tributary reads no catalog", CATALOG));
        FunctionDef database = constant("current_database", "'" + DATABASE + "', the database Spark names by default", DATABASE);
        add.accept(database);
        add.accept(Fn.alias("current_schema", database));
        FunctionDef user = constant("current_user", "the operating-system user running the service (Java's user.name), as Spark names"
                + " the user running it; also written without parentheses", System.getProperty("user.name", ""));
        add.accept(user);
        add.accept(Fn.alias("user", user));
        add.accept(Fn.alias("session_user", user));
        add.accept(constant("version", "'" + SPARK_VERSION + " tributary-<version>': the Spark release whose semantics Tributary follows,"
                + " then Tributary's version where Spark gives its git revision", SPARK_VERSION + " tributary-" + BuildVersion.get()));
    }

    /** Whether {@code name} is one Spark also reads without parentheses ({@code current_user}), when no column has that name. */
    static boolean isKeyword(String name) {
        return KEYWORDS.contains(name.toLowerCase(java.util.Locale.ROOT));
    }

    private static FunctionDef constant(String name, String doc, String value) {
        return Fn.custom(name, 0, 0, name + "() → STRING", "never null", doc, (call, args) -> new Bound.Literal(value, STRING, call.text()));
    }
}
