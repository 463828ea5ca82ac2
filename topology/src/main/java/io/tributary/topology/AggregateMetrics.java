package io.tributary.topology;

/**
 * The names of the metrics the aggregation registers on Kafka Streams' metrics registry
 * ({@code KafkaStreams.metrics()}, JMX {@code kafka.streams:type=tributary-aggregate-metrics,...}),
 * one set per task (tag {@value #TAG_TASK}). They mirror Spark's {@code stateOperators} figures.
 * The same counts, per batch, ride on each marker the topology forwards to the results topic
 * (fields {@value #MARKER_ROWS_TOTAL}, {@value #MARKER_ROWS_UPDATED},
 * {@value #MARKER_ROWS_DROPPED}, {@value #MARKER_OUTPUT_ROWS}), which is where a progress line
 * per batch should read them: sum them over the partitions of one batchId.
 */
public final class AggregateMetrics {
    public static final String GROUP = "tributary-aggregate-metrics";
    public static final String TAG_TASK = "task-id";
    /** Cumulative: input rows read since the task started (markers not counted); Spark's {@code numInputRows}. */
    public static final String INPUT_ROWS = "num-input-rows-total";
    /** Gauge: rows (window, group) held in state now; Spark's {@code numRowsTotal}. */
    public static final String ROWS_TOTAL = "num-rows-total";
    /** Cumulative: (row, window) pairs dropped as late since the task started; Spark's {@code numRowsDroppedByWatermark}. */
    public static final String ROWS_DROPPED = "num-rows-dropped-by-watermark-total";
    /** Cumulative: state rows updated, counted once per row per batch; Spark's {@code numRowsUpdated}. */
    public static final String ROWS_UPDATED = "num-rows-updated-total";
    /** Cumulative: result rows written to the results topic. */
    public static final String OUTPUT_ROWS = "num-output-rows-total";
    /** Gauge: the task's current watermark in epoch milliseconds (NaN before the first one). */
    public static final String WATERMARK_MS = "watermark-ms";
    /**
     * Gauge: while the rows the task read since the last marker wait for the marker that ends
     * their batch, the offset after the last events record it processed; -1 when no batch is
     * open (before any record, and from each marker on). A bounded run that finds the task at
     * the end of the events topic with a batch still open knows that no marker will end it.
     */
    public static final String OPEN_BATCH_POSITION = "open-batch-position";
    /**
     * Gauge: the markers whose closing (append mode: the windows their watermark closes, written
     * out a bounded step per transaction) is not done yet, so their batch's output is not all in
     * the results topic; 0 when none.
     */
    public static final String PENDING_CLOSES = "pending-closes";

    public static final String MARKER_ROWS_TOTAL = "numRowsTotal";
    public static final String MARKER_ROWS_UPDATED = "numRowsUpdated";
    public static final String MARKER_ROWS_DROPPED = "numRowsDroppedByWatermark";
    public static final String MARKER_OUTPUT_ROWS = "numOutputRows";

    private AggregateMetrics() {
    }
}
