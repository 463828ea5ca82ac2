package io.tributary.source;

import io.delta.kernel.Snapshot;
import io.delta.kernel.types.StructType;
import io.tributary.delta.KernelSchemas;
import io.tributary.delta.KernelEngines;
import io.tributary.kafka.ProducerFailure;
import io.tributary.schema.PipelineStage;
import io.tributary.schema.Progress;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.source.internal.BatchPlanner;
import io.tributary.source.internal.BatchPublisher;
import io.tributary.source.internal.DataFile;
import io.tributary.source.internal.EventRows;
import io.tributary.source.internal.FileRowReader;
import io.tributary.source.internal.ProgressLog;
import io.tributary.source.internal.SourceErrors;
import io.tributary.source.internal.SourcePosition;
import io.tributary.source.internal.StoredProgress;
import io.tributary.source.internal.TableLog;
import io.tributary.source.internal.TopicSetup;
import io.tributary.source.internal.TransformedRows;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a Delta table as a stream, as Spark's {@code readStream.format("delta").load(path)}: the
 * table's rows at the starting version, then each new commit's added rows, in commit order, each
 * once. Each {@link #runBatch()} publishes one batch of rows (value = {@link RowJson} of
 * {@link #schema()}, key null) to {@link DeltaSourceConfig#topic()} together with the source's
 * progress, in one Kafka transaction; a new instance resumes exactly after the last committed batch.
 * Not thread-safe: one thread runs the batches.
 */
public final class DeltaSource implements PipelineStage {
    private static final Logger LOG = LoggerFactory.getLogger(DeltaSource.class);
    /** How many times a batch runs, each time on a new producer, when Kafka leaves the producer unusable ({@link ProducerFailure#REPLACE}). */
    static final int PRODUCER_ATTEMPTS = 3;

    private final DeltaSourceConfig config;
    private final Map<String, Object> clientProps;
    private final String tablePath;
    private final TableLog log;
    private final String runId = UUID.randomUUID().toString();

    private Snapshot sourceSnapshot;
    private Schema schema;
    private RowJson rowJson;              // writes the rows published: the table's, or the transform's
    private TransformedRows transformed;  // the pipeline's transform over the rows read, or null
    private FileRowReader reader;
    private BatchPlanner planner;
    private BatchPublisher publisher;
    private String reservoirId;
    private String schemaHeader;          // the grown schema's DDL once the table's schema grew while running
    private SourcePosition position;      // null until resolved; stored unless positionStored is false
    private boolean positionStored;
    private long lastBatchId = -1;
    private Long maxEventTimeMs;          // the largest event time of all batches, with an event-time column
    private long watermarkMs;             // the watermark of the last batch (Spark's start value 0 before any)
    private long lastBatchEndNanos;

    /** Creates the stage; nothing is read or connected until {@link #start()} or the first {@link #runBatch()}. */
    public DeltaSource(DeltaSourceConfig config, Map<String, Object> kafkaClientProps) {
        this.config = config;
        this.clientProps = Map.copyOf(kafkaClientProps);
        this.tablePath = KernelEngines.tablePath(config.tablePath());
        this.log = new TableLog(KernelEngines.create(config.storage()), tablePath);
    }

    public DeltaSourceConfig config() {
        return config;
    }

    /** The table path as the source names it (absolute), also the key of its progress record. */
    public String tablePath() {
        return tablePath;
    }

    /**
     * The schema of the published rows: the table's schema at the start, plus {@code _change_type STRING,
     * _commit_version BIGINT, _commit_timestamp TIMESTAMP} with {@code readChangeFeed}. Reads the table, not Kafka.
     */
    public Schema schema() {
        loadTable();
        return schema;
    }

    /**
     * Creates the source's topics when absent: the row topic (the broker's defaults) and the compacted progress
     * topic with one partition; returns once the broker serves them.
     */
    public static void createTopics(Map<String, Object> clientProps, DeltaSourceConfig config) {
        TopicSetup.ensure(clientProps, config.topic(), config.progressTopic(), config.replicationFactor());
    }

    /**
     * Creates missing topics, starts the transactional producer (fencing any older instance with the same
     * transactional id) and reads the stored progress ({@code read_committed}). Called by the first
     * {@link #runBatch()} if not before.
     */
    public void start() {
        if (publisher != null) {
            return;
        }
        loadTable();
        TopicSetup.ensure(clientProps, config.topic(), config.progressTopic(), config.replicationFactor());
        if (transformed != null) {
            TopicSetup.ensureDeadLetter(clientProps, config.deadLetterTopic(), config.replicationFactor());
        }
        publisher = new BatchPublisher(clientProps, config.transactionalId());
        Optional<StoredProgress> stored = ProgressLog.read(clientProps, config.progressTopic(), tablePath);
        if (stored.isPresent()) {
            StoredProgress p = stored.get();
            if (p.reservoirId() != null && !p.reservoirId().equals(reservoirId)) {
                throw SourceErrors.tableReplaced(tablePath, reservoirId, p.reservoirId(), config.progressTopic());
            }
            position = p.position();
            positionStored = true;
            lastBatchId = p.lastBatchId();
            maxEventTimeMs = p.maxEventTimeMs();
            watermarkMs = p.watermarkMs();
            LOG.info("delta-source {}: resuming at {} (last batch {})", tablePath, position, lastBatchId);
        } else {
            LOG.info("delta-source {}: no stored progress in {}; starting at {}", tablePath, config.progressTopic(), config.startingVersion());
        }
    }

    /**
     * Plans and publishes the next batch. Returns its progress, or empty when the table has no data
     * beyond the stored position (nothing was published). A batch whose commits held no rows to publish
     * (compaction, skipped change commits) still advances the stored position and reports 0 rows.
     * When an aggregation reads the rows ({@link DeltaSourceConfig#marksBatches()}), every batch ends
     * with a watermark marker on every partition; when there is no new data and the rows seen so far
     * moved the watermark, the batch is Spark's no-data batch: only the new watermark's markers.
     *
     * @throws TributaryException on a commit that removes data (Spark's {@code DELTA_SOURCE_TABLE_IGNORE_CHANGES}
     *         or {@code DELTA_SOURCE_IGNORE_DELETE}) unless an option allows it, on a schema change, on a
     *         starting version the log no longer holds, or when the batch could not be published
     */
    @Override
    public String stageName() {
        return config.stageName();
    }

    @Override
    public Optional<Progress> runBatch() {
        for (int attempt = 1; ; attempt++) {
            try {
                return runOnce();
            } catch (RuntimeException e) {
                ProducerFailure failure = publisher == null ? null : publisher.lastFailure();
                if (failure == null || failure == ProducerFailure.FENCED) {
                    throw e; // not the publishing's failure, or another instance took over: nothing to try again
                }
                close(); // the next try starts a new producer (aborting what this one left open) and reads the stored progress again
                if (failure == ProducerFailure.OTHER || attempt == PRODUCER_ATTEMPTS) {
                    throw failure == ProducerFailure.OTHER ? e
                            : SourceErrors.producerKeptFailing(tablePath, lastBatchId + 1, attempt, ProducerFailure.describe(e), e);
                }
                LOG.warn("delta-source {} of pipeline {}: batch {}: the producer failed ({}); a new producer takes transactional.id {} over"
                        + " and the batch runs again from its start (attempt {} of {})", tablePath, config.pipeline(), lastBatchId + 1,
                        ProducerFailure.describe(e), config.transactionalId(), attempt + 1, PRODUCER_ATTEMPTS);
            }
        }
    }

    private Optional<Progress> runOnce() {
        start();
        long t0 = System.nanoTime();
        Instant startedAt = Instant.now();
        long latest = log.latest().getVersion();
        boolean fresh = !positionStored;
        if (position == null) {
            position = initialPosition(latest);
        }
        BatchPlanner.Plan plan = plan(latest);
        long t1 = System.nanoTime();
        boolean moved = !plan.end().equals(plan.start());
        if (!moved && !fresh) {
            return noDataBatch(startedAt, t0);
        }
        long batchId = moved ? lastBatchId + 1 : lastBatchId;
        Long wm = config.hasWatermark() ? current().nextWatermarkMs(config.watermarkDelay().toMillis()) : null;
        long watermark = wm == null ? watermarkMs : wm;
        EventRows events = new EventRows(config.topic(), publisher.partitions(config.topic()), rowJson.schema(), config.eventTime(),
                config.groupBy(), config.rowsPerRecord()).withSchemaHeader(schemaHeader);
        if (transformed != null) {
            transformed.startBatch(Instant.now()); // a join's table as Spark re-reads the static side, and current_timestamp()
        }
        Long[] max = {maxEventTimeMs};
        publisher.publish(config.topic(), send -> publishFiles(plan.files(), events, send), () -> {
            max[0] = events.maxEventTimeMs(maxEventTimeMs);
            StoredProgress next = new StoredProgress(tablePath, reservoirId, plan.end(), batchId, Instant.now().toString(), max[0], watermark);
            List<ProducerRecord<byte[], byte[]>> after = new ArrayList<>();
            after.add(progressRecord(next));
            if (moved && config.marksBatches()) {
                after.addAll(events.markers(batchId, wm, max[0], false));
            }
            return after;
        });
        long t2 = System.nanoTime();
        position = plan.end();
        positionStored = true;
        maxEventTimeMs = max[0];
        watermarkMs = watermark;
        if (!moved) {
            LOG.info("delta-source {}: starting position {} stored; no data yet", tablePath, position);
            return Optional.empty();
        }
        lastBatchId = batchId;
        long rows = events.rows();
        LOG.info("delta-source {}: batch {} published {} rows from {} files ({} -> {}) to {}",
                tablePath, batchId, rows, plan.files().size(), plan.start(), plan.end(), config.topic());
        Progress progress = progress(batchId, startedAt, fresh ? null : plan.start(), plan, rows, eventTime(events, wm), t0, t1, t2);
        lastBatchEndNanos = t2;
        return Optional.of(progress);
    }

    /**
     * Spark's no-data batch: when the rows seen so far moved the watermark past the last batch's,
     * the next batch id with no rows, its markers carrying the new watermark (the aggregation
     * then writes the windows that closed), and the progress; empty otherwise.
     */
    private Optional<Progress> noDataBatch(Instant startedAt, long t0) {
        if (!config.hasWatermark()) {
            return Optional.empty();
        }
        long next = current().nextWatermarkMs(config.watermarkDelay().toMillis());
        if (next <= watermarkMs) {
            return Optional.empty();
        }
        long batchId = lastBatchId + 1;
        EventRows events = new EventRows(config.topic(), publisher.partitions(config.topic()), rowJson.schema(), config.eventTime(), List.of(),
                config.rowsPerRecord());
        long t1 = System.nanoTime();
        publisher.publish(config.topic(), send -> { }, () -> {
            List<ProducerRecord<byte[], byte[]>> after = new ArrayList<>();
            after.add(progressRecord(new StoredProgress(tablePath, reservoirId, position, batchId, Instant.now().toString(),
                    maxEventTimeMs, next)));
            after.addAll(events.markers(batchId, next, maxEventTimeMs, false));
            return after;
        });
        long t2 = System.nanoTime();
        lastBatchId = batchId;
        watermarkMs = next;
        LOG.info("delta-source {}: no-data batch {} moved the watermark to {}", tablePath, batchId, Progress.timestamp(next));
        BatchPlanner.Plan none = new BatchPlanner.Plan(position, position, List.of());
        Progress progress = progress(batchId, startedAt, position, none, 0, eventTime(events, next), t0, t1, t2);
        lastBatchEndNanos = t2;
        return Optional.of(progress);
    }

    /** The next batch's plan, once the stream took the schema changes before it. */
    private BatchPlanner.Plan plan(long latest) {
        BatchPlanner.Plan plan = planner.plan(position, latest);
        while (plan.newSchema() != null) {
            takeSchema(plan.end().reservoirVersion(), plan.newSchema());
            plan = planner.plan(position, latest);
        }
        return plan;
    }

    /**
     * The table's schema grew at {@code version} (new columns): the rows from it on are read with
     * the new schema and their records name it ({@link io.tributary.schema.Topics#SCHEMA_HEADER}),
     * so the sink adds the columns to its table (with {@code sink.delta.mergeSchema}). Under an
     * aggregation, a deduplication or a transform, whose columns are fixed at start, the new columns are not read.
     */
    private void takeSchema(long version, StructType grown) {
        planner.streamSchema(grown);
        if (config.marksBatches() || transformed != null) {
            LOG.info("delta-source {}: version {} adds columns ({}); the {} reads fixed columns, so they are not read",
                    tablePath, version, KernelSchemas.fromKernel(tablePath, grown).toDdl(), transformed != null ? "transform" : "aggregation or deduplication");
            return;
        }
        reader = new FileRowReader(log.engine(), tablePath, log.at(version), config.readChangeFeed());
        schema = FileRowReader.outputSchema(reader.tableSchema(), config.readChangeFeed());
        rowJson = new RowJson(schema);
        schemaHeader = schema.toDdl();
        LOG.info("delta-source {}: version {} adds columns; rows from it on are read as {}", tablePath, version, schemaHeader);
    }

    private StoredProgress current() {
        return new StoredProgress(tablePath, reservoirId, position, lastBatchId, null, maxEventTimeMs, watermarkMs);
    }

    private ProducerRecord<byte[], byte[]> progressRecord(StoredProgress p) {
        return new ProducerRecord<>(config.progressTopic(), tablePath.getBytes(StandardCharsets.UTF_8), p.toBytes());
    }

    /** Spark's {@code eventTime} of a batch's progress: avg, max, min of its rows' event times, and the watermark. */
    private Map<String, String> eventTime(EventRows events, Long wm) {
        if (config.eventTime() == null) {
            return null;
        }
        Map<String, String> m = new LinkedHashMap<>();
        if (events.eventTimeCount() > 0) {
            m.put("avg", Progress.timestamp(events.avgMs()));
            m.put("max", Progress.timestamp(events.maxMs()));
            m.put("min", Progress.timestamp(events.minMs()));
        }
        if (wm != null) {
            m.put("watermark", Progress.timestamp(wm));
        }
        return m;
    }

    private void publishFiles(List<DataFile> files, EventRows events, Consumer<ProducerRecord<byte[], byte[]>> send) {
        for (DataFile f : files) {
            if (transformed == null) {
                reader.read(f, row -> events.add(row, rowJson, send));
            } else {
                reader.read(f, row -> transformed.apply(f, row, r -> events.add(r, rowJson, send), send));
            }
            events.flush(send);
        }
    }

    private SourcePosition initialPosition(long latest) {
        StartingVersion sv = config.startingVersion();
        return switch (sv.kind()) {
            case SNAPSHOT -> SourcePosition.snapshotOf(latest);
            case LATEST -> SourcePosition.commit(latest + 1);
            case VERSION -> {
                if (sv.version() > latest) {
                    throw SourceErrors.startingVersionAfterLatest(sv.version(), latest, tablePath);
                }
                long earliest = log.earliestAvailable();
                if (earliest > sv.version()) {
                    throw SourceErrors.startingVersionGone(sv.version(), tablePath, earliest);
                }
                yield SourcePosition.commit(sv.version());
            }
        };
    }

    private Progress progress(long batchId, Instant startedAt, SourcePosition start, BatchPlanner.Plan plan, long rows,
                              Map<String, String> eventTime, long t0, long t1, long t2) {
        long total = ms(t2 - t0);
        Map<String, Long> durations = new LinkedHashMap<>();
        durations.put("latestOffset", ms(t1 - t0));
        durations.put("addBatch", ms(t2 - t1));
        durations.put("triggerExecution", total);
        Map<String, Object> metrics = new LinkedHashMap<>();
        metrics.put("numFiles", (long) plan.files().size());
        metrics.put("numBytes", plan.bytes());
        Progress.Source source = new Progress.Source("DeltaSource[" + tablePath + "]",
                start == null ? null : start.toOffset(reservoirId), plan.end().toOffset(reservoirId), rows, metrics);
        Progress.Sink sink = new Progress.Sink("KafkaSink[" + config.topic() + "]", rows, null);
        double inputRate = lastBatchEndNanos == 0 ? 0.0 : Progress.rate(rows, ms(t2 - lastBatchEndNanos));
        return new Progress(config.stageName(), runId, Progress.timestamp(startedAt.toEpochMilli()), batchId, rows, inputRate,
                Progress.rate(rows, total), durations, eventTime, null, List.of(source), sink);
    }

    private void loadTable() {
        if (sourceSnapshot != null) {
            return;
        }
        sourceSnapshot = log.latest();
        reservoirId = TableLog.tableId(sourceSnapshot);
        reader = new FileRowReader(log.engine(), tablePath, sourceSnapshot, config.readChangeFeed());
        schema = FileRowReader.outputSchema(reader.tableSchema(), config.readChangeFeed());
        if (config.transform() != null) {
            transformed = new TransformedRows(config.transform(), tablePath, config.stageName(), config.deadLetterTopic(), schema);
        }
        rowJson = new RowJson(transformed != null ? transformed.output() : schema);
        planner = new BatchPlanner(log, config, sourceSnapshot);
        if (config.readChangeFeed()) {
            String cdf = sourceSnapshot.getTableProperties().getOrDefault("delta.enableChangeDataFeed", "false");
            if (!cdf.equalsIgnoreCase("true")) {
                throw SourceErrors.noChangeDataFeed(tablePath);
            }
        }
    }

    private static long ms(long nanos) {
        return nanos / 1_000_000;
    }

    @Override
    public void close() {
        if (publisher != null) {
            publisher.close();
            publisher = null;
        }
    }
}
