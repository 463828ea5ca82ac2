package io.tributary.sink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.BadRecordException;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.sink.internal.AppendStream;
import io.tributary.sink.internal.CommitErrors;
import io.tributary.sink.internal.CommitResult;
import io.tributary.sink.internal.DeltaTableWriter;
import io.tributary.sink.internal.PartitionUpsert;
import io.tributary.sink.internal.Partitioning;
import io.tributary.sink.internal.TableConstraints;
import io.tributary.sink.internal.TableFolder;
import io.tributary.sink.internal.SinkTableFeatures;
import io.tributary.sink.internal.TableSnapshots;
import io.tributary.storage.Storage;
import java.io.IOException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;

/**
 * A Delta table appended to by several writers at once, each committing the topic partitions it
 * owns (the Kafka Connect sink's tasks): the {@link DeltaSink}'s exactly-once rule with the
 * progress kept per partition. Each commit carries, for every partition it advances, domain
 * metadata {@code tributary.sink.partition:<topic>:<partition>} holding the next offset to read;
 * a batch commits only if the table holds, for each of its partitions, the offset the batch
 * starts at. Writers of different partitions are blind appends that Kernel rebases over one
 * another; a writer whose partition was committed by another since (it lost the partition in a
 * rebalance) gets a {@link StaleBatchException} and commits nothing.
 *
 * <p>In upsert mode ({@link Keys}) a batch is the sink's MERGE by key (copy-on-write): the files
 * that may hold its keys are read and rewritten. Such a commit is never rebased: each attempt
 * checks the partitions' offsets on the snapshot it commits on, and when another writer's commit
 * came first and touched a file the batch rewrites (files hold keys of several partitions), the
 * batch reads the files again and applies its changes again, so no writer's update is lost. Rows
 * of one key must come from one topic partition (records keyed by the upsert key), so that one
 * writer applies them in offset order.
 */
public final class PartitionSink {
    /** The prefix of the domain metadata that holds a partition's offset. */
    public static final String DOMAIN_PREFIX = "tributary.sink.partition:";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Engine engine;
    private final DeltaTableWriter writer;
    private final String writerId;
    /** Upsert mode's MERGE by key; null: append. */
    private final PartitionUpsert upsert;
    /** The schema of the rows added. */
    private final Schema schema;
    /** The table's CHECK constraints and invariants as of the last batch's start, compiled for the rows added. */
    private TableConstraints constraints = TableConstraints.NONE;

    /** As below, for a table on a local path. */
    public PartitionSink(String tablePath, Schema schema, List<String> partitionBy, long targetFileSize,
                         Map<String, String> tableProperties, String writerId) {
        this(tablePath, schema, partitionBy, targetFileSize, tableProperties, writerId, Storage.NONE);
    }

    /** An appending writer (see below) that refuses to create the table in a folder holding other files. */
    public PartitionSink(String tablePath, Schema schema, List<String> partitionBy, long targetFileSize,
                         Map<String, String> tableProperties, String writerId, Storage storage) {
        this(tablePath, schema, partitionBy, targetFileSize, tableProperties, writerId, storage, null, false);
    }

    /**
     * @param partitionBy the table's partitioning, as {@link SinkConfig#partitionBy()}
     * @param writerId names this writer in the log and in each partition's domain metadata
     * @param storage the settings of the table's file system (object storage), as the spec's {@code storage:} map
     * @param upsert the keys of mode upsert (MERGE by key); null: every row is appended
     * @param allowNonEmptyPath create the table in a folder that holds other files (which stay); false: refused
     *        ({@code delta.path}, {@code allowNonEmptyPath} named), unless the folder is the table's already
     * @throws TributaryException if there is no table yet and its folder holds other files, or a key column is not in {@code schema},
     *         or the table is one the sink cannot write ({@code SinkTableFeatures.checkWritable})
     */
    public PartitionSink(String tablePath, Schema schema, List<String> partitionBy, long targetFileSize,
                         Map<String, String> tableProperties, String writerId, Storage storage, Keys upsert, boolean allowNonEmptyPath) {
        this.engine = KernelEngines.withTargetFileSize(targetFileSize, storage);
        SinkChanges changes = upsert == null ? SinkChanges.NONE : upsert.changes();
        Partitioning partitioning = Partitioning.parse(partitionBy, changes.tableSchema(schema));
        if (upsert != null && partitioning.hasDerivedColumns()) {
            throw CommitErrors.derivedPartitionNeedsAppend(partitionBy);
        }
        // writers race to create the table: one that finds the table created (a _delta_log) or only
        // the table's own data files of a first commit under way passes; other files are someone's
        TableFolder.checkNewTable(tablePath, partitioning.columns(), allowNonEmptyPath, KernelEngines.configuration(engine),
                "delta.path", "allowNonEmptyPath");
        this.writer = new DeltaTableWriter(engine, tablePath, tableProperties, partitioning, targetFileSize);
        writer.constraintsCheckedByCaller(); // each batch's rows are checked by its caller (Batch#violation)
        this.schema = schema;
        SinkTableFeatures.checkWritable(writer.tablePath(), TableSnapshots.latest(engine, writer.tablePath())
                .map(Snapshot::getTableProperties).orElse(tableProperties), upsert == null ? SinkMode.APPEND : SinkMode.UPSERT,
                !partitioning.columns().isEmpty());
        this.writerId = writerId;
        this.upsert = upsert == null ? null
                : upsert.dropDuplicates() ? PartitionUpsert.dropDuplicates(writer, schema, upsert.columns(), upsert.rowsPerFile())
                : new PartitionUpsert(writer, schema, upsert.columns(), upsert.order(), upsert.rowsPerFile(), changes);
    }

