package io.tributary.source.internal;

import io.tributary.kafka.KeyPartition;
import io.tributary.schema.GroupKey;
import io.tributary.schema.RowJson;
import io.tributary.schema.RowPack;
import io.tributary.schema.Schema;
import io.tributary.schema.Topics;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The events records of one batch, as the topic contract ({@link Topics}) wants them: rows packed
 * {@code rowsPerRecord} to a record ({@link RowPack}, as the file source packs them); a row with
 * group-by columns goes to the partition {@link GroupKey} gives it, so a group's rows share a
 * partition in order, and rows without go to one partition a pack, in turn. A record's timestamp
 * is the newest event time of its rows when an event-time column is set. It keeps the event-time
 * statistics of the batch, and makes the batch's watermark markers.
 */
public final class EventRows {
    private final String topic;
    private final int partitions;
    private final GroupKey keys;
    private final boolean keyed;
    private final int eventTimeColumn;
    private final int rowsPerRecord;
    private final RowPack[] packs;
    private int nextPartition;
    private long rows;
    private byte[] schemaHeader;
    private long count;
    private long min = Long.MAX_VALUE;
    private long max = Long.MIN_VALUE;
    private double sum;

    /**
     * @param eventTime the event-time column, or null
     * @param groupBy the columns that place a row; empty (or one partition): the packs take the partitions in turn
     */
    public EventRows(String topic, int partitions, Schema schema, String eventTime, List<String> groupBy, int rowsPerRecord) {
        this.topic = topic;
        this.partitions = partitions;
        this.keys = new GroupKey(schema, groupBy);
        this.keyed = !groupBy.isEmpty() && partitions > 1;
        this.eventTimeColumn = eventTime == null ? -1 : schema.indexOf(eventTime);
        this.rowsPerRecord = rowsPerRecord;
        this.packs = new RowPack[partitions];
    }

    /** Every record then carries {@link Topics#SCHEMA_HEADER} with {@code ddl}: the schema of its rows, when it grew. */
    public EventRows withSchemaHeader(String ddl) {
        this.schemaHeader = ddl == null ? null : ddl.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return this;
    }

    /** Adds {@code row}, written by {@code json}; a pack that is full goes to {@code send}. */
    public void add(Object[] row, RowJson json, Consumer<ProducerRecord<byte[], byte[]>> send) {
        long timestamp = -1;
        if (eventTimeColumn >= 0 && row[eventTimeColumn] != null) {
            long ms = Math.floorDiv((Long) row[eventTimeColumn], 1000L);
            count++;
            min = Math.min(min, ms);
            max = Math.max(max, ms);
            sum += ms;
            timestamp = Math.max(ms, 0);
        }
        int p = keyed ? KeyPartition.of(keys.key(row), partitions) : nextPartition;
        RowPack pack = packs[p];
        if (pack == null) {
            pack = packs[p] = new RowPack(Math.min(RowPack.MAX_BYTES, 128 * rowsPerRecord));
        }
        pack.add(json, row, timestamp);
        rows++;
        if (pack.full(rowsPerRecord)) {
            send(p, send);
            if (!keyed) {
                nextPartition = (nextPartition + 1) % partitions;
            }
        }
    }

    /** Sends the packs that hold rows (at the end of a file: a file's rows are not held past it). */
    public void flush(Consumer<ProducerRecord<byte[], byte[]>> send) {
        for (int p = 0; p < partitions; p++) {
            send(p, send);
        }
        nextPartition = (nextPartition + 1) % partitions; // small files spread over the partitions too
    }

    private void send(int partition, Consumer<ProducerRecord<byte[], byte[]>> send) {
        RowPack pack = packs[partition];
        if (pack == null || pack.rows() == 0) {
            return;
        }
        RecordHeaders headers = new RecordHeaders();
        if (schemaHeader != null) {
            headers.add(Topics.SCHEMA_HEADER, schemaHeader);
        }
        Long timestamp = pack.timestamp();
        send.accept(new ProducerRecord<>(topic, partition, timestamp, null, pack.take(), headers));
    }

    /** The rows added. */
    public long rows() {
        return rows;
    }

    /** The largest event time of all batches: {@code before}, or this batch's if larger. */
    public Long maxEventTimeMs(Long before) {
        if (count == 0) {
            return before;
        }
        return before == null ? max : Math.max(before, max);
    }

    /** The rows with an event time in this batch. */
    public long eventTimeCount() {
        return count;
    }

    public long minMs() {
        return min;
    }

    public long maxMs() {
        return max;
    }

    public long avgMs() {
        return Math.round(sum / count);
    }

    /**
     * The marker of batch {@code batchId} on every partition: {@code {"batchId":N,"watermarkMs":W}},
     * header {@code tributary.marker=watermark}, key null; timestamp W, or the largest event time without a watermark.
     */
    public List<ProducerRecord<byte[], byte[]>> markers(long batchId, Long watermarkMs, Long maxEventTimeMs, boolean followedByMarker) {
        byte[] value = Topics.watermarkMarker(batchId, watermarkMs, followedByMarker);
        long timestamp = watermarkMs != null ? Math.max(0, watermarkMs) : maxEventTimeMs != null ? Math.max(0, maxEventTimeMs) : 0;
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>(partitions);
        for (int p = 0; p < partitions; p++) {
            RecordHeaders headers = new RecordHeaders();
            headers.add(Topics.MARKER_HEADER, Topics.WATERMARK);
            out.add(new ProducerRecord<>(topic, p, timestamp, null, value, headers));
        }
        return out;
    }
}
