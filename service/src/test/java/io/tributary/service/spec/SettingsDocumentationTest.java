package io.tributary.service.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's configuration table lists every declared setting with its default and doc line. */
class SettingsDocumentationTest {
    @Test
    void readmeTableMatchesTheDeclaredSettings() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        for (Setting s : Settings.ALL) {
            String def = s.required() ? "(required)" : s.defaultValue() == null ? "" : "`" + s.defaultValue() + "`";
            String row = "| `" + s.key() + "` | " + def + " | " + s.doc().replace("|", "\\|") + " |";
            assertThat(readme).as("README row for %s", s.key()).contains(row);
        }
    }

    @Test
    void readmeNamesTheEnvironmentVariablesThatAreNotKeys() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        for (String name : Settings.NOT_KEYS.keySet()) {
            assertThat(readme).as("README mentions %s", name).contains("`" + name + "`");
        }
    }
}
