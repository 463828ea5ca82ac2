package io.tributary.schema;

import java.nio.charset.StandardCharsets;

/**
 * The names and record conventions of a pipeline's topics: the contract between the stages,
 * which never call one another.
 *
 * <ul>
 *   <li>{@code events}: input rows, up to {@code rowsPerRecord} (1000) of one file per record
 *       ({@link RowPack}: {@link RowJson} of the input schema, one row per line; the Delta source
 *       writes one row per record); key = null;
 *       the partition of a row with group-by (or upsert key) columns is the one Kafka's default
 *       partitioner gives the JSON array of their values ({@link GroupKey}), so a group's rows share a
 *       partition in order; timestamp = the newest event time of the record's rows when an event-time column is set.
 *   <li>{@code ingest-log}: compacted; key = the file's path, value = the file's ingest record.
 *   <li>{@code deadletter}: rows that failed to parse, with file, line, field, reason and text.
 *   <li>{@code results}: the aggregation's output rows, packed as events are (up to 1000 per
 *       record, {@link RowJson} of its schema), key null.
 * </ul>
 *
 * <p>A <em>watermark marker</em> is a record on every partition of {@code events} with the
 * header {@value #MARKER_HEADER} = {@code watermark}, key null and value
 * {@code {"batchId":N,"watermarkMs":W}} ({@link #watermarkMarker}): when an aggregation reads the
 * events, the source stage (the file ingest or the Delta source) publishes it at the end of each
 * batch N, in the same transaction, with W the watermark of that batch (Spark's: max event time of all earlier batches minus the delay), or null when the
 * aggregation has no watermark (its output modes complete and update still write their rows at
 * each marker). When no data batch follows (the end of an
 * {@code availableNow} run, or a trigger that finds no new file) and the data seen so far has
 * moved the watermark, it publishes one more marker {@code {N+1, W'}}: Spark's no-data batch,
 * which emits the windows that closed. When both are in one transaction (an availableNow run's
 * last data batch), marker N carries {@code "followedByMarker":true}: the aggregation then asks
 * for no commit at N, so that the windows N+1 closes are never written to its state store. A
 * marker between two back-to-back data batches would judge the second batch's rows by a
 * watermark Spark had not yet applied to them. Row consumers
 * (the raw sink) skip markers; the topology forwards them to {@code results} with the batch's
 * counts, so a sink knows when a batch's output is complete.
 *
 * <p>When the ingest's schema is not the spec's (its columns grew with
 * {@code schemaEvolution: addNewColumns}, or it was inferred), every events record carries the
 * header {@value #SCHEMA_HEADER} with that schema's DDL: a reader whose schema lacks some of its
 * columns learns them there, before it parses the record (the Delta sink adds them to its table).
 */
public final class Topics {
    public static final String MARKER_HEADER = "tributary.marker";
    /** The header of an events record that names the schema of its rows (a DDL string). */
    public static final String SCHEMA_HEADER = "tributary.schema";
    /**
     * The header of an events record whose rows are in {@link RowBinary}'s form rather than JSON Lines: the
     * DDL of the schema they were written with. The file source writes them so when the Delta sink is the
     * events topic's only reader (no aggregation, no deduplication); a reader that finds no such header reads JSON.
     */
    public static final String ROWS_HEADER = "tributary.rows";
    public static final byte[] WATERMARK = "watermark".getBytes(StandardCharsets.UTF_8);

    /**
     * The {@code batch.size} of the producers that write rows (the ingest, the aggregation's
     * results): a produce request per 960 KiB of rows, a quarter of the requests 256 KiB batches
     * make and far fewer than Kafka's 16 KiB default (a 1M-row raw run: about 0.2 s less of the
     * broker's CPU). Below the 1 MiB a topic takes by default ({@code max.message.bytes}).
     */
    public static final int ROW_BATCH_BYTES = 960 * 1024;

    /**
     * The {@code compression.type} of the producers that write rows (the ingest, the aggregation's
     * results and changelogs) unless the spec's {@code kafka:} settings name one: LZ4, Kafka's
     * cheapest codec. The bench's JSON rows take 19 MB of broker log instead of 69 MB, and the
     * broker's validation of compressed batches costs less than the bytes it does not handle
     * (a 1M-row raw run about 4% faster, with the same CPU; docs/performance.md).
     */
    public static final String ROW_COMPRESSION = "lz4";

    /**
     * Topic settings for the topics whose record timestamps are event times ({@code events},
     * {@code results}, the late rows): no time-based retention. Kafka deletes a segment once its
     * newest timestamp is older than {@code retention.ms} (7 days by default), so a backfill of
     * events more than a week old lost rows before the next stage had read them (the broker's
     * first retention check runs 30 s after it starts). Kept until deleted by hand.
     */
    public static final java.util.Map<String, String> EVENT_TIME_TOPIC_CONFIG = java.util.Map.of("retention.ms", "-1");

    private Topics() {
    }

    /**
     * A watermark marker's value: {@code {"batchId":N,"watermarkMs":W}} (W null when the pipeline
     * keeps no watermark), with {@code "followedByMarker":true} when the same transaction holds
     * the next batch's marker too.
     */
    public static byte[] watermarkMarker(long batchId, Long watermarkMs, boolean followedByMarker) {
        return ("{\"batchId\":" + batchId + ",\"watermarkMs\":" + watermarkMs + (followedByMarker ? ",\"followedByMarker\":true" : "")
                + "}").getBytes(StandardCharsets.UTF_8);
    }

    public static String events(String pipeline) {
        return "tributary." + pipeline + ".events";
    }

    public static String ingestLog(String pipeline) {
        return "tributary." + pipeline + ".ingest-log";
    }

    public static String deadLetter(String pipeline) {
        return "tributary." + pipeline + ".deadletter";
    }

    public static String results(String pipeline) {
        return "tributary." + pipeline + ".results";
    }

    /** The rows {@code transform.dropDuplicates} keeps, with the batches' markers, that an aggregation after it reads. */
    public static String deduplicated(String pipeline) {
        return "tributary." + pipeline + ".deduplicated";
    }

    public static String lateRows(String pipeline) {
        return "tributary." + pipeline + ".late-rows";
    }

    /** The pipeline's defining settings, as its instances on a Kafka cluster recorded them (compacted, key = the pipeline's name). */
    public static String spec(String pipeline) {
        return "tributary." + pipeline + ".spec";
    }
}
