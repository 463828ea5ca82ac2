package io.tributary.service.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tributary.schema.Progress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

/**
 * docs/grafana/tributary.json asks Prometheus only for series the service publishes (as a real
 * scrape names them), draws every Tributary metric, and names the datasource the compose stack
 * provisions.
 */
class GrafanaDashboardTest {
    private static final Path DASHBOARD = Path.of("..", "docs", "grafana", "tributary.json");
    private static final Path DATASOURCE = Path.of("..", "examples", "compose", "monitoring", "grafana", "provisioning", "datasources", "prometheus.yml");
    private static final Pattern SERIES = Pattern.compile("\\b(?:tributary|jvm|process)_[a-z_]+\\b");

    /** Every series a pipeline with an aggregation publishes, from a real scrape after one batch of each stage. */
    private static String scrape() throws InterruptedException {
        try (PipelineMetrics m = new PipelineMetrics("orders")) {
            m.readiness(() -> true);
            for (String stage : List.of("orders/ingest", "orders/aggregate", "orders/sink")) {
                m.declareStage(stage);
            }
            m.functionCounter(MetricNames.LATE_ROWS, "orders/aggregate", 2.0, v -> v);
            m.functionGauge(MetricNames.STATE_ROWS, "orders/aggregate", 5.0, v -> v);
            m.sourceActive("orders/ingest", () -> 1);
            m.ownedPartition("orders/aggregate", 0, () -> 1);
            m.ownedPartition("orders/sink", 0, () -> 1);
            m.ownedTopicPartition("orders/aggregate", "orders-web", 0, () -> 1);
            m.record(new Progress("orders/ingest", "r", "2026-01-01T10:00:00.000Z", 0, 3, 0, 0, Map.of("triggerExecution", 10L),
                    Map.of("watermark", "2026-01-01T09:55:00.000Z"), null,
                    List.of(new Progress.Source("FileSource[in]", null, Map.of("logOffset", 0), 3, Map.of("numBadRows", 1))),
                    new Progress.Sink("KafkaSink[t]", 3, Map.of())));
            m.record(new Progress("orders/sink", "r", "2026-01-01T10:00:01.000Z", 0, 3, 0, 0, Map.of("triggerExecution", 10L), null, null,
                    List.of(new Progress.Source("KafkaV2[Subscribe[t]]", null, Map.of("t", Map.of("0", 3)), 3, Map.of())),
                    new Progress.Sink("DeltaSink[out]", 3, Map.of("deltaVersion", 0))));
            m.lag("orders/sink", new PipelineMetrics.PartitionKey("t", 0), 0);
            // jvm_gc_pause_seconds appears with the first collection the JVM reports
            try {
                Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).pollDelay(Duration.ZERO)
                        .pollInSameThread().until(() -> {
                            if (m.scrape().contains("jvm_gc_pause_seconds_sum")) {
                                return true;
                            }
                            System.gc();
                            return false;
                        });
            } catch (ConditionTimeoutException e) {
                // the dashboard's check below then names the missing series
            }
            return m.scrape();
        }
    }

    private static List<String> expressions(JsonNode dashboard) {
        List<String> out = new ArrayList<>();
        dashboard.findValues("expr").forEach(e -> out.add(e.asText()));
        dashboard.path("templating").path("list").forEach(v -> out.add(v.path("query").path("query").asText()));
        return out;
    }

    @Test
    void everySeriesTheDashboardAsksForIsOneTheServicePublishes() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        String scrape = scrape();
        TreeSet<String> published = scrape.lines().filter(l -> !l.startsWith("#") && !l.isBlank())
                .map(l -> l.split("[{ ]", 2)[0]).collect(Collectors.toCollection(TreeSet::new));
        TreeSet<String> asked = new TreeSet<>();
        for (String expr : expressions(dashboard)) {
            Matcher m = SERIES.matcher(expr);
            while (m.find()) {
                asked.add(m.group());
            }
        }
        assertThat(asked).as("series the dashboard queries").isNotEmpty();
        assertThat(published).as("series a real scrape holds").containsAll(asked);
        for (MetricNames.Metric metric : MetricNames.ALL) {
            String prefix = metric.name().replace('.', '_');
            assertThat(asked).as("a panel for %s", metric.name()).anyMatch(s -> s.startsWith(prefix));
        }
    }

    @Test
    void everyPanelUsesTheProvisionedDatasource() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        String uid = new ObjectMapper(new YAMLFactory()).readTree(DATASOURCE.toFile()).at("/datasources/0/uid").asText();
        assertThat(uid).isEqualTo("prometheus");
        List<JsonNode> sources = dashboard.findValues("datasource");
        assertThat(sources).isNotEmpty().allSatisfy(d -> assertThat(d.path("uid").asText()).isEqualTo(uid));
        assertThat(dashboard.get("uid").asText()).isEqualTo("tributary");
    }
}
