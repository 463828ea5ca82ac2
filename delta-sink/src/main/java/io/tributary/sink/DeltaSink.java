package io.tributary.sink;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.delta.KernelSchemas;
import io.tributary.schema.Progress;
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
import io.tributary.sink.internal.SchemaChangeException;
import io.tributary.sink.internal.SchemaMerge;
import io.tributary.sink.internal.SinkTableFeatures;
import io.tributary.sink.internal.TableFolder;
import io.tributary.sink.internal.TableSnapshots;
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
public final class DeltaSink implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DeltaSink.class);

    private SinkConfig config;
    private final Engine engine;
    private DeltaTableWriter writer;
    private WriteMode mode;
    private final TopicReader reader;
    private final String topicId;
    private final SinkProgress progress;
    private long nextBatchId;
    private Map<Integer, Long> storedOffsets; // where the next batch starts reading
    private Map<Integer, Long> tableOffsets; // what the table holds; differs from storedOffsets only after --reprocess
    private final boolean reprocess;
    /** allowedLatency: when this sink first saw the records now waiting in the topic (-1: none waiting). */
    private long pendingSinceMs = -1;
    /**
     * A batch failed after it began to read: the consumer stands somewhere inside it and goes back
     * to the table's offsets before the next batch. Not in the failure's catch: with the broker
     * gone, that repositioning would fail too and leave the consumer past rows never written.
     */
    private boolean backToTableOffsets;
    /** allowedLatency: Parquet bytes per record of the last batch written (0: none yet). */
    private double bytesPerRecord;
    private final Storage storage;
    /** The partitions this instance owns, when instances share the topic; null: this sink reads every partition. */
    private final OwnedPartitions owned;
    /** The {@code txn} appId of this sink's commits: the sink's id, or with shared partitions the instance's ({@link #txnAppId}). */
    private final String txnAppId;
    /** This run's {@code bootstrap.servers}: recorded with the offsets by instances that share the topic, named by refusals. */
    private final String bootstrap;

    /**
     * Opens the table (if it exists) and the topic, and positions the consumer at the table's offsets.
     *
     * @param kafkaClientProps Kafka client settings ({@code bootstrap.servers}, security, ...), passed through
     *                         to the consumer and admin client; the sink sets isolation, deserializers and auto-commit itself
     * @throws TributaryException if the topic is missing, or was recreated since the table's last batch, or there is no
     *                            table yet and its folder holds other files (unless {@link SinkConfig#allowNonEmptyPath()})
     */
    public DeltaSink(SinkConfig config, Map<String, Object> kafkaClientProps) {
        this(config, kafkaClientProps, false);
    }

    /**
     * As {@link #DeltaSink(SinkConfig, Map)}; with {@code reprocess}, a topic created anew since the
     * table's last batch (the pipeline's state was lost) is read from its beginning and its rows are
     * appended again, as Spark does without its checkpoint, instead of being refused.
     */
    public DeltaSink(SinkConfig config, Map<String, Object> kafkaClientProps, boolean reprocess) {
        this(config, kafkaClientProps, reprocess, Storage.NONE);
    }

    /** As {@link #DeltaSink(SinkConfig, Map, boolean)}, for a table whose file system takes {@code storage}'s settings (object storage). */
    public DeltaSink(SinkConfig config, Map<String, Object> kafkaClientProps, boolean reprocess, Storage storage) {
        this(config, kafkaClientProps, reprocess, storage, null);
    }

    /**
     * As {@link #DeltaSink(SinkConfig, Map, boolean, Storage)}; with an {@code instanceId}, this is
     * one of several instances that share the topic's partitions: it joins the consumer group
     * {@code config.appId()} as that (static) member and commits the partitions the group gives it.
     */
    public DeltaSink(SinkConfig config, Map<String, Object> kafkaClientProps, boolean reprocess, Storage storage, String instanceId) {
        this.reprocess = reprocess;
        this.storage = storage;
        this.engine = KernelEngines.withTargetFileSize(config.targetFileSize(), storage);
        config = withTableSchema(config, engine);
        this.config = config;
        Partitioning partitioning = Partitioning.parse(config.partitionBy(), config.schema());
        TableFolder.checkNewTable(config.tablePath(), partitioning.columns(), config.allowNonEmptyPath(), KernelEngines.configuration(engine));
        this.writer = new DeltaTableWriter(engine, config.tablePath(), config.tableProperties(), partitioning, config.targetFileSize());
        this.mode = WriteMode.forConfig(config, writer);
        this.txnAppId = txnAppId(config.appId(), instanceId);
        this.bootstrap = String.valueOf(kafkaClientProps.get("bootstrap.servers"));
        this.progress = new SinkProgress(config, writer.tablePath(), instanceId, this::ownedPartitions);
        if (instanceId != null) {
            SinkRefusals.checkShareable(config);
            writer.shareOffsets(config.appId());
        }
        this.reader = new TopicReader(kafkaClientProps, config.topic(), txnAppId, new RowJson(config.schema()), mode.keyed(), config.badRecords());
        OwnedPartitions share = null;
        try {
            this.topicId = reader.topicId();
            share = instanceId == null ? null : OwnedPartitions.join(kafkaClientProps, config.appId(), config.topic(), instanceId);
            this.owned = share;
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
     * The config with the schema the existing table is written with ({@link SchemaMerge}): the
     * table's columns, and the pipeline's new ones with {@code mergeSchema}. Unchanged without a table.
     * A table the sink cannot write in its mode is refused ({@link SinkTableFeatures#checkWritable}).
     */
    static SinkConfig withTableSchema(SinkConfig config, Engine engine) {
        String path = KernelEngines.tablePath(config.tablePath());
        Optional<Snapshot> snap = TableSnapshots.latest(engine, path);
        SinkTableFeatures.checkWritable(path, snap.map(Snapshot::getTableProperties).orElse(config.tableProperties()), config.mode());
        if (snap.isEmpty()) {
            return config;
        }
        Partitioning partitioning = Partitioning.parse(config.partitionBy(), config.schema());
        Schema table = KernelSchemas.fromKernel(path, snap.get().getSchema());
        SchemaMerge.Result merged = SchemaMerge.merge(path, table, partitioning.tableSchema(), config.mergeSchema(),
                DeltaTableWriter.typeWidening(snap.get()));
        if (merged.schema().equals(partitioning.tableSchema())) {
            return config;
        }
        if (partitioning.hasDerivedColumns()) {
            throw new TributaryException("delta table " + path + " has schema " + table.toDdl() + ", but the sink writes "
                    + partitioning.tableSchema().toDdl() + "; a table partitioned by a derived column (sink.delta.partitionBy "
                    + config.partitionBy() + ") is written with exactly the pipeline's schema: restore it, or write to a new table path");
        }
        if (merged.changesTable()) {
            LOG.info("delta sink {}: table {} gains {}{} with the sink's first commit (sink.delta.mergeSchema)", config.appId(), path,
                    merged.added().isEmpty() ? "" : "columns " + merged.added(),
                    merged.widened().isEmpty() ? "" : (merged.added().isEmpty() ? "" : " and ") + "widenings " + merged.widened());
        }
        return config.withSchema(merged.schema());
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
        java.util.Set<Integer> partitions = owned == null ? null : owned.take(); // before the table: its offsets are at least as new
        Optional<Snapshot> snap = writer.latestSnapshot();
        Optional<SinkOffsets> stored = snap.flatMap(s -> s.getDomainMetadata(SinkOffsets.DOMAIN)).map(SinkOffsets::parse);
        long lastBatch = snap.flatMap(s -> s.getLatestTransactionVersion(engine, txnAppId)).orElse(-1L);
        if (stored.isPresent()) {
            SinkOffsets s = stored.get();
            if (!config.appId().equals(s.appId()) || !config.topic().equals(s.topic())) {
                throw new TributaryException("delta table " + writer.tablePath() + " is written by sink '" + s.appId()
                        + "' from topic " + s.topic() + ", not by '" + config.appId() + "' from " + config.topic()
                        + "; give each sink its own table path");
            }
            if (s.topicId() != null && !s.topicId().equals(topicId)) {
                if (!reprocess || owned != null) { // instances that share the partitions cannot tell whose rows were written again
                    throw SinkRefusals.lostState(config, writer.tablePath(), s, lastBatch, topicId, bootstrap, owned != null);
                }
                LOG.warn("delta sink {}: topic {} was created anew (the pipeline's state was lost); --reprocess: reading it from "
                        + "the beginning and appending its rows to table {} again", config.appId(), config.topic(), writer.tablePath());
                this.nextBatchId = lastBatch + 1;
                this.tableOffsets = new TreeMap<>(s.offsets());
                this.storedOffsets = new TreeMap<>();
                reader.assign(storedOffsets);
                return;
            }
        } else if (lastBatch >= 0) {
            throw new TributaryException("delta table " + writer.tablePath() + " has batches of sink " + txnAppId
                    + " (last " + lastBatch + ") but no stored offsets ('" + SinkOffsets.DOMAIN + "' domain metadata); "
                    + "it was not written by a Tributary sink: write to a new table path");
        }
        if (stored.isEmpty() && config.trimTopic()) {
            if (tableAppeared(snap)) {
                resumeFromTable(); // another instance committed (and trimmed) since the table was read
                return;
            }
        }
        this.nextBatchId = lastBatch + 1;
        this.storedOffsets = new TreeMap<>(stored.map(SinkOffsets::offsets).orElse(Map.of()));
        if (owned != null) {
            storedOffsets = owned.ownedOf(storedOffsets);
            reader.assign(storedOffsets, partitions);
        } else {
            reader.assign(storedOffsets);
        }
        this.tableOffsets = storedOffsets;
        if (partitions != null && partitions.isEmpty()) {
            LOG.info("delta sink {}: table {} at version {}; no partition of topic {} is this instance's now", txnAppId, writer.tablePath(),
                    snap.map(Snapshot::getVersion).orElse(-1L), config.topic());
            return;
        }
        LOG.info("delta sink {}: table {} at version {}, next batch {}, resuming topic {}{} at {}", txnAppId, writer.tablePath(),
                snap.map(Snapshot::getVersion).orElse(-1L), nextBatchId, config.topic(),
                partitions == null ? "" : " partition(s) " + partitions, storedOffsets.isEmpty() ? "the beginning" : storedOffsets);
    }

    /**
     * True when the table has the sink's offsets now, though {@code snap} had none: another instance
     * of the sink committed meanwhile (and trimmed the topic). Otherwise refuses a trimmed topic:
     * a trimmed topic no longer holds the rows of the batches before its first offsets: starting a
     * table from it would silently leave them out (the table was deleted, or another path given).
     */
    private boolean tableAppeared(Optional<Snapshot> snap) {
        reader.assign(Map.of());
        Map<Integer, Long> begin = reader.beginningOffsets();
        if (begin.values().stream().anyMatch(o -> o > 0)) {
            if (owned != null && writer.latestSnapshot().flatMap(s -> s.getDomainMetadata(SinkOffsets.DOMAIN)).isPresent()) {
                return true;
            }
            throw SinkRefusals.trimmedTopic(config, writer.tablePath(), snap.isPresent(), begin, owned != null);
        }
        return false;
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
        SinkConfig next = withTableSchema(config.withSchema(grown), engine);
        LOG.info("delta sink {}: the topic's rows carry new columns; writing with {}", config.appId(), next.schema().toDdl());
        config = next;
        writer = new DeltaTableWriter(engine, config.tablePath(), config.tableProperties(),
                Partitioning.parse(config.partitionBy(), config.schema()), config.targetFileSize());
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
                    && !owned.ownedOf(tableOffsetsNow()).equals(tableOffsets);
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

    private Map<Integer, Long> tableOffsetsNow() {
        return writer.latestSnapshot().flatMap(s -> s.getDomainMetadata(SinkOffsets.DOMAIN)).map(SinkOffsets::parse)
                .map(SinkOffsets::offsets).orElse(Map.of());
    }

    /** {@link #runBatch()} over the partitions this sink reads (all, or those it owns). */
    private Optional<Progress> runOwnBatch() {
        long t0 = System.currentTimeMillis();
        if (backToTableOffsets) {
            reader.assign(storedOffsets);
            backToTableOffsets = false;
        }
        reader.refreshPartitions();
        Map<Integer, Long> end = reader.settledEndOffsets(config.pendingTransactionWait());
        long tLatest = System.currentTimeMillis();
        if (!reader.hasNew(end)) {
            pendingSinceMs = -1;
            return Optional.empty();
        }
        if (!flushDue(end)) {
            return Optional.empty();
        }
        long batchId = nextBatchId;
        TopicBatch batch;
        long tRead;
        CommitResult result;
        // append: the rows go to Parquet while they are read; upsert (and complete by key): the records of
        // one partition collapse by key while they are read; otherwise the mode gets the whole batch
        Optional<AppendStream> stream = Optional.empty();
        Optional<KeyedBatch> keyed = Optional.empty();
        Map<Integer, Long> expectedStart = owned == null ? tableOffsets : owned.expectedStart(tableOffsets);
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
            if (batch.rowCount() == 0) {
                LOG.info("delta sink {}: only {} marker records up to {}; no batch", config.appId(), batch.markers(), batch.end());
                return Optional.empty();
            }
            SinkOffsets next = new SinkOffsets(config.appId(), config.topic(), topicId, batch.end(), owned != null ? bootstrap : null);
            result = stream.isPresent() ? stream.get().commit(next)
                    : keyed.isPresent() ? keyed.get().commit(next, batch.rowCount())
                    : mode.write(txnAppId, batchId, batch, expectedStart, next);
        } catch (RuntimeException e) {
            backToTableOffsets = true; // the next attempt reads this batch again
            throw e;
        } finally {
            stream.ifPresent(AppendStream::close);
        }
        Map<Integer, Long> start = new TreeMap<>(batch.start());
        start.putAll(storedOffsets);
        long tCommit = System.currentTimeMillis();
        pendingSinceMs = -1;
        if (result.committed()) {
            if (result.metrics().get("numOutputBytes") instanceof Long bytes && bytes > 0) {
                bytesPerRecord = (double) bytes / batch.rowCount();
            }
            nextBatchId++;
            storedOffsets = new TreeMap<>(batch.end());
            tableOffsets = storedOffsets;
            if (config.trimTopic()) {
                reader.trimBefore(storedOffsets);
            }
        } else {
            LOG.warn("delta sink {}: batch {} was already in table {}; resuming from the table", txnAppId, batchId, writer.tablePath());
            resumeFromTable();
        }
        return Optional.of(progress.batch(batchId, new SinkProgress.Times(t0, tLatest, tRead, tCommit), batch, start, result));
    }

    /**
     * Whether new records should be committed now: always with {@code allowedLatency} zero; else once
     * the first of them has waited that long, or once they make about {@code targetFileSize} of
     * Parquet (estimated from the bytes per record of the last batch this sink wrote).
     */
    private boolean flushDue(Map<Integer, Long> end) {
        long latency = config.allowedLatency().toMillis();
        if (latency == 0) {
            return true;
        }
        long now = System.currentTimeMillis();
        pendingSinceMs = pendingSinceMs < 0 ? now : pendingSinceMs;
        if (now - pendingSinceMs >= latency) {
            return true;
        }
        Map<Integer, Long> position = reader.positions();
        long pending = end.entrySet().stream().mapToLong(e -> e.getValue() - position.getOrDefault(e.getKey(), 0L)).sum();
        return bytesPerRecord > 0 && pending * bytesPerRecord >= config.targetFileSize();
    }

    /**
     * The progress record of a trigger that found nothing new, as Spark reports one (the next
     * batch id, 0 input rows, start = end offsets) when no micro-batch runs: for callers that
     * print a line per trigger even when {@link #runBatch} returned empty.
     */
    public Progress idleProgress() {
        return progress.idle(nextBatchId, storedOffsets);
    }

    /** The partitions this instance works on when instances share the topic; null when this sink reads them all. */
    public java.util.Set<Integer> ownedPartitions() {
        OwnedPartitions o = owned;
        return o == null ? null : o.current();
    }

    /** The batch id the next {@link #runBatch} commits. */
    public long nextBatchId() {
        return nextBatchId;
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
