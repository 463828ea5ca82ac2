package io.tributary.topology.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.RowBinary;
import io.tributary.schema.RowJson;
import io.tributary.schema.RowPack;
import io.tributary.schema.Topics;
import io.tributary.topology.AggregateMetrics;
import io.tributary.topology.AggregateSpec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Spark's streaming window aggregation on one partition of the events topic, over time windows or
 * session windows ({@link OpenState}). Rows update the open windows; a row whose window ended at or
 * before the watermark of the last marker is late (dropped, counted, optionally forwarded); for
 * sessions, the window of one row, {@code [ts, ts + gap)}, as Spark judges each row before merging. A
 * marker ends a batch: the output mode writes its rows and purges state, then the marker is forwarded
 * to the results topic with the batch's counts.
 *
 * <p>In append mode a marker may close millions of windows: they are written out and removed
 * oldest first, at most {@link #CLOSE_CHUNK} (and the rest of a window start) per transaction, so
 * that no transaction outlives the transaction timeout. A closing that does not fit in one step
 * is kept in the meta store ({@link PendingClose}) and goes on a step per commit from a wall-clock
 * punctuator, which also resumes it after a restart; the marker follows its last rows. Rows read
 * meanwhile are processed at once (those late by the newest watermark dropped, the others only
 * touch windows after every closing's bound), and a marker read meanwhile waits for its turn.
 */
public final class WindowedAggregateProcessor implements Processor<byte[], byte[], Object, Object> {
    private static final Logger LOG = LoggerFactory.getLogger(WindowedAggregateProcessor.class);
    /**
     * The heap the write-back map of open windows may take (estimated) before it is written to the
     * store and committed: a quarter of the maximum heap, at most 256 MiB (the launcher's -Xmx1g
     * gives that, about 1.3 million windows of one short group column and one aggregate), so a
     * larger heap does not let the map, and the collector's heap around it, grow with the windows.
     */
    private static final long MAP_BUDGET_BYTES = Math.min(Runtime.getRuntime().maxMemory() / 4, 256L << 20);

    /**
     * How long a transaction that forwarded late rows may stay open before the processor asks for
     * a commit: well within the 60 s transaction timeout, as the commit interval is longer.
     */
    private static final long LATE_ROWS_COMMIT_AFTER_MS = 15_000;
    private static final int RESULT_ROWS_PER_RECORD = 1000;
    private static final int RESULT_RECORD_BYTES = 128 * 1024;
    /**
     * The windows a transaction closes, about (a step goes on to the end of its last window
     * start): some seconds of work on a loaded machine, well within the 60 s transaction timeout.
     */
    public static final long CLOSE_CHUNK = 200_000;
    /** How often the punctuator looks for a closing to go on with (wall clock). */
    private static final Duration CLOSE_STEP_EVERY = Duration.ofMillis(10);

    private final AggregateSpec spec;
    private final Names names;
    private final boolean forwardLateRows;
    private final EventRows input;
    private final RowJson output;
    /** Spark's HAVING over the result rows, or null: a row it does not keep is not written, nor counted as written. */
    private final HavingColumns having;
    private final ProjectionColumns projection;
    private final List<DataType> groupTypes = new ArrayList<>();
    private final int[] groupIndex;
    private final Object[] groupValues;
    private final long[] starts;
    private final long closeChunk;
    /** The result rows of a batch not yet forwarded, packed as the ingest packs events ({@link RowPack}). */
    private final RowPack results;
    /** The results records' {@link Topics#ROWS_HEADER} (their rows in binary), or null for JSON Lines. */
    private final byte[] resultsHeader;
    private ProcessorContext<Object, Object> context;
    private OpenState windows;
    private MetaStore meta;
    private TaskMetrics metrics;
    private long unrecordedUpdates;
    /** When the first late row since the last commit was forwarded (wall clock), or -1. */
    private long lateSentSinceMs = -1;
    /** The windows held in the store that were closed since the last commit. */
    private long closedSinceCommit;

    public WindowedAggregateProcessor(AggregateSpec spec, Names names, boolean forwardLateRows) {
        this(spec, names, forwardLateRows, CLOSE_CHUNK, false);
    }

    /**
     * @param closeChunk the windows a transaction closes, about ({@link #CLOSE_CHUNK})
     * @param binaryResults result rows in binary ({@link RowBinary}) where the output schema allows, else JSON Lines
     */
    public WindowedAggregateProcessor(AggregateSpec spec, Names names, boolean forwardLateRows, long closeChunk, boolean binaryResults) {
        this.closeChunk = closeChunk;
        this.spec = spec;
        this.names = names;
        this.forwardLateRows = forwardLateRows;
        this.input = new EventRows(new RowJson(spec.inputSchema()));
        this.output = new RowJson(spec.outputSchema());
        RowBinary binary = binaryResults ? RowBinary.of(spec.outputSchema()) : null;
        this.results = new RowPack(RESULT_RECORD_BYTES, binary);
        this.resultsHeader = binary == null ? null : binary.schema().toDdl().getBytes(StandardCharsets.UTF_8);
        this.having = HavingColumns.filter(spec);
        this.projection = ProjectionColumns.of(spec);
        this.groupIndex = spec.groupByIndex();
        this.groupValues = new Object[groupIndex.length];
        for (int i : groupIndex) {
            groupTypes.add(spec.inputSchema().field(i).type());
        }
        this.starts = new long[spec.isSession() ? 1 : new WindowAssigner(micros(spec.window()), micros(spec.slide())).maxWindows()];
    }

    private static long micros(java.time.Duration d) {
        return Math.multiplyExact(d.getSeconds(), 1_000_000L) + d.getNano() / 1000;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        Accumulator[] accumulators = spec.aggregates().stream().map(Accumulators::of).toArray(Accumulator[]::new);
        StateLayout layout = new StateLayout(groupTypes, accumulators);
        if (spec.isSession()) {
            KeyValueStore<Bytes, byte[]> store = context.getStateStore(names.sessionsStore());
            this.windows = new OpenSessions(store, layout, micros(spec.session()));
        } else {
            KeyValueStore<Bytes, byte[]> store = context.getStateStore(names.windowsStore());
            WindowAssigner assigner = new WindowAssigner(micros(spec.window()), micros(spec.slide()));
            // a commit writes the map into the store, in the transaction of a closing's step when there is one:
            // five times a step's windows at most, so that the two together stay within the transaction timeout
            long mapWindows = closeChunk > Long.MAX_VALUE / 5 ? Long.MAX_VALUE : 5 * closeChunk;
            this.windows = new WindowState(new OpenWindows(store, layout, assigner.size(), MAP_BUDGET_BYTES, mapWindows), assigner,
                    OutputPolicy.of(spec.outputMode()));
        }
        this.meta = new MetaStore(context.getStateStore(names.metaStore()));
        OpenState w = windows;
        MetaStore m = meta;
        CommitHook hook = context.getStateStore(names.commitHook());
        hook.beforeCommit(() -> {
            w.flush();
            m.flush();
            recordRowMetrics();
            lateSentSinceMs = -1;
            closedSinceCommit = 0;
        });
        this.metrics = new TaskMetrics(context.metrics(), context.taskId().toString());
        metrics.rowsTotal(meta.stateRows());
        if (meta.watermarkMs() != null) {
            metrics.watermark(meta.watermarkMs());
        }
        metrics.pendingCloses(meta.closes().size());
        if (windows.closesInSteps()) {
            context.schedule(CLOSE_STEP_EVERY, PunctuationType.WALL_CLOCK_TIME, now -> continueClosing());
        }
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        if (Marker.isMarker(record.headers())) {
            endBatch(record);
            metrics.openBatchPosition(-1);
        } else {
            metrics.input(input.forEach(record.headers(), record.value(), this::where,
                    (row, json, offset, length) -> onRow(record, row, json, offset, length)));
            context.recordMetadata().ifPresent(m -> metrics.openBatchPosition(m.offset() + 1));
        }
    }

    /** One row of an events record; its JSON {@code bytes[offset, offset + length)}, or null for a binary row. */
    private void onRow(Record<byte[], byte[]> record, Object[] row, byte[] bytes, int offset, int length) {
        Object ts = row[spec.eventTimeIndex()];
        if (ts == null) {
            LOG.debug("{}: row without event time skipped, as Spark's window() skips a null timestamp", where());
            return;
        }
        Object[] group = groupValues; // read only by groupBytesOf, which keeps none of them
        for (int i = 0; i < group.length; i++) {
            group[i] = row[groupIndex[i]];
        }
        byte[] groupBytes = null;
        Long wm = windows.dropsLateRows() ? watermarkMicros() : null;
        int n = windows.assign((Long) ts, starts);
        for (int i = 0; i < n; i++) {
            long start = starts[i];
            long end = start + windows.span();
            if (wm != null && end <= wm) {
                late(record, row, bytes, offset, length, start, end, (Long) ts);
                continue;
            }
            if (groupBytes == null) {
                groupBytes = windows.groupBytesOf(group);
            }
            int flags = windows.update(start, groupBytes, row, meta.seq());
            int added = ((flags & OpenState.NEW) != 0 ? 1 : 0) - OpenState.merged(flags);
            if (added != 0) {
                meta.addStateRows(added);
            }
            if ((flags & OpenState.FIRST_IN_BATCH) != 0) {
                meta.addUpdated();
                unrecordedUpdates++;
            }
        }
        if (windows.overBudget()) {
            LOG.debug("{}: {} open windows in memory, over the budget: writing them to the store", where(), windows.mapSize());
            windows.flush();
            context.commit(); // ends the transaction the flush began: it may not outlive the transaction timeout
        }
    }

    /** The row counters' sensors, brought up to date at markers and commits rather than per row. */
    private void recordRowMetrics() {
        metrics.rowsTotal(meta.stateRows());
        if (unrecordedUpdates > 0) {
            metrics.updated(unrecordedUpdates);
            unrecordedUpdates = 0;
        }
    }

    private void late(Record<byte[], byte[]> record, Object[] row, byte[] bytes, int offset, int length, long start, long end, long ts) {
        meta.addDropped();
        metrics.dropped();
        if (forwardLateRows) {
            RecordMetadata md = context.recordMetadata().orElseThrow();
            String rowJson = bytes == null ? input.json(row) : new String(bytes, offset, length, StandardCharsets.UTF_8);
            byte[] value = OutputJson.lateRow(rowJson, start, end, ts, meta.watermarkMs(), md.topic(), md.partition(), md.offset());
            context.forward(new Record<>(record.key(), value, record.timestamp(), new RecordHeaders()), names.lateRowsSink());
            // the send began a transaction that only a commit ends: with a long commit interval, ask for one in time
            long now = context.currentSystemTimeMs();
            if (lateSentSinceMs < 0) {
                lateSentSinceMs = now;
            } else if (now - lateSentSinceMs > LATE_ROWS_COMMIT_AFTER_MS) {
                context.commit();
            }
        }
    }

    /** The watermark in microseconds, or null when there is none yet or the spec has no watermark. */
    private Long watermarkMicros() {
        return spec.hasWatermark() ? meta.watermarkMicros() : null;
    }

    private void endBatch(Record<byte[], byte[]> record) {
        Marker marker = Marker.parse(record.value(), where());
        if (meta.raiseWatermark(marker.watermarkMs())) {
            metrics.watermark(marker.watermarkMs());
        }
        int partition = context.recordMetadata().map(RecordMetadata::partition).orElse(context.taskId().partition()); // a Kafka source's marker
        if (!windows.closesInSteps()) {
            endBatchAtOnce(marker, partition, record.timestamp());
            return;
        }
        Long wm = watermarkMicros();
        boolean first = meta.closes().isEmpty();
        meta.addClose(new PendingClose(marker.batchId(), meta.watermarkMs(), partition, record.timestamp(),
                wm == null ? Long.MAX_VALUE : Long.MIN_VALUE, wm == null ? Long.MIN_VALUE : wm - windows.span(),
                0, meta.stateRows(), meta.updated(), meta.dropped()));
        meta.nextBatch(); // the rows after the marker are the next batch's, while its closing goes on
        recordRowMetrics();
        if (first) {
            closeStep();
            // done: the batch is complete, make its output visible now rather than at the next commit
            // interval; the commit writes the windows still open from the map into the store (CommitHook).
            // Not when the next batch's marker follows in the same transaction: that one commits, and the
            // windows it closes are emitted from the map without ever being written to the store
            // (an availableNow run of a million windows wrote and deleted them all, 1.8 s)
            if (meta.closes().isEmpty() && !marker.followedByMarker()) {
                context.commit();
            }
        }
        metrics.pendingCloses(meta.closes().size());
    }

    /** The punctuator: the next step of the oldest closing, if there is one and this transaction has room for it. */
    private void continueClosing() {
        if (!meta.closes().isEmpty() && closedSinceCommit < closeChunk) {
            closeStep();
            context.commit();
            metrics.pendingCloses(meta.closes().size());
        }
    }

    /**
     * A step of the oldest closing: up to the chunk's room left in this transaction; its marker
     * when it is done, else a commit asked for (the punctuator goes on after it).
     */
    private void closeStep() {
        long room = closeChunk - closedSinceCommit;
        if (room <= 0) {
            context.commit();
            return;
        }
        PendingClose c = meta.closes().get(0);
        long[] written = {0};
        OutputPolicy.Step step = windows.closeStep(c.from(), c.bound(), room, row -> {
            if (emit(c.partition(), c.timestamp(), row)) {
                written[0]++;
            }
        });
        forwardResults(c.partition(), c.timestamp());
        closedSinceCommit += step.stored();
        meta.addStateRows(-step.purged());
        meta.closeStepped(step.next(), written[0], step.purged());
        recordRowMetrics();
        metrics.output(written[0]);
        PendingClose now = meta.closes().get(0);
        if (now.from() <= now.bound()) {
            LOG.debug("{}: batch {}: {} windows closed, going on from window start {} after a commit", where(), c.batchId(),
                    now.emitted(), now.from());
            context.commit();
            return;
        }
        forwardMarker(now.batchId(), now.watermarkMs(), now.partition(), now.timestamp(), now.stateRows(), now.updated(),
                now.dropped(), now.emitted());
        meta.closeDone();
    }

    /** Writes a result row unless HAVING drops it, as the select list makes it; whether it was written (the marker counts those). */
    private boolean emit(int partition, long timestamp, Object[] row) {
        if (having != null && (row = having.kept(row, this::where)) == null) {
            return false;
        }
        if (projection != null) {
            row = projection.project(row, this::where);
        }
        results.add(output, row, -1);
        if (results.rows() >= RESULT_ROWS_PER_RECORD || results.bytes() >= RESULT_RECORD_BYTES) {
            forwardResults(partition, timestamp);
        }
        return true;
    }

    /** Ends the batch in one go (update and complete modes, sessions): its rows, its purge, its marker. */
    private void endBatchAtOnce(Marker marker, int partition, long timestamp) {
        long[] emitted = {0};
        long purged = windows.endBatch(watermarkMicros(), meta.seq(), row -> {
            if (emit(partition, timestamp, row)) {
                emitted[0]++;
            }
        });
        forwardResults(partition, timestamp);
        if (purged > 0) {
            meta.addStateRows(-purged);
        }
        recordRowMetrics();
        metrics.output(emitted[0]);
        forwardMarker(marker.batchId(), meta.watermarkMs(), partition, timestamp, meta.stateRows(), meta.updated(),
                meta.dropped(), emitted[0]);
        meta.nextBatch();
        if (!marker.followedByMarker()) {
            context.commit(); // the batch is complete: make its output visible now (see endBatch)
        }
    }

    private void forwardMarker(long batchId, Long watermarkMs, int partition, long timestamp, long stateRows, long updated,
                               long dropped, long emitted) {
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put(AggregateMetrics.MARKER_ROWS_TOTAL, stateRows);
        counts.put(AggregateMetrics.MARKER_ROWS_UPDATED, updated);
        counts.put(AggregateMetrics.MARKER_ROWS_DROPPED, dropped);
        counts.put(AggregateMetrics.MARKER_OUTPUT_ROWS, emitted);
        RecordHeaders headers = new RecordHeaders();
        headers.add(Topics.MARKER_HEADER, Topics.WATERMARK);
        context.forward(new Record<>(new ResultKey(partition), OutputJson.marker(new Marker(batchId, watermarkMs, false), partition, counts),
                timestamp, headers), names.resultsSink());
        LOG.debug("{}: batch {} ended at watermark {}: {} rows written, {} state rows, {} late", where(), batchId,
                watermarkMs, emitted, stateRows, dropped);
    }

    private void forwardResults(int partition, long timestamp) {
        if (results.rows() > 0) {
            RecordHeaders headers = new RecordHeaders();
            if (resultsHeader != null) {
                headers.add(Topics.ROWS_HEADER, resultsHeader);
            }
            context.forward(new Record<>(new ResultKey(partition), results.take(), timestamp, headers), names.resultsSink());
        }
    }

    private String where() {
        return context.recordMetadata().map(m -> "topic " + m.topic() + " partition " + m.partition() + " offset " + m.offset())
                .orElse("aggregate");
    }

    @Override
    public void close() {
        if (metrics != null) {
            metrics.close();
        }
    }
}
