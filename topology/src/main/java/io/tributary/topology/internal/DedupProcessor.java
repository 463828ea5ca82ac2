package io.tributary.topology.internal;

import io.tributary.schema.BadRecordException;
import io.tributary.schema.GroupKey;
import io.tributary.schema.RowJson;
import io.tributary.schema.RowPack;
import io.tributary.schema.Topics;
import io.tributary.topology.AggregateMetrics;
import io.tributary.topology.DedupSpec;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Spark's streaming deduplication on one partition of the events topic (the ingest places a key's rows
 * on one partition). A row whose key is in state is dropped; otherwise it is forwarded to the results
 * topic as it came, and its key kept ({@link DedupState}). With a watermark, a row whose event time is at
 * or before the watermark of the last marker is late: dropped and counted. A marker ends a batch: keys the
 * marker's watermark passed leave the state, and the marker is forwarded with the batch's counts.
 */
public final class DedupProcessor implements Processor<byte[], byte[], Object, Object> {
    private static final Logger LOG = LoggerFactory.getLogger(DedupProcessor.class);
    /** The heap the keys in memory may take (estimated): a quarter of the maximum heap, as the windows' map. */
    private static final long STATE_BUDGET_BYTES = Runtime.getRuntime().maxMemory() / 4;
    private static final int RECORD_BYTES = 128 * 1024;

    private final DedupSpec spec;
    private final Names names;
    private final RowJson input;
    private final GroupKey keys;
    private final int eventTime;
    private final long delayMicros;
    /** The rows of the record in process that are kept, forwarded as one record. */
    private final RowPack kept = new RowPack(RECORD_BYTES);
    private ProcessorContext<Object, Object> context;
    private DedupState state;
    private MetaStore meta;
    private TaskMetrics metrics;
    private long unrecordedNew;
    private long duplicates;

    public DedupProcessor(DedupSpec spec, Names names) {
        this.spec = spec;
        this.names = names;
        this.input = new RowJson(spec.inputSchema());
        this.keys = new GroupKey(spec.inputSchema(), spec.keys());
        this.eventTime = spec.eventTimeIndex();
        this.delayMicros = spec.delay() == null ? 0 : Math.multiplyExact(spec.delay().getSeconds(), 1_000_000L) + spec.delay().getNano() / 1000;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        this.state = new DedupState(context.getStateStore(names.keysStore()), STATE_BUDGET_BYTES);
        this.meta = new MetaStore(context.getStateStore(names.metaStore()));
        DedupState s = state;
        MetaStore m = meta;
        CommitHook hook = context.getStateStore(names.commitHook());
        hook.beforeCommit(() -> {
            s.flush();
            m.flush();
            recordRowMetrics();
        });
        this.metrics = new TaskMetrics(context.metrics(), context.taskId().toString());
        metrics.rowsTotal(meta.stateRows());
        if (meta.watermarkMs() != null) {
            metrics.watermark(meta.watermarkMs());
        }
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        if (Marker.isMarker(record.headers())) {
            endBatch(record);
            metrics.openBatchPosition(-1);
            return;
        }
        Long late = watermarkMicros();
        metrics.input(RowPack.forEachRow(record.value(), (bytes, offset, length) -> onRow(bytes, offset, length, late)));
        if (kept.rows() > 0) {
            Long ts = kept.timestamp();
            context.forward(new Record<>(new ResultKey(partition()), kept.take(), ts == null ? record.timestamp() : ts,
                    record.headers()), names.resultsSink());
        }
        context.recordMetadata().ifPresent(md -> metrics.openBatchPosition(md.offset() + 1));
        if (state.overBudget()) {
            LOG.debug("{}: new keys in memory over the budget: writing them to the store", where());
            state.flush();
            context.commit(); // ends the transaction the flush began: it may not outlive the transaction timeout
        }
    }

