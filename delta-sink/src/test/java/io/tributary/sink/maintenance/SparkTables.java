package io.tributary.sink.maintenance;

import io.tributary.testing.Folders;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The tables Spark 4.2 + Delta 4.4 wrote for these tests (src/test/resources/spark-tables, made by
 * compat/spark's SparkFixtures; its README says how), copied to a test's folder before use.
 */
public final class SparkTables {
    private SparkTables() {
    }

    /** A copy of fixture {@code name} (e.g. {@code dv-v2-checkpoint}) in {@code dir}. */
    public static Path copy(String name, Path dir) {
        return Folders.copy(resource(name), dir.resolve(name));
    }

    /** The fixture's {@code .actions} file: each commit's adds and removes, written before its commits were deleted. */
    static Path actions(String name) {
        return resource(name + ".actions");
    }

    /** Fixture {@code name}'s file or folder as it is in the test resources (read it, never write it). */
    public static Path resource(String name) {
        try {
            return Path.of(Objects.requireNonNull(SparkTables.class.getResource("/spark-tables/" + name), name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
