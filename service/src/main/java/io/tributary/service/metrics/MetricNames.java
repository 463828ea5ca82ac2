package io.tributary.service.metrics;

import java.util.List;

/**
 * Every metric the service publishes on {@code /metrics}, in one place: stable dotted names
 * (Prometheus shows them with underscores and the unit or {@code _total} suffix Micrometer adds,
 * e.g. {@code tributary.stage.rows.input} as {@code tributary_stage_rows_input_total}). Every
 * metric carries the tag {@code pipeline}; docs/operations.md lists them all (checked by a test).
 */
public final class MetricNames {
    /** One published metric: its name, kind, tags besides {@code pipeline}, and meaning. */
    public record Metric(String name, String kind, String tags, String doc) {
    }

    public static final String ROWS_INPUT = "tributary.stage.rows.input";
    public static final String ROWS_OUTPUT = "tributary.stage.rows.output";
    public static final String BATCH_DURATION = "tributary.stage.batch.duration";
    public static final String BATCH_ID = "tributary.stage.batch.id";
    public static final String LAG = "tributary.stage.lag.records";
    public static final String WATERMARK = "tributary.stage.watermark";
    public static final String BAD_ROWS = "tributary.ingest.rows.bad";
    public static final String LATE_ROWS = "tributary.aggregate.rows.late";
    public static final String STATE_ROWS = "tributary.aggregate.state.rows";
    public static final String DELTA_VERSION = "tributary.sink.delta.version";
    public static final String READY = "tributary.pipeline.ready";
    public static final String OWNED_PARTITION = "tributary.instance.partition.owned";
    public static final String SOURCE_ACTIVE = "tributary.instance.source.active";
    public static final String OWNED_TOPIC_PARTITION = "tributary.instance.topic.partition.owned";

    public static final List<Metric> ALL = List.of(
            new Metric(ROWS_INPUT, "counter", "stage", "rows a stage's batches read (Spark's numInputRows), since the process started"),
            new Metric(ROWS_OUTPUT, "counter", "stage", "rows a stage's batches wrote: to the events topic, the results topic or the Delta table"),
            new Metric(BATCH_DURATION, "timer", "stage", "how long a stage's batches took (Spark's durationMs.triggerExecution)"),
            new Metric(BATCH_ID, "gauge", "stage", "the id of the stage's last batch"),
            new Metric(LAG, "gauge", "stage, topic, partition",
                    "records committed to a topic that the stage reading it has not taken yet (end offset, read_committed, minus the stage's offset)"),
            new Metric(WATERMARK, "gauge", "stage", "the event-time watermark, epoch seconds (Spark's eventTime.watermark)"),
            new Metric(BAD_ROWS, "counter", "stage", "malformed input rows (dead-lettered or dropped as source.files.onBadRecord says)"),
            new Metric(LATE_ROWS, "counter", "stage", "(row, window) pairs dropped as later than the watermark (Spark's numRowsDroppedByWatermark)"),
            new Metric(STATE_ROWS, "gauge", "stage", "(window, group) rows held in the aggregation's state (Spark's numRowsTotal)"),
            new Metric(DELTA_VERSION, "gauge", "stage", "the Delta table's version after the sink's last commit"),
            new Metric(READY, "gauge", "", "1 when /health/ready answers 200 (every stage runs and the broker answers), else 0"),
            new Metric(OWNED_PARTITION, "gauge", "stage, partition", "1 while this instance owns the partition of the stage's input topic"
                    + " (the sink's, or an aggregation task's; a process that runs the whole pipeline owns them all), else 0"),
            new Metric(OWNED_TOPIC_PARTITION, "gauge", "stage, topic, partition", "1 while this instance owns the partition of a Kafka"
                    + " source's topic (an aggregation task's or the sink's, over several topics or a pattern; shown from the first time it owns it,"
                    + " a topic matched after the start too), else 0"),
            new Metric(SOURCE_ACTIVE, "gauge", "stage", "1 while this instance runs the source (holds its lease; a process that runs the whole"
                    + " pipeline does), 0 while it stands by"));

    /** The documentation line of a metric (its Prometheus HELP text). */
    public static String doc(String name) {
        return ALL.stream().filter(m -> m.name().equals(name)).map(Metric::doc).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("undeclared metric " + name));
    }

    private MetricNames() {
    }
}
