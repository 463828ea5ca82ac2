package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.expressions.internal.FunctionDef;
import io.tributary.expressions.internal.FunctionRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/transform.md's function table is the registry, entry for entry: Spark's name, the signature,
 * the null behaviour and the line of doc. {@code -Dtributary.docs.write=true} writes the table into
 * the doc (between its markers) after a change to the registry.
 */
class TransformDocTest {
    private static final Path DOC = Path.of("..", "docs", "transform.md");
    private static final String BEGIN = "<!-- functions: generated from the registry by TransformDocTest -->";
    private static final String END = "<!-- end of functions -->";

    static List<String> rows() {
        List<String> rows = new ArrayList<>();
        rows.add("| Spark name | arguments → result | nulls | what it gives |");
        rows.add("| --- | --- | --- | --- |");
        for (FunctionDef f : FunctionRegistry.all()) {
            rows.add("| `" + cell(f.name()) + "` | " + cell(f.signature()) + " | " + cell(f.nulls()) + " | " + cell(f.doc()) + " |");
        }
        return rows;
    }

    private static String cell(String text) {
        return text.replace("|", "\\|");
    }

    @Test
    void theFunctionTableIsTheRegistry() throws IOException {
        String doc = Files.readString(DOC);
        int begin = doc.indexOf(BEGIN);
        int end = doc.indexOf(END);
        String table = String.join("\n", rows());
        if (Boolean.getBoolean("tributary.docs.write")) {
            doc = doc.substring(0, begin + BEGIN.length()) + "\n" + table + "\n" + doc.substring(end);
            Files.writeString(DOC, doc);
            end = doc.indexOf(END);
        }
        assertThat(begin).as("%s has the marker %s", DOC, BEGIN).isNotNegative();
        assertThat(doc.substring(begin + BEGIN.length(), end).strip()).as("the function table of %s", DOC).isEqualTo(table);
        assertThat(FunctionRegistry.all()).hasSizeGreaterThan(100);
    }
}
