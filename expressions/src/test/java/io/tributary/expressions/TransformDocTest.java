package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.expressions.internal.FunctionDef;
import io.tributary.expressions.internal.FunctionRegistry;
import io.tributary.expressions.internal.Generator;
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

    private static final String GENERATORS = "<!-- generators: generated from Generator.docs() by TransformDocTest -->";
    private static final String GENERATORS_END = "<!-- end of generators -->";

    static List<String> generatorRows() {
        List<String> rows = new ArrayList<>();
        rows.add("| Spark name | argument | columns (without AS) | rows of one value |");
        rows.add("| --- | --- | --- | --- |");
        for (Generator.Doc g : Generator.docs()) {
            rows.add("| `" + g.name() + "` | " + g.argument() + " | " + g.columns() + " | " + g.rows() + " |");
        }
        return rows;
    }

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
        checkTable(BEGIN, END, rows());
        assertThat(FunctionRegistry.all()).hasSizeGreaterThan(100);
    }

    @Test
    void theGeneratorTableIsTheGenerators() throws IOException {
        checkTable(GENERATORS, GENERATORS_END, generatorRows());
    }

    private static void checkTable(String beginMarker, String endMarker, List<String> rows) throws IOException {
        String doc = Files.readString(DOC);
        int begin = doc.indexOf(beginMarker);
        int end = doc.indexOf(endMarker);
        String table = String.join("\n", rows);
        if (Boolean.getBoolean("tributary.docs.write")) {
            doc = doc.substring(0, begin + beginMarker.length()) + "\n" + table + "\n" + doc.substring(end);
            Files.writeString(DOC, doc);
            end = doc.indexOf(endMarker);
        }
        assertThat(begin).as("%s has the marker %s", DOC, beginMarker).isNotNegative();
        assertThat(doc.substring(begin + beginMarker.length(), end).strip()).as("the table of %s after %s", DOC, beginMarker).isEqualTo(table);
    }
}
