package io.tributary.sink.internal;

import io.tributary.delta.kernel.KernelInternals;
import io.tributary.delta.kernel.KernelTransactions;
import io.delta.kernel.Operation;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Table;
import io.delta.kernel.TableManager;
import io.delta.kernel.Transaction;
import io.delta.kernel.TransactionCommitResult;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.CommitStateUnknownException;
import io.delta.kernel.exceptions.ConcurrentTransactionException;
import io.delta.kernel.exceptions.ConcurrentWriteException;
import io.delta.kernel.exceptions.MaxCommitRetryLimitReachedException;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.types.StructType;
import io.tributary.delta.KernelEngines;
import io.tributary.delta.KernelSchemas;
import io.tributary.schema.CrashPoint;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.sink.SinkConfig;
import io.tributary.sink.SinkOffsets;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends one batch of rows to a Delta table as one version, exactly once: Parquet files written
 * by Kernel's default writer, a {@code txn (appId, batchId)} action and the sink's Kafka offsets
 * ({@link SinkOffsets#DOMAIN} domain metadata) in the same commit, operation {@code STREAMING UPDATE}
 * as Spark's streaming Delta sink writes. The first write creates the table (version 0 holds the
 * protocol, the schema and the first rows). Post-commit hooks (checkpoints every
 * {@code delta.checkpointInterval} commits, checksums) run before {@code append} returns.
 */
public final class DeltaTableWriter {
    private static final Logger LOG = LoggerFactory.getLogger(DeltaTableWriter.class);
    static final String ENGINE_INFO = "Tributary-0.1.0";
    /** Commits of one batch on top of other writers' commits before it fails. */
    static final int MAX_COMMIT_TRIES = 10;
    /** As {@link #MAX_COMMIT_TRIES}, for instances that share the table ({@link #shareOffsets}), whose commits often meet. */
    static final int MAX_SHARED_COMMIT_TRIES = 50;

    private final Engine engine;
    private final String tablePath;
    private final Schema schema;
    private final StructType kernelSchema;
    private final Map<String, String> tableProperties;
    private final Partitioning partitioning;
    private final DataFileWriter files;
    private OffsetFence fence = OffsetFence.WHOLE;

    public DeltaTableWriter(Engine engine, String tablePath, Schema schema, Map<String, String> tableProperties) {
        this(engine, tablePath, tableProperties, Partitioning.none(schema));
    }

    /** A writer of a partitioned table: {@code partitioning} gives the table's schema, its partition columns and derived columns. */
    public DeltaTableWriter(Engine engine, String tablePath, Map<String, String> tableProperties, Partitioning partitioning) {
        this(engine, tablePath, tableProperties, partitioning, SinkConfig.DEFAULT_TARGET_FILE_SIZE);
    }

    /** As above, rolling Parquet files at about {@code targetFileSize} bytes (give Kernel's writer the same: {@code KernelEngines.withTargetFileSize}). */
    public DeltaTableWriter(Engine engine, String tablePath, Map<String, String> tableProperties, Partitioning partitioning,
                            long targetFileSize) {
        this.engine = engine;
        this.tablePath = KernelEngines.tablePath(tablePath);
        this.partitioning = partitioning;
        this.schema = partitioning.tableSchema();
        this.kernelSchema = KernelSchemas.toKernel(schema);
        this.files = new DataFileWriter(engine, schema, kernelSchema, targetFileSize);
        Map<String, String> props = new HashMap<>(tableProperties);
        props.putIfAbsent("delta.checkpointInterval", "10");
        this.tableProperties = Map.copyOf(props);
    }

    Engine engine() {
        return engine;
    }

    /**
     * Several instances of sink {@code sinkId} share the topic's partitions and commit to this
     * table, each its own partitions ({@link OffsetFence#shared}): a batch's expected start offsets
     * name every partition of the batch ({@link OffsetFence#NONE} where the table has none yet),
     * and a batch another instance superseded fails with {@link BatchSuperseded}.
     */
    public void shareOffsets(String sinkId) {
        this.fence = OffsetFence.shared(sinkId);
    }

    OffsetFence fence() {
        return fence;
    }

    DataFileWriter files() {
        return files;
    }

    /** Input rows as the table stores them: with the derived partition columns ({@link Partitioning#toTableRows}). */
    List<Object[]> toTableRows(List<Object[]> inputRows) {
        return partitioning.toTableRows(inputRows);
    }

    public String tablePath() {
        return tablePath;
    }

    /** The table's latest snapshot, or empty if there is no table yet. */
    public Optional<Snapshot> latestSnapshot() {
        return TableSnapshots.latest(engine, tablePath);
    }

    /**
     * Appends {@code rows} as batch {@code batchId} of {@code appId}.
     *
     * @param expectedStart the offsets the caller believes the table holds (empty map: none yet);
     *                      anything else in the table means another writer or stale state, and is refused
     * @param next the offsets to store with this batch
     */
    public CommitResult append(String appId, long batchId, List<Object[]> rows, Map<Integer, Long> expectedStart, SinkOffsets next) {
        try (AppendStream stream = openAppend(appId, batchId, expectedStart)) {
            rows.forEach(stream::add);
            return stream.commit(next);
        }
    }

    /**
     * Starts batch {@code batchId} of {@code appId} as an {@link AppendStream}: its rows are written
     * while they are added, and {@link AppendStream#commit} commits them as {@link #append} does.
     * A batch the table holds already gives a stream that writes nothing.
     *
     * @param expectedStart as in {@link #append}
     */
    public AppendStream openAppend(String appId, long batchId, Map<Integer, Long> expectedStart) {
        Optional<Snapshot> snapshot = latestSnapshot();
        if (snapshot.isPresent()) {
            Optional<Long> txn = snapshot.get().getLatestTransactionVersion(engine, appId);
            if (txn.isPresent() && txn.get() >= batchId) {
                LOG.info("delta table {}: batch {} of {} is already committed (txn version {}); writing nothing", tablePath, batchId, appId, txn.get());
                return AppendStream.alreadyCommitted(this, appId, batchId, snapshot.get().getVersion());
            }
            checkState(snapshot.get(), appId, batchId, txn, expectedStart);
        } else if (!fence.claimsNothing(expectedStart)) {
            throw new TributaryException("delta table " + tablePath + " does not exist, but sink " + appId
                    + " expected it to hold offsets " + expectedStart + " (was the table deleted while the sink ran?); "
                    + "restart the sink to write the topic again from its beginning");
        }
        Transaction txn = build(snapshot, appId, batchId, 0); // another writer's commit fails it at once: commitAppend says so, rebases it
        return AppendStream.open(this, txn, new AppendStream.Claim(appId, batchId, snapshot, expectedStart),
                partitioning.columns().isEmpty() ? files.direct(txn).orElse(null) : null);
    }

    /**
     * Starts an append whose progress is kept per topic partition by its caller (domain metadata given
     * at {@link AppendStream#commitWithDomains}), with no {@code txn}: several writers may append at once,
     * Kernel rebasing one over another, and a commit that another writer's commit of the same domain
     * overtook fails ({@link io.tributary.sink.StaleBatchException}).
     *
     * @param writerId names the writer in logs and the Parquet writer's thread
     * @return the stream and the snapshot it builds on (empty: the commit creates the table)
     */
    public Map.Entry<AppendStream, Optional<Snapshot>> openPartitionAppend(String writerId) {
        Optional<Snapshot> snapshot = latestSnapshot();
        Transaction txn = buildPartitionTxn(snapshot, writerId, -1);
        AppendStream stream = AppendStream.open(this, txn, new AppendStream.Claim(writerId, -1, snapshot, Map.of()),
                partitioning.columns().isEmpty() ? files.direct(txn).orElse(null) : null);
        return Map.entry(stream, snapshot);
    }

    /**
     * A transaction with no txn on {@code snapshot} (empty: it creates the table), for a writer whose
     * progress is kept per topic partition; the table's schema and partitioning checked.
     *
     * @param maxRetries -1: Kernel's default (blind appends rebase); 0: a concurrent commit fails this one
     */
    Transaction buildPartitionTxn(Optional<Snapshot> snapshot, String writerId, int maxRetries) {
        Transaction txn;
        try {
            if (snapshot.isPresent()) {
                var builder = SinkTableFeatures.withSinkFeatures(snapshot.get(),
                        snapshot.get().buildUpdateTableTransaction(ENGINE_INFO, Operation.STREAMING_UPDATE));
                txn = (maxRetries < 0 ? builder : builder.withMaxRetries(maxRetries)).build(engine);
            } else {
                txn = Table.forPath(engine, tablePath).createTransactionBuilder(engine, ENGINE_INFO, Operation.STREAMING_UPDATE)
                        .withSchema(engine, kernelSchema).withPartitionColumns(engine, partitioning.columns())
                        .withTableProperties(engine, tableProperties).withDomainMetadataSupported().build(engine);
            }
        } catch (io.delta.kernel.exceptions.KernelException e) {
            if (snapshot.isEmpty() && latestSnapshot().isPresent()) {
                throw new io.tributary.sink.StaleBatchException("delta table " + tablePath + " was created by another writer while "
                        + writerId + " started its batch; nothing of it was committed: read the table's offsets again", e);
            }
            throw new TributaryException("delta table " + tablePath + ": cannot start a commit for " + writerId + ": " + e.getMessage(), e);
        }
        if (snapshot.isPresent()) {
            checkSchema(snapshot.get());
        }
        return txn;
    }

    /** Commits {@code actions} with the domain metadata {@code domains} and no txn (see {@link #openPartitionAppend}). */
    CommitResult commitPartitions(Transaction txn, String writerId, List<Row> actions, Map<String, String> domains, long rows,
                                  long writeNanos) {
        domains.forEach(txn::addDomainMetadata);
        long t1 = System.nanoTime();
        TransactionCommitResult result;
        try {
            result = txn.commit(engine, Iterators.iterable(actions));
        } catch (ConcurrentWriteException e) {
            throw new io.tributary.sink.StaleBatchException("delta table " + tablePath + ": " + writerId + "'s commit of " + rows
                    + " rows was overtaken by another writer's commit of the same partitions, or of the table's creation ("
                    + e.getMessage() + "); nothing of it was committed: read the table's offsets again", e);
        } catch (CommitStateUnknownException e) {
            throw new io.tributary.sink.StaleBatchException("delta table " + tablePath + ": " + writerId + "'s commit failed with a storage "
                    + "error and may or may not have landed (" + e.getMessage() + "): read the table's offsets again", e);
        }
        long t2 = System.nanoTime();
        runHooks(result);
        LOG.info("delta table {}: version {} committed by {}: {} rows in {} files", tablePath, result.getVersion(), writerId, rows, actions.size());
        return new CommitResult(true, result.getVersion(), actions.size(), ms(writeNanos), ms(t2 - t1), ms(System.nanoTime() - t2),
                Map.of("numOutputBytes", addedBytes(actions)));
    }

    /**
     * Commits the files {@code actions} add as the claim's batch, with {@code next}; {@code writeNanos}
     * went into writing them. {@code txn} was built on {@code claim.base()}.
     */
    CommitResult commitAppend(Transaction txn, AppendStream.Claim claim, List<Row> actions, SinkOffsets next, long rows,
                              long writeNanos) {
        String appId = claim.appId();
        long batchId = claim.batchId();
        txn.addDomainMetadata(SinkOffsets.DOMAIN, fence.domainJson(claim.base(), next));
        long t1 = System.nanoTime();
        TransactionCommitResult result = null;
        CrashPoint.reach(CrashPoint.SINK_BEFORE_COMMIT);
        try {
            Transaction current = txn;
            for (int tries = 1; result == null; tries++) {
                try {
                    result = current.commit(engine, Iterators.iterable(actions));
                } catch (MaxCommitRetryLimitReachedException e) {
                    Optional<Transaction> onTop = onTopOfNewCommits(current, claim, next, tries, e);
                    if (onTop.isEmpty()) {
                        LOG.info("delta table {}: batch {} of {} was committed concurrently; writing nothing", tablePath, batchId, appId);
                        return CommitResult.alreadyCommitted(latestSnapshot().map(Snapshot::getVersion).orElse(-1L));
                    }
                    current = onTop.get();
                }
            }
            CrashPoint.reach(CrashPoint.SINK_AFTER_COMMIT);
        } catch (ConcurrentTransactionException e) {
            LOG.info("delta table {}: batch {} of {} was committed concurrently; writing nothing", tablePath, batchId, appId);
            return CommitResult.alreadyCommitted(latestSnapshot().map(Snapshot::getVersion).orElse(-1L));
        } catch (CommitStateUnknownException e) {
            return resolveUnknown(appId, batchId, e);
        } catch (ConcurrentWriteException e) {
            if (fence.shared()) { // another instance created the table, or changed what the batch relies on: read it again
                throw new BatchSuperseded("delta table " + tablePath + ": batch " + batchId + " of " + appId
                        + " lost a race with another instance (" + e.getMessage() + "); the batch is not committed", e);
            }
            throw new TributaryException("delta table " + tablePath + ": batch " + batchId + " of sink " + appId
                    + " lost a race with another writer (" + e.getMessage() + "); only one sink may write a table: "
                    + "stop the other writer and run again (nothing of this batch was committed)", e);
        }
        long t2 = System.nanoTime();
        runHooks(result);
        long t3 = System.nanoTime();
        LOG.info("delta table {}: version {} committed, batch {} of {}: {} rows in {} files",
                tablePath, result.getVersion(), batchId, appId, rows, actions.size());
        return new CommitResult(true, result.getVersion(), actions.size(), ms(writeNanos), ms(t2 - t1), ms(t3 - t2),
                Map.of("numOutputBytes", addedBytes(actions)));
    }

    /**
     * After another writer took the version a batch's commit meant to take (an {@code optimize},
     * most often): a transaction that commits the same files on top of the new versions, as Kernel's
     * own retry would, once they are shown not to conflict: the batch is not in the table yet, the
     * sink's offsets and the table's schema, partitioning, properties and protocol are as the batch
     * read them. Empty if the batch is in the table already (its files stay uncommitted).
     *
     * @throws TributaryException if another writer changed what the batch relies on, or kept winning
     */
    private Optional<Transaction> onTopOfNewCommits(Transaction lost, AppendStream.Claim claim, SinkOffsets next, int tries,
                                                    MaxCommitRetryLimitReachedException e) {
        String appId = claim.appId();
        long batchId = claim.batchId();
        Snapshot latest = latestSnapshot().orElseThrow(() -> lostRace(appId, batchId, "the table disappeared", e));
        Optional<Long> txn = latest.getLatestTransactionVersion(engine, appId);
        if (txn.isPresent() && txn.get() >= batchId) {
            return Optional.empty();
        }
        if (lost.getReadTableVersion() < 0 || tries >= maxCommitTries()) {
            throw lostRace(appId, batchId, "another writer kept committing first", e);
        }
        Snapshot read = TableManager.loadSnapshot(tablePath).atVersion(lost.getReadTableVersion()).build(engine);
        if (fence.shared()) {
            fence.check(latest, tablePath, appId, batchId, claim.expectedStart()); // the other instances' commits leave the batch's partitions alone
            pause(tries);
        } else if (!read.getDomainMetadata(SinkOffsets.DOMAIN).equals(latest.getDomainMetadata(SinkOffsets.DOMAIN))) {
            throw lostRace(appId, batchId, "another writer changed the sink's offsets", e);
        }
        if (!read.getSchema().equals(latest.getSchema()) || !read.getPartitionColumnNames().equals(latest.getPartitionColumnNames())
                || !read.getTableProperties().equals(latest.getTableProperties())
                || !KernelInternals.protocol(read).equals(KernelInternals.protocol(latest))) {
            throw lostRace(appId, batchId, "another writer changed the table's schema, partitioning, properties or protocol", e);
        }
        LOG.info("delta table {}: version {} was committed by another writer while batch {} of {} was written; committing the batch on top of it",
                tablePath, latest.getVersion(), batchId, appId);
        Transaction onTop;
        try {
            onTop = build(Optional.of(latest), appId, batchId, 0);
        } catch (IllegalStateException raced) {
            if (raced.getCause() instanceof ConcurrentTransactionException) {
                return Optional.empty(); // the batch landed between the check above and this build
            }
            throw raced;
        }
        onTop.addDomainMetadata(SinkOffsets.DOMAIN, fence.domainJson(Optional.of(latest), next));
        return Optional.of(onTop);
    }

    /** Commits of one batch on top of other writers' before it gives up: more when instances share the table's commits. */
    int maxCommitTries() {
        return fence.shared() ? MAX_SHARED_COMMIT_TRIES : MAX_COMMIT_TRIES;
    }

    /** Instances that lost a commit to each other try again after a short random pause, so that they do not collide again and again. */
    static void pause(int tries) {
        try {
            Thread.sleep(java.util.concurrent.ThreadLocalRandom.current().nextLong(5, 20L * Math.min(tries, 5) + 6));
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new TributaryException("interrupted while committing to a shared table", ie);
        }
    }

    private TributaryException lostRace(String appId, long batchId, String why, Exception cause) {
        if (fence.shared()) {
            return new BatchSuperseded("delta table " + tablePath + ": batch " + batchId + " of " + appId + " lost " + why
                    + "; the batch is not committed", cause);
        }
        return new TributaryException("delta table " + tablePath + ": batch " + batchId + " of sink " + appId
                + " lost a race with another writer (" + why + "); only one sink may write a table: "
                + "stop the other writer and run again (nothing of this batch was committed)", cause);
    }

    /** The bytes of the data files that {@code add} actions add (Delta's {@code numOutputBytes}). */
    private static long addedBytes(List<Row> actions) {
        long bytes = 0;
        for (Row action : actions) {
            int i = action.getSchema().indexOf("add");
            if (i >= 0 && !action.isNullAt(i)) {
                Row add = action.getStruct(i);
                bytes += add.getLong(add.getSchema().indexOf("size"));
            }
        }
        return bytes;
    }

    void checkState(Snapshot snap, String appId, long batchId, Optional<Long> txn, Map<Integer, Long> expectedStart) {
        long last = txn.orElse(-1L);
        if (last != batchId - 1) {
            throw new TributaryException("delta table " + tablePath + ": sink " + appId + " is about to commit batch " + batchId
                    + " but the table's last batch of this sink is " + (last < 0 ? "none" : String.valueOf(last))
                    + "; batches must follow one another: restart the sink so it resumes from the table");
        }
        fence.check(snap, tablePath, appId, batchId, expectedStart);
        checkSchema(snap);
    }

    void checkSchema(Snapshot snap) {
        if (!TableSchemaUpdate.grow(snap.getSchema(), kernelSchema).equals(snap.getSchema()) && !grows(snap)) {
            throw new TributaryException("delta table " + tablePath + " has schema " + KernelSchemas.fromKernel(tablePath, snap.getSchema()).toDdl()
                    + ", but the sink writes " + schema.toDdl() + "; another writer changed the table's schema since the sink started:"
                    + " restart the sink so that it writes the table's schema");
        }
        if (!snap.getPartitionColumnNames().equals(partitioning.columns())) {
            throw new TributaryException("delta table " + tablePath + " is partitioned by " + snap.getPartitionColumnNames()
                    + ", but the sink partitions by " + partitioning.columns() + " (sink.delta.partitionBy " + partitioning.specs()
                    + "); Delta cannot change a table's partitioning: set partitionBy as the table has it, or write to a new table path");
        }
    }

    /**
     * True when the sink's schema is the table's grown by columns the sink adds (mergeSchema) or
     * widens (typeWidening): the commit sets it ({@link TableSchemaUpdate}).
     */
    private boolean grows(Snapshot snap) {
        Schema table = KernelSchemas.fromKernel(tablePath, snap.getSchema());
        try {
            return SchemaMerge.merge(tablePath, table, schema, true, typeWidening(snap)).schema().equals(schema);
        } catch (TributaryException e) {
            return false;
        }
    }

    /** True when the table has Delta's type widening on ({@code delta.enableTypeWidening}). */
    public static boolean typeWidening(Snapshot snap) {
        return "true".equalsIgnoreCase(snap.getTableProperties().getOrDefault("delta.enableTypeWidening", "false"));
    }

    /** @param maxRetries -1: Kernel's default; 0: a concurrent commit fails this one instead of rebasing it */
    Transaction build(Optional<Snapshot> snapshot, String appId, long batchId, int maxRetries) {
        try {
            if (snapshot.isPresent()) {
                var builder = SinkTableFeatures.withSinkFeatures(snapshot.get(), snapshot.get()
                        .buildUpdateTableTransaction(ENGINE_INFO, Operation.STREAMING_UPDATE).withTransactionId(appId, batchId));
                Transaction txn = (maxRetries < 0 ? builder : builder.withMaxRetries(maxRetries)).build(engine);
                StructType grown = TableSchemaUpdate.grow(snapshot.get().getSchema(), kernelSchema);
                if (!grown.equals(snapshot.get().getSchema())) {
                    LOG.info("delta table {}: batch {} of {} changes the table's schema to {} (sink.delta.mergeSchema)", tablePath, batchId,
                            appId, schema.toDdl());
                    KernelTransactions.setSchema(txn, grown);
                }
                return txn;
            }
            // the legacy builder is the one that creates a table with a txn and a chosen operation
            return Table.forPath(engine, tablePath)
                    .createTransactionBuilder(engine, ENGINE_INFO, Operation.STREAMING_UPDATE)
                    .withSchema(engine, kernelSchema)
                    .withPartitionColumns(engine, partitioning.columns())
                    .withTableProperties(engine, tableProperties)
                    .withDomainMetadataSupported()
                    .withTransactionId(engine, appId, batchId)
                    .build(engine);
        } catch (ConcurrentTransactionException e) {
            throw new IllegalStateException("txn checked before build", e);
        } catch (io.delta.kernel.exceptions.KernelException e) {
            if (fence.shared() && snapshot.isEmpty() && latestSnapshot().isPresent()) {
                // another instance created the table after this batch found none: read it again
                throw new BatchSuperseded("delta table " + tablePath + " was created by another instance while batch " + batchId
                        + " of " + appId + " was read; the batch is not committed", e);
            }
            throw new TributaryException("delta table " + tablePath + ": cannot start a commit for batch " + batchId
                    + " of sink " + appId + ": " + e.getMessage(), e);
        }
    }

    /**
     * Writes table rows as Parquet files of {@code txn}, one group per partition ({@link Partitioning#group}),
     * and returns their {@code add} actions; the one writer of every mode.
     */
    List<Row> writeFiles(Transaction txn, List<Object[]> rows) {
        if (rows.isEmpty()) {
            return List.of();
        }
        List<Row> actions = new ArrayList<>();
        for (Map.Entry<Map<String, Literal>, List<Object[]>> group : partitioning.group(rows).entrySet()) {
            actions.addAll(writePartition(txn, group.getKey(), group.getValue()));
        }
        return actions;
    }

    private List<Row> writePartition(Transaction txn, Map<String, Literal> partition, List<Object[]> rows) {
        return files.write(txn, partition, rows);
    }

    CommitResult resolveUnknown(String appId, long batchId, CommitStateUnknownException e) {
        Optional<Snapshot> snap = latestSnapshot();
        Optional<Long> txn = snap.flatMap(s -> s.getLatestTransactionVersion(engine, appId));
        if (txn.isPresent() && txn.get() >= batchId) {
            LOG.info("delta table {}: commit state of batch {} was unknown; the table has it (txn {})", tablePath, batchId, txn.get());
            return CommitResult.alreadyCommitted(snap.get().getVersion());
        }
        throw new TributaryException("delta table " + tablePath + ": the commit of batch " + batchId + " of sink " + appId
                + " failed with a storage error and did not land (" + e.getMessage() + "); nothing was committed, run again", e);
    }

    /** Checksum, checkpoint and log clean-up ({@link PostCommitHooks}). */
    void runHooks(TransactionCommitResult result) {
        PostCommitHooks.run(engine, tablePath, result);
    }

    private static long ms(long nanos) {
        return nanos / 1_000_000;
    }
}
