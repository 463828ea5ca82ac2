package io.tributary.connect.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.junit.jupiter.api.Test;

/** The tasks' figures reach the worker's metrics under the names tributary run exports. */
class TaskMetricsTest {
    @Test
    void countsAndTheTableVersionAreWorkerMetrics() {
        try (Metrics worker = new Metrics()) {
            PluginMetricsImpl plugin = new PluginMetricsImpl(worker, Map.of("connector", "orders-delta", "task", "0"));
            TaskMetrics m = TaskMetrics.of(() -> plugin);
            long[] version = {-1};
            TaskMetrics.deltaVersion(() -> plugin, () -> version[0]);
            m.input(500);
            m.input(500);
            m.output(1000);
            m.bad(2);
            version[0] = 7;
            Map<String, Object> byName = new HashMap<>();
            for (KafkaMetric k : worker.metrics().values()) {
                if (k.metricName().name().startsWith("tributary.") && "orders-delta".equals(k.metricName().tags().get("connector"))) {
                    byName.put(k.metricName().name(), k.metricValue());
                }
            }
            assertThat(byName).containsEntry("tributary.stage.rows.input", 1000.0).containsEntry("tributary.stage.rows.output", 1000.0)
                    .containsEntry("tributary.ingest.rows.bad", 2.0).containsEntry("tributary.sink.delta.version", 7L);
        }
    }

    @Test
    void aWorkerWithoutPluginMetricsKeepsNone() {
        TaskMetrics m = TaskMetrics.of(() -> {
            throw new AbstractMethodError("pluginMetrics");
        });
        m.input(1); // nothing to record into, and no failure
        TaskMetrics.deltaVersion(() -> null, () -> 1L);
    }
}
