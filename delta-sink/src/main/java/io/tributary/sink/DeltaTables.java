package io.tributary.sink;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.delta.KernelSchemas;
import io.tributary.schema.Schema;
import io.tributary.sink.internal.LogHistory;
import io.tributary.sink.internal.TableConstraints;
import io.tributary.sink.internal.TableReader;
import io.tributary.sink.internal.TableSnapshots;
import io.tributary.storage.Storage;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiPredicate;

/**
 * Reading a Delta table as Tributary sees it: rows, version, the sink's txn and offsets, history.
 * Every method reads the table's latest version; a path with no table gives empty results
 * (version -1, no rows) rather than an error. A table on object storage is read with the
 * {@link Storage} settings given (the methods without take none: AWS's defaults).
 */
public final class DeltaTables {
    private DeltaTables() {
    }

    /** True if {@code path} holds a Delta table (a {@code _delta_log} with at least one commit). */
    public static boolean exists(String path) {
        return exists(path, Storage.NONE);
    }

    public static boolean exists(String path, Storage storage) {
        return snapshot(path, storage).isPresent();
    }

    /** The latest version; -1 if there is no table. */
    public static long latestVersion(String path) {
        return latestVersion(path, Storage.NONE);
    }

    public static long latestVersion(String path, Storage storage) {
        return snapshot(path, storage).map(Snapshot::getVersion).orElse(-1L);
    }

    /** The table's schema as a Tributary schema; empty if there is no table. */
    public static Optional<Schema> schema(String path) {
        return schema(path, Storage.NONE);
    }

    /** As {@link #schema(String)}, with {@code storage}'s settings for a table on object storage. */
    public static Optional<Schema> schema(String path, Storage storage) {
        return snapshot(path, storage).map(s -> KernelSchemas.fromKernel(s.getPath(), s.getSchema()));
    }

    /**
     * What a table asks of every row written to it, as its latest version says: its schema (NOT NULL
     * columns) and its CHECK constraints and invariants, each a name and a Spark SQL expression.
     */
    public record RowRules(Schema schema, Map<String, String> constraints) {
        public RowRules {
            constraints = Map.copyOf(constraints);
        }
    }

    /** The table's {@link RowRules}; empty if there is no table. */
    public static Optional<RowRules> rowRules(String path, Storage storage) {
        return snapshot(path, storage).map(s -> new RowRules(KernelSchemas.fromKernel(s.getPath(), s.getSchema()), TableConstraints.of(s)));
    }

    /**
     * All rows of the latest version, each an {@code Object[]} in the table's column order with
     * values in Tributary's in-memory form (see {@code DataType}); no particular row order.
     */
    public static List<Object[]> readRows(String path) {
        return readRows(path, Storage.NONE);
    }

    public static List<Object[]> readRows(String path, Storage storage) {
        Engine engine = KernelEngines.create(storage);
        return TableSnapshots.latest(engine, path).map(s -> TableReader.readAll(engine, s)).orElse(List.of());
    }

    /**
     * Hands the rows of the table at {@code version} (the latest when null) to {@code rows}, a data file's rows at a time
     * in the table's column order, until it returns false; empty when there is no table, else the schema and version read.
     */
    public static Optional<ReadVersion> readRows(String path, Storage storage, Long version, BiPredicate<Schema, List<Object[]>> rows) {
        Engine engine = KernelEngines.create(storage);
        Optional<Snapshot> snapshot = version == null ? TableSnapshots.latest(engine, path) : TableSnapshots.at(engine, path, version);
        return snapshot.map(s -> {
            Schema schema = KernelSchemas.fromKernel(s.getPath(), s.getSchema());
            TableReader.forEachFile(engine, s, fileRows -> rows.test(schema, fileRows));
            return new ReadVersion(schema, s.getVersion());
        });
    }

    /** The schema and version {@link #readRows(String, Storage, Long, BiPredicate)} read. */
    public record ReadVersion(Schema schema, long version) {
    }

    /** The latest {@code txn} version of {@code appId} (the sink's last batch id), if any. */
    public static Optional<Long> transactionVersion(String path, String appId) {
        Engine engine = KernelEngines.create();
        return TableSnapshots.latest(engine, path).flatMap(s -> s.getLatestTransactionVersion(engine, appId));
    }

    /** The sink offsets stored in the table's {@value SinkOffsets#DOMAIN} domain metadata, if any. */
    public static Optional<SinkOffsets> sinkOffsets(String path) {
        return sinkOffsets(path, Storage.NONE);
    }

    public static Optional<SinkOffsets> sinkOffsets(String path, Storage storage) {
        return snapshot(path, storage).flatMap(s -> s.getDomainMetadata(SinkOffsets.DOMAIN)).map(SinkOffsets::parse);
    }

    /** Where the sink {@code appId} reading {@code topic} stands in the table at {@code path} (also when there is no table). */
    public static SinkStatus sinkStatus(String path, String appId, String topic) {
        return sinkStatus(path, appId, topic, Storage.NONE);
    }

    public static SinkStatus sinkStatus(String path, String appId, String topic, Storage storage) {
        Engine engine = KernelEngines.create(storage);
        Optional<Snapshot> snap = TableSnapshots.latest(engine, path);
        long version = snap.map(Snapshot::getVersion).orElse(-1L);
        long lastBatch = snap.flatMap(s -> s.getLatestTransactionVersion(engine, appId)).orElse(-1L);
        SinkOffsets offsets = snap.flatMap(s -> s.getDomainMetadata(SinkOffsets.DOMAIN)).map(SinkOffsets::parse).orElse(null);
        return new SinkStatus(KernelEngines.tablePath(path), appId, topic, version, lastBatch, lastBatch + 1, offsets);
    }

    /** The versions whose commit files still exist in {@code _delta_log}, oldest first. */
    public static List<TableCommit> history(String path) {
        return history(path, Storage.NONE);
    }

    public static List<TableCommit> history(String path, Storage storage) {
        return LogHistory.read(path, storage);
    }

    private static Optional<Snapshot> snapshot(String path) {
        return snapshot(path, Storage.NONE);
    }

    private static Optional<Snapshot> snapshot(String path, Storage storage) {
        return TableSnapshots.latest(KernelEngines.create(storage), path);
    }
}
