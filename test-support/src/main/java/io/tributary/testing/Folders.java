package io.tributary.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Folders the tests copy: a fixture table from the golden resources into a test's own folder. */
public final class Folders {
    private Folders() {
    }

    /** A copy of the folder {@code source} and everything in it at {@code target}; returns {@code target}. */
    public static Path copy(Path source, Path target) {
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
}