    /**
     * Mode upsert's keys: rows of one key collapse within a batch, an existing row with the key is
     * replaced, a new key inserted, a tombstone deletes the key (as {@link SinkMode#UPSERT}).
     *
     * @param columns the key columns
     * @param order the column whose largest value wins among rows of one key in a batch; null: the last record
     * @param rowsPerFile at most this many rows per Parquet file written, sorted by key
     * @param changes change data (sequenceBy, deleteWhen, exceptColumns, deleteRetention, history: {@code docs/cdc.md});
     *        {@link SinkChanges#NONE}: rows
     * @param dropDuplicates Spark's {@code dropDuplicates(columns)} instead of an upsert: a row whose key the table holds, or
     *        that came before in the batch, is dropped; the others are appended (the table keeps each key's first row)
     */
    public record Keys(List<String> columns, String order, int rowsPerFile, SinkChanges changes, boolean dropDuplicates) {
        public Keys {
            columns = List.copyOf(columns);
            if (columns.isEmpty()) {
                throw CommitErrors.noKeyColumns();
            }
            changes = changes == null ? SinkChanges.NONE : changes;
        }

        /** An upsert by {@code columns} (MERGE by key). */
        public Keys(List<String> columns, String order, int rowsPerFile, SinkChanges changes) {
            this(columns, order, rowsPerFile, changes, false);
        }

        /** Spark's {@code dropDuplicates(columns)} kept by the table: each key's first row is appended, later ones dropped. */
        public static Keys dropDuplicates(List<String> columns, int rowsPerFile) {
            return new Keys(columns, null, rowsPerFile, SinkChanges.NONE, true);
        }

        /** Keys without change data: each row replaces its key's row. */
        public Keys(List<String> columns, String order, int rowsPerFile) {
            this(columns, order, rowsPerFile, SinkChanges.NONE);
        }
    }

    /** The domain metadata name of a partition's offset. */
    public static String domain(TopicPartition tp) {
        return DOMAIN_PREFIX + tp.topic() + ":" + tp.partition();
    }

    public String tablePath() {
        return writer.tablePath();
    }

    /** The next offset to read of each of {@code partitions}, as the table's latest version holds it; 0 for a partition it has none of. */
    public Map<TopicPartition, Long> tableOffsets(Collection<TopicPartition> partitions) {
        return offsetsIn(TableSnapshots.latest(engine, writer.tablePath()), partitions);
    }

    /** As {@link #tableOffsets} for the table at {@code path} (0 for every partition when there is no table). */
    public static Map<TopicPartition, Long> offsets(String path, Collection<TopicPartition> partitions) {
        return offsets(path, Storage.NONE, partitions);
    }

    /** As {@link #offsets(String, Collection)}, with {@code storage}'s settings for a table on object storage. */
    public static Map<TopicPartition, Long> offsets(String path, Storage storage, Collection<TopicPartition> partitions) {
        return offsetsIn(TableSnapshots.latest(KernelEngines.create(storage), path), partitions);
    }

    private static Map<TopicPartition, Long> offsetsIn(Optional<Snapshot> snap, Collection<TopicPartition> partitions) {
        Map<TopicPartition, Long> out = new LinkedHashMap<>();
        for (TopicPartition tp : partitions) {
            out.put(tp, snap.flatMap(s -> s.getDomainMetadata(domain(tp))).map(PartitionSink::offsetOf).orElse(0L));
        }
        return out;
    }

    private static long offsetOf(String json) {
        try {
            return JSON.readTree(json).path("offset").asLong();
        } catch (IOException e) {
            throw CommitErrors.notPartitionOffset(json, e);
        }
    }

