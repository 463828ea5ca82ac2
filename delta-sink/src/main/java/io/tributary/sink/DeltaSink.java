package io.tributary.sink;

import io.tributary.kafka.KafkaSubscription;
import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.PipelineStage;
import io.tributary.schema.Progress;
import io.tributary.schema.StageShare;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.sink.internal.AppendStream;
import io.tributary.sink.internal.BatchSuperseded;
import io.tributary.sink.internal.CommitResult;
import io.tributary.sink.internal.DeltaTableWriter;
import io.tributary.sink.internal.KeyedBatch;
import io.tributary.sink.internal.OwnedPartitions;
import io.tributary.sink.internal.Partitioning;
import io.tributary.kafka.SchemaChangeException;
import io.tributary.sink.internal.SchemaMerge;
import io.tributary.sink.internal.SinkTableFeatures;
import io.tributary.sink.internal.TableFolder;
import io.tributary.sink.internal.TopicBatch;
import io.tributary.sink.internal.TopicReader;
import io.tributary.sink.internal.WriteMode;
import io.tributary.storage.Storage;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka topic to Delta table, exactly once: Spark's {@code readStream.format("kafka")} +
 * {@code writeStream.format("delta")} with the checkpoint kept in the table itself. Each
 * {@link #runBatch} reads the topic's committed records (read_committed) up to the end offsets
 * seen at its start, writes them as Parquet and commits one Delta version that carries
 * {@code txn (appId, batchId)} and the offsets the batch reached ({@link SinkOffsets}). On start
 * the sink resumes from the offsets in the table, so a restart, a crash or a replayed batch never
 * duplicates or drops rows. Not thread-safe.
 *
 * <p>One instance reads every partition and no consumer group is used; or several instances
 * (processes) share the topic's partitions through a consumer group named after the sink's id
 * ({@link #DeltaSink(SinkConfig, Map, boolean, Storage, String)}): each commits the rows and
 * offsets of the partitions it owns, with a txn appId of its own ({@link #txnAppId}), and a
 * commit checks, in its conflict window, that the table still holds the offsets its partitions
 * started from, so a partition another instance took over meanwhile is never committed twice.
 *
 * <p>{@link SinkConfig#mode()} chooses how a batch changes the table: append every row, upsert
 * (MERGE by key, copy-on-write, tombstones delete) or complete (the table becomes the batch).
 */
public final class DeltaSink implements PipelineStage {
    private static final Logger LOG = LoggerFactory.getLogger(DeltaSink.class);

    private SinkConfig config;
    private final Engine engine;
    private DeltaTableWriter writer;
    private WriteMode mode;
    private final TopicReader reader;
    /** The table's CHECK constraints compiled for the rows read ({@link io.tributary.sink.internal.TableConstraints}). */
    private io.tributary.sink.internal.TableConstraints constraints = io.tributary.sink.internal.TableConstraints.NONE;
    private final String topicId;
    private final SinkProgress progress;
    /** The next batch id and offsets, resumed from the table. */
    private final SinkPosition at;
    private final FlushTrigger flush;
    /**
     * A batch failed after it began to read: the consumer stands somewhere inside it and goes back
     * to the table's offsets before the next batch. Not in the failure's catch: with the broker
     * gone, that repositioning would fail too and leave the consumer past rows never written.
     */
    private boolean backToTableOffsets;
    private final Storage storage;
    /** The partitions this instance owns, when instances share the topic; null: this sink reads every partition. */
    private final OwnedPartitions owned;
    /** The {@code txn} appId of this sink's commits: the sink's id, or with shared partitions the instance's ({@link #txnAppId}). */
    private final String txnAppId;
    /** This run's {@code bootstrap.servers}: recorded with the offsets by instances that share the topic, named by refusals. */
    private final String bootstrap;
    /** A Kafka source's topics, read instead of the pipeline's topic; null for the pipeline's topic. */
    private final KafkaSubscription subscription;

    /**
     * Opens the table (if it exists) and the topic, and positions the consumer at the table's offsets.
     *
     * @param kafkaClientProps Kafka client settings ({@code bootstrap.servers}, security, ...), passed through
     *                         to the consumer and admin client; the sink sets isolation, deserializers and auto-commit itself
     * @throws TributaryException if the topic is missing, or was recreated since the table's last batch, or there is no
     *                            table yet and its folder holds other files (unless {@link SinkConfig#allowNonEmptyPath()})
     */
    public DeltaSink(SinkConfig config, Map<String, Object> kafkaClientProps) {
        this(builder(config, kafkaClientProps));
    }

    /** A sink of {@code config} through {@code kafkaClientProps}, to be set further. */
    public static DeltaSinkBuilder builder(SinkConfig config, Map<String, Object> kafkaClientProps) {
        return new DeltaSinkBuilder(config, kafkaClientProps);
    }

    DeltaSink(DeltaSinkBuilder b) {
        SinkConfig config = b.config;
        Map<String, Object> kafkaClientProps = b.kafkaClientProps;
        boolean reprocess = b.reprocess;
        Storage storage = b.storage;
        String instanceId = b.instanceId;
        this.subscription = b.subscription;
        this.storage = storage;
        this.engine = KernelEngines.withTargetFileSize(config.targetFileSize(), storage);
        config = SinkTableSchema.withTableSchema(config, engine);
        this.config = config;
        Partitioning partitioning = Partitioning.parse(config.partitionBy(), config.tableSchema());
        TableFolder.checkNewTable(config.tablePath(), partitioning.columns(), config.allowNonEmptyPath(), KernelEngines.configuration(engine));
        this.writer = new DeltaTableWriter(engine, config.tablePath(), config.tableProperties(), partitioning, config.targetFileSize());
        writer.constraintsCheckedByCaller(); // each batch's rows are checked against the table's CHECK constraints (runOwnBatch)
        this.mode = WriteMode.forConfig(config, writer);
        this.txnAppId = txnAppId(config.appId(), instanceId);
        this.bootstrap = String.valueOf(kafkaClientProps.get("bootstrap.servers"));
        this.progress = new SinkProgress(config, writer.tablePath(), instanceId, this::shownPartitions);
        this.flush = new FlushTrigger(config);
        if (instanceId != null) {
            SinkRefusals.checkShareable(config);
            writer.shareOffsets(config.appId());
        }
        this.reader = new TopicReader(kafkaClientProps, config.topic(), txnAppId, new RowJson(config.schema()), mode.keyed(),
                config.badRecords(), subscription);
        if (subscription != null && b.availableNow) {
            reader.endAtStart();
        }
        if (b.continuous) {
            reader.continuous();
        }
        OwnedPartitions share = null;
        try {
            this.topicId = reader.topicId();
            boolean severalTopics = subscription != null && (subscription.pattern() != null || subscription.topics().size() > 1);
            share = instanceId == null ? null : severalTopics
                    ? OwnedPartitions.join(kafkaClientProps, config.appId(), subscription, instanceId) // the topics' partitions as one set
                    : OwnedPartitions.join(kafkaClientProps, config.appId(), config.topic(), instanceId);
            this.owned = share;
            this.at = new SinkPosition(engine, reader, topicId, txnAppId, reprocess, share, bootstrap, subscription != null,
                    subscription != null && subscription.startsElsewhere());
            resumeFromTable();
        } catch (RuntimeException e) {
            if (share != null) {
                share.close();
            }
            reader.close();
            throw e;
        }
    }

    /**
     * The {@code txn} appId of a sink's commits: its id, or for instance {@code instanceId} of a
     * sink whose instances share the topic's partitions, {@code <id>@<instanceId>}: each instance
     * numbers its own batches, and a replay of one of them is refused by Delta.
     */
    public static String txnAppId(String appId, String instanceId) {
        return instanceId == null ? appId : appId + "@" + instanceId;
    }

    private void resumeFromTable() {
        at.resumeFromTable(config, writer);
    }

    /**
     * Runs one batch: everything committed to the topic since the last batch (at most
     * {@code maxRowsPerBatch} rows) becomes one Delta version. Returns empty, and commits
     * nothing, when there are no new rows (as Spark runs no micro-batch).
     *
     * <p>{@code durationMs}: {@code latestOffset} (end offsets, including the wait for pending
     * transactions), {@code getBatch} (poll and parse; in append mode the Parquet files are written
     * meanwhile, on another thread), {@code addBatch} (the Parquet files still to write, and the
     * Delta commit that carries the offsets), {@code commitOffsets} (post-commit hooks: checksum,
     * checkpoint), {@code triggerExecution} (all).
     *
     * @throws TributaryException on data loss (offsets no longer in the topic), a record that is
     *         not a row of the schema, or a table changed by another writer; the consumer is then
     *         back at the table's offsets, so a later call retries the same batch
     */
    @Override
    public Optional<Progress> runBatch() {
        while (true) {
            try {
                return runSharedBatch();
            } catch (SchemaChangeException e) {
                grow(e.schema());
            }
        }
    }

    /**
     * The topic's rows have columns the sink's schema lacks (the ingest's schema grew): the sink
     * writes with its schema grown by them, the table gaining them in the commit of the batch
     * (with {@code mergeSchema}; refused otherwise, as for a spec that added them), and reads the
     * batch again from the table's offsets.
     */
    private void grow(Schema named) {
        Schema grown = SchemaMerge.merge(writer.tablePath(), config.schema(), named, true, true).schema();
        SinkConfig next = SinkTableSchema.withTableSchema(config.toBuilder().schema(grown).build(), engine);
        LOG.info("delta sink {}: the topic's rows carry new columns; writing with {}", config.appId(), next.schema().toDdl());
        config = next;
        writer = new DeltaTableWriter(engine, config.tablePath(), config.tableProperties(),
                Partitioning.parse(config.partitionBy(), config.tableSchema()), config.targetFileSize());
        writer.constraintsCheckedByCaller();
        if (owned != null) {
            writer.shareOffsets(config.appId());
        }
        mode = WriteMode.forConfig(config, writer);
        reader.rowJson(new RowJson(config.schema()));
        backToTableOffsets = true;
    }

    /** One batch over the partitions this sink reads: all of them, or those the group gives this instance. */
    private Optional<Progress> runSharedBatch() {
        if (owned == null) {
            return runOwnBatch();
        }
        owned.lock(); // the group moves none of the partitions while a batch of them runs
        try {
            if (owned.changed()) {
                backToTableOffsets = false;
                resumeFromTable();
            }
            if (owned.current().isEmpty()) {
                return Optional.empty();
            }
            return runOwnBatch();
        } catch (TributaryException e) {
            // superseded by another instance's commit, or (offsets out of range) committed and trimmed by it meanwhile: not a loss
            boolean trimmedByOther = e.getCause() instanceof org.apache.kafka.clients.consumer.OffsetOutOfRangeException
                    && !owned.ownedOf(SinkPosition.tableOffsetsNow(writer)).equals(at.tableOffsets);
            if (!(e instanceof BatchSuperseded) && !trimmedByOther) {
                throw e;
            }
            LOG.warn("delta sink {}: {}; reading partition(s) {} again from the table", txnAppId, e.getMessage(), owned.current());
            backToTableOffsets = false;
            resumeFromTable();
            return Optional.empty();
        } finally {
            owned.unlock();
        }
    }

    /** {@link #runBatch()} over the partitions this sink reads (all, or those it owns). */
    private Optional<Progress> runOwnBatch() {
        long t0 = System.currentTimeMillis();
        if (backToTableOffsets) {
            reader.assign(at.storedOffsets);
            backToTableOffsets = false;
        }
        reader.refreshPartitions();
        Map<Integer, Long> end = reader.batchEnd(config.pendingTransactionWait()); // a Kafka source's: failOnDataLoss, maxOffsetsPerTrigger
        long tLatest = System.currentTimeMillis();
        // a new table's start (latest, offsets, a timestamp) is committed even with nothing to read, as Spark's checkpoint keeps it
        boolean recordStart = subscription != null && subscription.startsElsewhere() && at.nextBatchId == 0 && at.tableOffsets.isEmpty()
                && (owned == null || at.firstStarts != null);
        if (!reader.hasNew(end) && !recordStart) {
            flush.nothingPending();
            return Optional.empty();
        }
        if (!flush.due(end, reader::positions)) {
            return Optional.empty();
        }
        // the table's CHECK constraints as of now: one Spark added since the last batch applies to this one
        constraints = constraints.forTable(config.tablePath(), writer.latestSnapshot(), config.schema());
        reader.constraints(constraints);
        long batchId = at.nextBatchId;
        TopicBatch batch;
        long tRead;
        CommitResult result;
        // append: the rows go to Parquet while they are read; upsert (and complete by key): the records of
        // one partition collapse by key while they are read; otherwise the mode gets the whole batch
        Optional<AppendStream> stream = Optional.empty();
        Optional<KeyedBatch> keyed = Optional.empty();
        Map<Integer, Long> expectedStart = owned == null ? at.tableOffsets
                : at.firstStarts != null ? owned.expectedFirst(at.firstStarts) : owned.expectedStart(at.tableOffsets);
        try {
            stream = mode.open(txnAppId, batchId, expectedStart);
            Map<Integer, Long> position = reader.positions();
            List<Integer> toRead = end.keySet().stream().filter(p -> position.getOrDefault(p, 0L) < end.get(p)).toList();
            if (toRead.size() == 1) { // one partition: read order is Kafka order
                int p = toRead.get(0);
                long pending = end.get(p) - position.getOrDefault(p, 0L);
                long hint = Math.min(config.maxRowsPerBatch() > 0 ? Math.min(pending, config.maxRowsPerBatch()) : pending, 1 << 20);
                keyed = mode.openKeyed(txnAppId, batchId, expectedStart, (int) hint);
            }
            batch = keyed.isPresent() ? reader.readKeyed(end, config.maxRowsPerBatch(), keyed.get()::add)
                    : reader.read(end, config.maxRowsPerBatch(), stream.<Consumer<Object[]>>map(s -> s::add).orElse(null));
            tRead = System.currentTimeMillis();
            if (batch.rowCount() == 0 && !(recordStart && stream.isPresent())) {
                LOG.info("delta sink {}: only {} marker records up to {}; no batch", config.appId(), batch.markers(), batch.end());
                return Optional.empty();
            }
            Map<Integer, Long> batchEnd = batch.end();
            if (at.firstStarts != null) { // a new table's first commit records where every topic-partition starts
                batchEnd = new TreeMap<>(at.firstStarts);
                batchEnd.putAll(at.storedOffsets);
                batchEnd.putAll(batch.end());
            }
            SinkOffsets next = new SinkOffsets(config.appId(), config.topic(), topicId, batchEnd, owned != null ? bootstrap : null,
                    reader.sources());
            result = stream.isPresent() ? stream.get().commit(next)
                    : keyed.isPresent() ? keyed.get().commit(next, batch.rowCount())
                    : mode.write(txnAppId, batchId, batch, expectedStart, next);
        } catch (RuntimeException e) {
            backToTableOffsets = true; // the next attempt reads this batch again
            keyed.ifPresent(KeyedBatch::discard);
            throw e;
        } finally {
            stream.ifPresent(AppendStream::close);
        }
        Map<Integer, Long> start = new TreeMap<>(batch.start());
        start.putAll(at.storedOffsets);
        long tCommit = System.currentTimeMillis();
        flush.nothingPending();
        if (result.committed()) {
            if (result.metrics().get("numOutputBytes") instanceof Long bytes && bytes > 0) {
                flush.written(bytes, batch.rowCount());
            }
            at.committed(batch.end());
            if (config.trimTopic()) {
                reader.trimBefore(at.storedOffsets);
            }
        } else {
            LOG.warn("delta sink {}: batch {} was already in table {}; resuming from the table", txnAppId, batchId, writer.tablePath());
            resumeFromTable();
        }
        return Optional.of(progress.batch(batchId, new SinkProgress.Times(t0, tLatest, tRead, tCommit), batch, start, result,
                reader.sources(), reader.takeLost()));
    }

    /**
     * The progress record of a trigger that found nothing new, as Spark reports one (the next
     * batch id, 0 input rows, start = end offsets) when no micro-batch runs: for callers that
     * print a line per trigger even when {@link #runBatch} returned empty.
     */
    @Override
    public Optional<Progress> idleProgress() {
        return Optional.of(progress.idle(at.nextBatchId, at.storedOffsets, reader.sources()));
    }

    /** The partitions this instance commits, when instances share the topic. */
    @Override
    public Optional<StageShare> workShare() {
        OwnedPartitions o = owned;
        return o == null ? Optional.empty() : Optional.of(o.share());
    }

    @Override
    public String stageName() {
        return config.stageName();
    }

    /**
     * What {@link #idleProgress()} prints for the first trigger over a table that does not exist yet when the topic
     * holds nothing (batch 0, no offsets), made without Kafka or the table: for a run that has nothing to write to skip
     * opening the sink. The settings are checked as opening the sink for a new table checks them.
     */
    public static Progress idleBeforeTable(SinkConfig config) {
        String path = KernelEngines.tablePath(config.tablePath());
        SinkTableFeatures.checkWritable(path, config.tableProperties(), config.mode(), !config.partitionBy().isEmpty());
        Partitioning.parse(config.partitionBy(), config.tableSchema());
        return new SinkProgress(config, path, null, () -> null).idle(0, Map.of(), Map.of());
    }

    /**
     * The partitions this instance works on when instances share the topic, as its progress names them (numbers, or a
     * Kafka source's by topic); null when this sink reads them all.
     */
    private Object shownPartitions() {
        OwnedPartitions o = owned;
        return o == null ? null : o.shown();
    }

    /** The batch id the next {@link #runBatch} commits. */
    public long nextBatchId() {
        return at.nextBatchId;
    }

    /** Where the sink stands, read from its table. */
    public SinkStatus status() {
        return DeltaTables.sinkStatus(config.tablePath(), txnAppId, config.topic(), storage);
    }

    @Override
    public void close() {
        try {
            if (owned != null) {
                owned.close(); // leaves the group: the other instances take the partitions at once
            }
        } finally {
            reader.close();
        }
    }
}
