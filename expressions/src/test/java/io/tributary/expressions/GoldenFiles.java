package io.tributary.expressions;

import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The repository's golden files as the tests read them from the test classpath ({@code golden/...}); other modules' tests take it from this module's test-jar. */
public final class GoldenFiles {
    private GoldenFiles() {
    }

    /** A golden file's text, by its path under golden/ ({@code joins/case.json}). */
    public static String read(String path) throws IOException {
        try (InputStream in = GoldenFiles.class.getClassLoader().getResourceAsStream("golden/" + path)) {
            if (in == null) {
                throw new IOException("no golden/" + path + " on the test classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The rows of a golden JSON Lines file ({@code joins/rows.jsonl}) over {@code schema}. */
    public static List<Object[]> rows(Schema schema, String path) throws IOException {
        RowJson json = new RowJson(schema);
        List<Object[]> out = new ArrayList<>();
        for (String line : read(path).split("\n")) {
            if (!line.isBlank()) {
                out.add(json.parse(line));
            }
        }
        return out;
    }
}
