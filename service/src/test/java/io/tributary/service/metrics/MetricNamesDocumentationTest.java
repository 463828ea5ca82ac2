package io.tributary.service.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The metrics table of docs/operations.md lists every metric the service publishes, with its kind, tags and meaning. */
class MetricNamesDocumentationTest {
    @Test
    void operationsPageListsEveryMetric() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "operations.md"));
        for (MetricNames.Metric m : MetricNames.ALL) {
            String row = "| `" + m.name() + "` | " + m.kind() + " | " + m.tags() + " | " + m.doc() + " |";
            assertThat(doc).as("docs/operations.md row for %s", m.name()).contains(row);
        }
    }

    @Test
    void namesAreDottedLowercaseUnderTributary() {
        assertThat(MetricNames.ALL).allSatisfy(m -> assertThat(m.name()).matches("tributary(\\.[a-z]+)+"));
        assertThat(MetricNames.ALL.stream().map(MetricNames.Metric::name).distinct()).hasSameSizeAs(MetricNames.ALL);
    }
}
