package io.tributary.sink.internal;

import io.tributary.delta.kernel.KernelTransactions;
import io.delta.kernel.Operation;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Table;
import io.delta.kernel.Transaction;
import io.delta.kernel.TransactionCommitResult;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.ConcurrentTransactionException;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.types.StructType;
import io.tributary.delta.ColumnMapping;
import io.tributary.delta.KernelEngines;
import io.tributary.delta.KernelSchemas;
import io.tributary.schema.Schema;
import io.tributary.sink.SinkConfig;
import io.tributary.sink.SinkOffsets;
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

    private final Engine engine;
    private final String tablePath;
    private final Schema schema;
    private final StructType kernelSchema;
    private final Map<String, String> tableProperties;
    private final Partitioning partitioning;
    private final DataFileWriter files;
    private final TableSchemaCheck schemaCheck;
    /** True when the caller checks the table's constraints itself ({@link #constraintsCheckedByCaller}). */
    private boolean constraintsChecked;
    private final AppendCommitter committer = new AppendCommitter(this);
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
        this.schemaCheck = new TableSchemaCheck(this.tablePath, schema, kernelSchema, partitioning);
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

    /** Tributary's Parquet writer for files of {@code txn} ({@link DataFileWriter#direct}), on an unpartitioned table; else empty. */
    Optional<DirectParquetFiles.Rolling> directFiles(Transaction txn) {
        return partitioning.columns().isEmpty() ? files.direct(txn) : Optional.empty();
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
            throw CommitErrors.tableDeleted(tablePath, appId, expectedStart);
        }
        Transaction txn = build(snapshot, appId, batchId, 0); // another writer's commit fails it at once: commitAppend says so, rebases it
        return AppendStream.open(this, txn, new AppendStream.Claim(appId, batchId, snapshot, expectedStart),
                directFiles(txn).orElse(null));
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
                directFiles(txn).orElse(null));
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
                txn = updateTransaction(snapshot.get(), s -> {
                    var builder = SinkTableFeatures.withSinkFeatures(s, s.buildUpdateTableTransaction(ENGINE_INFO, Operation.STREAMING_UPDATE));
                    return (maxRetries < 0 ? builder : builder.withMaxRetries(maxRetries)).build(engine);
                });
            } else {
                TableSchemaCheck.namesDeltaTakes(tablePath, schema, tableProperties);
                txn = Table.forPath(engine, tablePath).createTransactionBuilder(engine, ENGINE_INFO, Operation.STREAMING_UPDATE)
                        .withSchema(engine, kernelSchema).withPartitionColumns(engine, partitioning.columns())
                        .withTableProperties(engine, tableProperties).withDomainMetadataSupported().build(engine);
            }
        } catch (io.delta.kernel.exceptions.KernelException e) {
            if (snapshot.isEmpty() && latestSnapshot().isPresent()) {
                throw CommitErrors.createdByAnotherWriter(tablePath, writerId, e);
            }
            throw CommitErrors.cannotStartPartitionCommit(tablePath, writerId, e.getMessage(), e);
        }
        if (snapshot.isPresent()) {
            schemaCheck.check(snapshot.get());
        }
        return txn;
    }

    void checkState(Snapshot snap, String appId, long batchId, Optional<Long> txn, Map<Integer, Long> expectedStart) {
        long last = txn.orElse(-1L);
        if (last != batchId - 1) {
            throw CommitErrors.batchOutOfSequence(tablePath, appId, batchId, last);
        }
        fence.check(snap, tablePath, appId, batchId, expectedStart);
        schemaCheck.check(snap);
    }

    /** Commits {@code actions} with the domain metadata {@code domains} and no txn (see {@link #openPartitionAppend}). */
    CommitResult commitPartitions(Transaction txn, String writerId, List<Row> actions, Map<String, String> domains, long rows,
                                  long writeNanos) {
        return committer.commitPartitions(txn, writerId, actions, domains, rows, writeNanos);
    }

    /** Commits the claim's batch ({@link AppendCommitter#commitAppend}). */
    CommitResult commitAppend(Transaction txn, AppendStream.Claim claim, List<Row> actions, SinkOffsets next, long rows,
                              long writeNanos) {
        return committer.commitAppend(txn, claim, actions, next, rows, writeNanos);
    }

    /** True when the table has Delta's type widening on ({@code delta.enableTypeWidening}). */
    public static boolean typeWidening(Snapshot snap) {
        return "true".equalsIgnoreCase(snap.getTableProperties().getOrDefault("delta.enableTypeWidening", "false"));
    }

    /**
     * The caller checks every row against the table's CHECK constraints and invariants before it is
     * written ({@link TableConstraints}): transactions are built on tables that have them, which
     * Kernel alone refuses ({@link KernelTransactions#buildCheckedByCaller}).
     */
    public void constraintsCheckedByCaller() {
        this.constraintsChecked = true;
    }

    /** {@code build} on {@code snapshot}: past Kernel's refusal of constraints when the caller checks them. */
    private Transaction updateTransaction(Snapshot snapshot, java.util.function.Function<Snapshot, Transaction> build) {
        return constraintsChecked ? KernelTransactions.buildCheckedByCaller(snapshot, build) : build.apply(snapshot);
    }

    /** @param maxRetries -1: Kernel's default; 0: a concurrent commit fails this one instead of rebasing it */
    Transaction build(Optional<Snapshot> snapshot, String appId, long batchId, int maxRetries) {
        try {
            if (snapshot.isPresent()) {
                StructType grown = TableSchemaUpdate.grow(snapshot.get().getSchema(), kernelSchema);
                boolean grows = !grown.equals(snapshot.get().getSchema());
                // on a column-mapped table Kernel changes the schema itself, each new column with the next id and a new
                // col-<uuid> physical name, as Spark gives, never one a dropped column's data may still have
                boolean kernelGrows = grows && ColumnMapping.isOn(snapshot.get().getTableProperties());
                Transaction txn = updateTransaction(snapshot.get(), s -> {
                    var builder = SinkTableFeatures.withSinkFeatures(s, s.buildUpdateTableTransaction(ENGINE_INFO, Operation.STREAMING_UPDATE)
                            .withTransactionId(appId, batchId));
                    if (kernelGrows) {
                        builder = builder.withUpdatedSchema(ColumnMapping.withNewPhysicalNames(grown, s.getTableProperties()));
                    }
                    return (maxRetries < 0 ? builder : builder.withMaxRetries(maxRetries)).build(engine);
                });
                if (grows) {
                    LOG.info("delta table {}: batch {} of {} changes the table's schema to {} (sink.delta.mergeSchema)", tablePath, batchId,
                            appId, schema.toDdl());
                    if (!kernelGrows) {
                        KernelTransactions.setSchema(txn, grown);
                    }
                }
                return txn;
            }
            // the legacy builder is the one that creates a table with a txn and a chosen operation
            TableSchemaCheck.namesDeltaTakes(tablePath, schema, tableProperties);
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
                throw CommitErrors.createdByAnotherInstance(tablePath, batchId, appId, e);
            }
            throw CommitErrors.cannotStartCommit(tablePath, batchId, appId, e.getMessage(), e);
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

    /** Checksum, checkpoint and log clean-up ({@link PostCommitHooks}). */
    void runHooks(TransactionCommitResult result) {
        PostCommitHooks.run(engine, tablePath, result);
    }
}
