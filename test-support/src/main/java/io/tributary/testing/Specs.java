package io.tributary.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The pipeline specs tests share, written once. */
public final class Specs {
    /** The repository's quickstart example (spec and input files), seen from a module's folder, where its tests run. */
    public static final Path QUICKSTART_EXAMPLE = Path.of("..", "examples", "quickstart");

    /**
     * The quickstart: new JSON files in {@code in/} become rows of the Delta table in {@code out/}, run
     * once ({@code availableNow}), on the embedded broker. The example's {@code pipeline.yaml} without its
     * comments ({@code SpecsTest} checks they match).
     */
    public static final String QUICKSTART = """
            name: quickstart
            source:
              files:
                path: in/
                format: json
                schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
            sink:
              delta:
                path: out/
            trigger: availableNow
            """;

    private Specs() {
    }

    /** {@link #QUICKSTART} as pipeline {@code name}. */
    public static String quickstart(String name) {
        return QUICKSTART.replace("name: quickstart\n", "name: " + name + "\n");
    }

    /**
     * A copy of the quickstart example in {@code folder}: its {@code pipeline.yaml}, comments and all, and
     * its input files in {@code in/}, as files put there a while ago ({@link InputFiles#settled}); returns the spec's path.
     */
    public static Path copyQuickstartExample(Path folder) throws IOException {
        Path spec = folder.resolve("pipeline.yaml");
        Files.createDirectories(spec.resolveSibling("in"));
        Files.copy(QUICKSTART_EXAMPLE.resolve("pipeline.yaml"), spec);
        try (Stream<Path> files = Files.list(QUICKSTART_EXAMPLE.resolve("in"))) {
            for (Path f : files.toList()) {
                InputFiles.settled(Files.copy(f, spec.resolveSibling("in").resolve(f.getFileName())));
            }
        }
        return spec;
    }
}
