package io.tributary.service.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The configuration table of docs/configuration.md lists every declared setting with its default and doc line. */
class SettingsDocumentationTest {
    @Test
    void configurationTableMatchesTheDeclaredSettings() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "configuration.md"));
        for (Setting s : Settings.ALL) {
            String def = s.required() ? "(required)" : s.defaultValue() == null ? "" : "`" + s.defaultValue() + "`";
            String row = "| `" + s.key() + "` | " + def + " | " + s.doc().replace("|", "\\|") + " |";
            assertThat(doc).as("docs/configuration.md row for %s", s.key()).contains(row);
        }
    }

    @Test
    void configurationDocNamesTheEnvironmentVariablesThatAreNotKeys() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "configuration.md"));
        for (String name : Settings.NOT_KEYS.keySet()) {
            assertThat(doc).as("docs/configuration.md mentions %s", name).contains("`" + name + "`");
        }
    }
}
