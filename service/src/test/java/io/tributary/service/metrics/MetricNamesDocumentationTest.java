package io.tributary.service.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's metrics table lists every metric the service publishes, with its kind, tags and meaning. */
class MetricNamesDocumentationTest {
    @Test
    void readmeListsEveryMetric() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        for (MetricNames.Metric m : MetricNames.ALL) {
            String row = "| `" + m.name() + "` | " + m.kind() + " | " + m.tags() + " | " + m.doc() + " |";
            assertThat(readme).as("README row for %s", m.name()).contains(row);
        }
    }

    @Test
    void namesAreDottedLowercaseUnderTributary() {
        assertThat(MetricNames.ALL).allSatisfy(m -> assertThat(m.name()).matches("tributary(\\.[a-z]+)+"));
        assertThat(MetricNames.ALL.stream().map(MetricNames.Metric::name).distinct()).hasSameSizeAs(MetricNames.ALL);
    }
}
