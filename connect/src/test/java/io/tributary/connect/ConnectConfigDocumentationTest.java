package io.tributary.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

/** docs/connect.md lists every key of both connectors with its default and doc line, as declared. */
class ConnectConfigDocumentationTest {
    private static final Path DOC = Path.of("..", "docs", "connect.md");

    @Test
    void theFileSourceTableMatchesItsConfigDef() throws IOException {
        assertThat(table("### FileSourceConnector")).isEqualTo(rows(FileSourceConfig.DEF));
    }

    @Test
    void theDeltaSinkTableMatchesItsConfigDef() throws IOException {
        Map<String, String> documented = table("### DeltaSinkConnector");
        documented.remove("topics (Connect's own)");
        assertThat(documented).isEqualTo(rows(DeltaSinkConfig.DEF));
    }

    /** key -> "default | doc" as the table's rows should read. */
    private static Map<String, String> rows(ConfigDef def) {
        Map<String, String> out = new LinkedHashMap<>();
        def.configKeys().values().forEach(k -> {
            String dflt = k.defaultValue == ConfigDef.NO_DEFAULT_VALUE ? "(required)"
                    : k.defaultValue == null || (k.defaultValue instanceof List<?> l && l.isEmpty()) ? "" : "`" + k.defaultValue + "`";
            out.put(k.name, dflt + " | " + k.documentation);
        });
        return out;
    }

    /** The rows of the first table after {@code heading}: key -> "default | meaning". */
    private static Map<String, String> table(String heading) throws IOException {
        List<String> lines = Files.readAllLines(DOC);
        int i = lines.indexOf(heading);
        assertThat(i).as("%s in %s", heading, DOC).isNotNegative();
        while (!lines.get(i).startsWith("| key")) {
            i++;
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (i += 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            String[] cells = lines.get(i).split("\\|", -1);
            out.put(cells[1].strip().replace("`", ""), cells[2].strip() + " | " + cells[3].strip());
        }
        return out;
    }
}
