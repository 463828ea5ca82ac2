package io.tributary.tests;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Spark's recordings (golden/ at the top of the repository, on the test classpath) as the scenarios read them. */
final class Golden {
    private Golden() {
    }

    /** The text of {@code golden/<path>}; fails naming the path when there is no such fixture. */
    static String read(String path) throws IOException {
        try (InputStream in = Golden.class.getResourceAsStream("/golden/" + path)) {
            if (in == null) {
                throw new IOException("no golden fixture " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The rows of a table Spark printed in {@code golden/<path>}: its lines that start with a window, {@code {start, end}|...}. */
    static List<String> windowRows(String path) throws IOException {
        return read(path).lines().filter(l -> l.startsWith("{")).toList();
    }
}
