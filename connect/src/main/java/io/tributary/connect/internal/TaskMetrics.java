package io.tributary.connect.internal;

import java.util.LinkedHashMap;
import java.util.function.Supplier;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeSum;

/**
 * A task's figures under the names {@code tributary run} exports ({@code tributary.stage.rows.input},
 * {@code tributary.stage.rows.output}, {@code tributary.ingest.rows.bad}, {@code tributary.sink.delta.version}),
 * registered as Connect plugin metrics: the worker reports them with its own (JMX and its metrics
 * reporters), tagged with the connector and task. A worker older than Kafka 4.1 has no plugin
 * metrics; the figures are then not kept.
 */
public final class TaskMetrics {
    private final Sensor rowsInput;
    private final Sensor rowsOutput;
    private final Sensor badRows;

    private TaskMetrics(PluginMetrics metrics) {
        this.rowsInput = counter(metrics, "tributary.stage.rows.input", "rows read (lines of files, rows of records)");
        this.rowsOutput = counter(metrics, "tributary.stage.rows.output", "rows published to the topic, or committed to the table");
        this.badRows = counter(metrics, "tributary.ingest.rows.bad", "lines that were bad records (dead-lettered or dropped)");
    }

    /** The metrics of a task whose context gives {@code metrics} (a supplier: older workers lack the method). */
    public static TaskMetrics of(Supplier<PluginMetrics> metrics) {
        try {
            PluginMetrics m = metrics.get();
            return m == null ? new TaskMetrics(null) : new TaskMetrics(m);
        } catch (LinkageError | UnsupportedOperationException e) {
            return new TaskMetrics(null);
        }
    }

    /** Adds a gauge of the table's version a sink task last committed. */
    public static void deltaVersion(Supplier<PluginMetrics> metrics, Supplier<Long> version) {
        try {
            PluginMetrics m = metrics.get();
            if (m != null) {
                m.addMetric(m.metricName("tributary.sink.delta.version", "the table version this task last committed (-1: none yet)",
                        new LinkedHashMap<>()), (Gauge<Long>) (config, now) -> version.get());
            }
        } catch (LinkageError | UnsupportedOperationException e) {
            // no plugin metrics on this worker
        }
    }

    private static Sensor counter(PluginMetrics metrics, String name, String doc) {
        if (metrics == null) {
            return null;
        }
        Sensor s = metrics.addSensor(name);
        s.add(metrics.metricName(name, doc, new LinkedHashMap<>()), new CumulativeSum());
        return s;
    }

    public void input(long rows) {
        record(rowsInput, rows);
    }

    public void output(long rows) {
        record(rowsOutput, rows);
    }

    public void bad(long rows) {
        record(badRows, rows);
    }

    private static void record(Sensor s, long n) {
        if (s != null && n > 0) {
            s.record(n);
        }
    }
}