    /** The offset of every partition the latest version of the table at {@code path} holds; empty when there is no table. */
    public static Map<TopicPartition, Long> allOffsets(String path) {
        Map<TopicPartition, Long> out = new TreeMap<>((a, b) -> a.topic().equals(b.topic())
                ? Integer.compare(a.partition(), b.partition()) : a.topic().compareTo(b.topic()));
        TableSnapshots.latest(KernelEngines.create(), path).ifPresent(s -> io.tributary.sink.internal.TableFacts.domains(s)
                .forEach((domain, json) -> {
                    if (domain.startsWith(DOMAIN_PREFIX)) {
                        JsonNode n = parse(json);
                        out.put(new TopicPartition(n.path("topic").asText(), n.path("partition").asInt()), n.path("offset").asLong());
                    }
                }));
        return out;
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw CommitErrors.unreadablePartitionOffset(json, e);
        }
    }

    /**
     * Starts a batch. Append: its rows are written to Parquet as they are added. Upsert: they
     * collapse by key, and the files that hold their keys are rewritten at {@link Batch#commit}.
     * Nothing is visible before the commit. The table's CHECK constraints and invariants as of now
     * are the batch's to check ({@link Batch#violation}).
     *
     * @throws TributaryException naming the constraint when the table has one that cannot be checked on the rows
     */
    public Batch begin() {
        if (upsert != null) {
            constraints = constraints.forTable(writer.tablePath(), writer.latestSnapshot(), schema);
            return new Batch(null, null, upsert.begin(), constraints);
        }
        Map.Entry<AppendStream, Optional<Snapshot>> open = writer.openPartitionAppend(writerId);
        try {
            constraints = constraints.forTable(writer.tablePath(), open.getValue(), schema);
        } catch (TributaryException e) {
            open.getKey().close();
            throw e;
        }
        return new Batch(open.getKey(), open.getValue(), null, constraints);
    }

    /** One commit's worth of rows, from the partitions' start offsets to their end offsets. */
    public final class Batch implements AutoCloseable {
        private final AppendStream stream;
        private final Optional<Snapshot> base;
        private final PartitionUpsert.Changes changes;
        private final TableConstraints checks;
        private boolean closed;

        private Batch(AppendStream stream, Optional<Snapshot> base, PartitionUpsert.Changes changes, TableConstraints checks) {
            this.stream = stream;
            this.base = base;
            this.changes = changes;
            this.checks = checks;
        }

        /**
         * The CHECK constraint or invariant of the table that {@code row} violates, as a bad record naming
         * the constraint, its expression and the row's values; null when the row holds them all. A row
         * that violates one is the caller's to set aside: Delta's writers refuse a commit holding it.
         */
        public BadRecordException violation(Object[] row) {
            return checks.isEmpty() ? null : checks.violation(row);
        }

        public void add(Object[] row) {
            if (changes != null) {
                changes.upsert(row);
            } else {
                stream.add(row);
            }
        }

        /**
         * Upsert: a tombstone of {@code tp} at {@code offset} deletes the key its record key names
         * (the JSON array of the key column values, e.g. {@code [3]}).
         *
         * @throws TributaryException in append mode, or naming the record when its key is not a key of the table
         */
        public void delete(TopicPartition tp, long offset, byte[] recordKey) {
            if (changes == null || !changes.takesTombstones()) {
                throw CommitErrors.tombstoneInAppend(tp, offset);
            }
            try {
                changes.delete(tp.partition(), offset, recordKey);
            } catch (TributaryException e) {
                throw CommitErrors.badTombstone(tp, e);
            }
        }

        /** The rows (upsert: the records) added. */
        public long rows() {
            return changes != null ? changes.records() : stream.rows();
        }

        /**
         * Commits the rows with the partitions' new offsets.
         *
         * @param from per partition, the offset this batch started reading at: the table must hold it
         * @param to per partition, the next offset to read after this batch
         * @return the new table version
         * @throws StaleBatchException if the table does not hold {@code from} for some partition, or
         *         another writer's commit of one of them overtook this one; nothing is committed
         */
        public long commit(Map<TopicPartition, Long> from, Map<TopicPartition, Long> to) {
            Map<String, String> domains = new LinkedHashMap<>();
            to.forEach((tp, offset) -> {
                if (!offset.equals(from.get(tp))) {
                    ObjectNode n = JSON.createObjectNode();
                    n.put("topic", tp.topic()).put("partition", tp.partition()).put("offset", offset).put("writer", writerId);
                    domains.put(domain(tp), n.toString());
                }
            });
            if (changes != null) {
                closed = true;
                return upsert.commit(changes, writerId, snapshot -> checkHeld(snapshot, from), domains).version();
            }
            try {
                checkHeld(base, from);
            } finally {
                closed = true;
            }
            CommitResult r = stream.commitWithDomains(domains);
            return r.version();
        }

        private void checkHeld(Optional<Snapshot> snapshot, Map<TopicPartition, Long> from) {
            Map<TopicPartition, Long> held = offsetsIn(snapshot, from.keySet());
            if (!held.equals(new LinkedHashMap<>(from))) {
                if (stream != null) {
                    stream.close();
                }
                throw CommitErrors.offsetsMovedOn(writer.tablePath(), held, writerId, from);
            }
        }

        /** Drops the batch: the files it wrote are deleted, nothing is committed. */
        @Override
        public void close() {
            if (!closed) {
                closed = true;
                if (stream != null) {
                    stream.close();
                }
            }
        }
    }
}