    private void onRow(byte[] bytes, int offset, int length, Long lateMicros) {
        Object[] row;
        try {
            row = input.parse(bytes, offset, length);
        } catch (BadRecordException e) {
            throw TopologyErrors.eventDoesNotFit(where(), e.getMessage(), e);
        }
        Long ts = eventTime < 0 ? null : (Long) row[eventTime];
        if (lateMicros != null && ts != null && ts <= lateMicros) {
            meta.addDropped(); // Spark's numRowsDroppedByWatermark: at or before the watermark of the batch before
            metrics.dropped();
            return;
        }
        Bytes key = Bytes.wrap(keys.key(row));
        if (state.contains(key)) {
            duplicates++;
            return;
        }
        state.add(key, evictAt(ts));
        meta.addStateRows(1);
        meta.addUpdated();
        unrecordedNew++;
        kept.add(Arrays.copyOfRange(bytes, offset, offset + length), ts == null ? -1 : Math.floorDiv(ts, 1000L));
    }

    /**
     * When the key of a row with event time {@code ts} leaves the state: within the watermark, once the
     * watermark reaches the event time plus the delay (a null event time counts as 0, as Spark reads it);
     * with the event time among the keys, once the watermark reaches it (never for a null one); else never.
     */
    private long evictAt(Long ts) {
        if (spec.withinWatermark()) {
            long t = ts == null ? 0 : ts;
            return t > Long.MAX_VALUE - delayMicros ? Long.MAX_VALUE : t + delayMicros;
        }
        if (spec.eventTimeInKeys() && ts != null) {
            return ts;
        }
        return Long.MAX_VALUE;
    }

    private void recordRowMetrics() {
        metrics.rowsTotal(meta.stateRows());
        if (unrecordedNew > 0) {
            metrics.updated(unrecordedNew);
            metrics.output(unrecordedNew);
            unrecordedNew = 0;
        }
    }

    /** The watermark in microseconds, or null without one (none yet, or a deduplication without a watermark). */
    private Long watermarkMicros() {
        return spec.hasWatermark() ? meta.watermarkMicros() : null;
    }

    private void endBatch(Record<byte[], byte[]> record) {
        Marker marker = Marker.parse(record.value(), where());
        if (meta.raiseWatermark(marker.watermarkMs())) {
            metrics.watermark(marker.watermarkMs());
        }
        Long wm = watermarkMicros();
        long evicted = spec.evicts() && wm != null ? state.evict(wm) : 0;
        if (evicted > 0) {
            meta.addStateRows(-evicted);
        }
        recordRowMetrics();
        int partition = partition();
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put(AggregateMetrics.MARKER_ROWS_TOTAL, meta.stateRows());
        counts.put(AggregateMetrics.MARKER_ROWS_UPDATED, meta.updated());
        counts.put(AggregateMetrics.MARKER_ROWS_DROPPED, meta.dropped());
        counts.put("numRemovedStateRows", evicted);
        counts.put("numDroppedDuplicateRows", duplicates);
        RecordHeaders headers = new RecordHeaders();
        headers.add(Topics.MARKER_HEADER, Topics.WATERMARK);
        context.forward(new Record<>(new ResultKey(partition), OutputJson.marker(new Marker(marker.batchId(), meta.watermarkMs(), false),
                partition, counts), record.timestamp(), headers), names.resultsSink());
        LOG.debug("{}: batch {} ended at watermark {}: {} keys in state, {} evicted, {} duplicates and {} late rows dropped", where(),
                marker.batchId(), meta.watermarkMs(), meta.stateRows(), evicted, duplicates, meta.dropped());
        duplicates = 0;
        meta.nextBatch();
        if (!marker.followedByMarker()) {
            context.commit(); // the batch's rows visible now rather than at the next commit interval
        }
    }

    private int partition() {
        return context.recordMetadata().map(RecordMetadata::partition).orElse(context.taskId().partition()); // a marker a punctuator forwards (a Kafka source)
    }

    private String where() {
        return context.recordMetadata().map(m -> "topic " + m.topic() + " partition " + m.partition() + " offset " + m.offset())
                .orElse("dropDuplicates");
    }

    @Override
    public void close() {
        if (metrics != null) {
            metrics.close();
        }
    }
}
