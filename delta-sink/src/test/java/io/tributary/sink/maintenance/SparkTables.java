package io.tributary.sink.maintenance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The tables Spark 4.2 + Delta 4.4 wrote for these tests (src/test/resources/spark-tables, made by
 * compat/spark's SparkFixtures; its README says how), copied to a test's folder before use.
 */
public final class SparkTables {
    private SparkTables() {
    }

    /** A copy of fixture {@code name} (e.g. {@code dv-v2-checkpoint}) in {@code dir}. */
    public static Path copy(String name, Path dir) {
        Path source = resource(name);
        Path target = dir.resolve(name);
        try (Stream<Path> files = Files.walk(source)) {
            for (Path p : files.toList()) {
                Path t = target.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return target;
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
