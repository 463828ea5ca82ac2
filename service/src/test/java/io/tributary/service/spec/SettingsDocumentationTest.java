package io.tributary.service.spec;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.settings.Setting;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The configuration table of docs/configuration.md is the declared settings, both ways: a row per
 * setting with its default and doc line, in their order, and no row for a key that is not one.
 */
class SettingsDocumentationTest {
    private static final Path DOC = Path.of("..", "docs", "configuration.md");

    @Test
    void configurationTableIsTheDeclaredSettings() throws IOException {
        List<String> expected = new ArrayList<>();
        for (Setting<?> s : Settings.ALL) {
            String def = s.isRequired() ? "(required)" : s.defaultValue() == null ? "" : "`" + s.defaultValue() + "`";
            expected.add("| `" + s.key() + "` | " + def + " | " + s.doc().replace("|", "\\|") + " |");
        }
        List<String> rows = Files.readAllLines(DOC).stream().filter(l -> l.startsWith("| `")).toList();
        assertThat(rows).as("the rows of the settings table in %s", DOC).isEqualTo(expected);
    }

    @Test
    void configurationDocNamesTheEnvironmentVariablesThatAreNotKeys() throws IOException {
        String doc = Files.readString(DOC);
        for (String name : Settings.NOT_KEYS.keySet()) {
            assertThat(doc).as("docs/configuration.md mentions %s", name).contains("`" + name + "`");
        }
    }
}
