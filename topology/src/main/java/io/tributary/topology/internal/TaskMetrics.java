package io.tributary.topology.internal;

import io.tributary.topology.AggregateMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.MeasurableStat;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.common.metrics.stats.Value;
import org.apache.kafka.streams.StreamsMetrics;

/** The task's sensors, named in {@link AggregateMetrics}. */
final class TaskMetrics {
    private final StreamsMetrics registry;
    private final List<Sensor> sensors = new ArrayList<>();
    private final Sensor input;
    private final Sensor rowsTotal;
    private final Sensor dropped;
    private final Sensor updated;
    private final Sensor output;
    private final Sensor watermark;
    private final Gauge openBatchPosition = new Gauge(-1);
    private final Gauge pendingCloses = new Gauge(0);

    TaskMetrics(StreamsMetrics registry, String taskId) {
        this.registry = registry;
        input = sensor(taskId, AggregateMetrics.INPUT_ROWS, "rows read from the events topic (markers not counted)", new CumulativeSum());
        rowsTotal = sensor(taskId, AggregateMetrics.ROWS_TOTAL, "state rows (window, group) held now", new Value());
        dropped = sensor(taskId, AggregateMetrics.ROWS_DROPPED, "(row, window) pairs dropped as late", new CumulativeSum());
        updated = sensor(taskId, AggregateMetrics.ROWS_UPDATED, "state rows updated, once per row per batch", new CumulativeSum());
        output = sensor(taskId, AggregateMetrics.OUTPUT_ROWS, "result rows written", new CumulativeSum());
        watermark = sensor(taskId, AggregateMetrics.WATERMARK_MS, "the watermark, epoch ms", new Value());
        sensor(taskId, AggregateMetrics.OPEN_BATCH_POSITION,
                "the offset after the last events record read while its batch awaits its marker, -1 when none does", openBatchPosition);
        sensor(taskId, AggregateMetrics.PENDING_CLOSES, "the markers whose closing of windows is not done yet", pendingCloses);
    }

    /** A value set directly, read by whoever reads the metric: no sensor's lock per record. */
    private static final class Gauge implements MeasurableStat {
        private volatile double value;

        Gauge(double initial) {
            this.value = initial;
        }

        @Override
        public double measure(MetricConfig config, long now) {
            return value;
        }

        @Override
        public void record(MetricConfig config, double v, long timeMs) {
            this.value = v;
        }
    }

    private Sensor sensor(String taskId, String name, String doc, MeasurableStat stat) {
        Sensor s = registry.addSensor("tributary-aggregate." + taskId + "." + name, Sensor.RecordingLevel.INFO);
        s.add(new MetricName(name, AggregateMetrics.GROUP, doc, Map.of(AggregateMetrics.TAG_TASK, taskId)), stat);
        sensors.add(s);
        return s;
    }

    void input(long n) {
        input.record(n);
    }

    void rowsTotal(long n) {
        rowsTotal.record(n);
    }

    void dropped() {
        dropped.record(1);
    }

    void updated(long n) {
        updated.record(n);
    }

    void output(long n) {
        output.record(n);
    }

    void watermark(long ms) {
        watermark.record(ms);
    }

    /** A batch is open up to {@code position} (the offset after its last record read), or none ({@code -1}). */
    void openBatchPosition(long position) {
        openBatchPosition.value = position;
    }

    /** How many markers' closings are not done. */
    void pendingCloses(int n) {
        pendingCloses.value = n;
    }

    void close() {
        sensors.forEach(registry::removeSensor);
    }
}
