package io.tributary.connect;

import io.tributary.schema.BuildVersion;
import io.tributary.connect.internal.ConnectErrors;
import io.tributary.connect.internal.ConnectSettings;
import io.tributary.connect.internal.RecordRows;
import io.tributary.connect.internal.TaskMetrics;
import io.tributary.expressions.ExpressionException;
import io.tributary.expressions.RowTransform;
import io.tributary.schema.BadRecordException;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.PartitionSink;
import io.tributary.sink.SinkChanges;
import io.tributary.sink.StaleBatchException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends (or upserts by key) its partitions' records to the Delta table through the stage's {@link PartitionSink}.
 * The table holds each partition's next offset, written in the commit that adds the rows:
 * {@link #open} seeks every assigned partition there, so neither a restart nor a rebalance nor
 * Connect's own offset commits (which {@link #preCommit} only feeds with what the table holds)
 * decide where reading resumes. A batch commits only if the table still holds the offsets it
 * started at: a task that lost a partition to another cannot commit a stale batch of it
 * ({@link StaleBatchException}); it drops the batch and reads its partitions again from the table.
 */
public class DeltaSinkTask extends SinkTask {
    private static final Logger LOG = LoggerFactory.getLogger(DeltaSinkTask.class);

    private DeltaSinkConfig config;
    private String name;
    /** The records' rows: the configured schema, the table's (without a transform) or the file connector's header. */
    private Schema schema;
    private RowJson rowJson;
    /** The transform (sql, or join, where and select) from the records' rows to the table's; null without one. */
    private RowTransform transform;
    /** True once the open batch's join tables were read again (Spark reads the static side at each batch). */
    private boolean joinsFresh;
    private PartitionSink sink;
    private ErrantRecordReporter reporter;
    /** Per assigned partition, the next offset to take: the table's, or past the rows the open batch holds. */
    private final Map<TopicPartition, Long> next = new HashMap<>();
    /** Per assigned partition, the offset the table holds as last read or committed. */
    private final Map<TopicPartition, Long> committed = new HashMap<>();
    private PartitionSink.Batch batch;
    /** The partitions of the open batch and the offset each starts at. */
    private final Map<TopicPartition, Long> batchFrom = new LinkedHashMap<>();
    private long batchStartMs;
    private long batchInputBytes;
    /** Parquet bytes written per input byte, as the last commit measured (0: none yet). */
    private double outputPerInputByte;
    private TaskMetrics metrics;
    private volatile long lastVersion = -1;

    @Override
    public String version() {
        return BuildVersion.get();
    }

    @Override
    public void start(Map<String, String> props) {
        config = new DeltaSinkConfig(props);
        name = props.getOrDefault("name", "tributary-delta") + "-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        schema = config.schema();
        if (schema == null && !config.transforms()) { // with a transform the table holds its output, not the records' rows
            schema = DeltaTables.schema(config.tablePath(), config.storage()).map(this::rowsOfTable).orElse(null);
        }
        if (schema != null) {
            openSink();
        }
        metrics = TaskMetrics.of(() -> context.pluginMetrics());
        TaskMetrics.deltaVersion(() -> context.pluginMetrics(), () -> lastVersion);
        try {
            reporter = context.errantRecordReporter();
        } catch (NoSuchMethodError | NoClassDefFoundError e) {
            reporter = null; // a worker older than Kafka 2.6
        }
    }

    /** The rows' schema a table gives: its columns, without a history's {@code __START_AT} and {@code __END_AT}. */
    private Schema rowsOfTable(Schema table) {
        if (!config.history()) {
            return table;
        }
        return new Schema(table.fields().stream()
                .filter(f -> !f.name().equals(SinkChanges.START_AT) && !f.name().equals(SinkChanges.END_AT)).toList());
    }

    private void openSink() {
        rowJson = new RowJson(schema, config.timeZone());
        try {
            transform = config.transform(schema);
        } catch (org.apache.kafka.common.config.ConfigException e) {
            throw new ConnectException("delta sink " + name + ": " + e.getMessage(), e);
        }
        try {
            Schema table = transform == null ? schema : transform.output();
            sink = new PartitionSink(config.tablePath(), table, config.partitionBy(), config.targetFileSize(), Map.of(), name,
                    config.storage(), config.keys(), config.allowNonEmptyPath());
        } catch (TributaryException e) {
            throw new ConnectException("delta sink " + name + ": " + e.getMessage(), e);
        }
    }

    /** Each new partition starts where the table says, whatever the consumer group holds. */
    @Override
    public void open(Collection<TopicPartition> partitions) {
        Map<TopicPartition, Long> offsets = PartitionSink.offsets(config.tablePath(), config.storage(), partitions);
        next.putAll(offsets);
        committed.putAll(offsets);
        context.offset(offsets);
        LOG.info("delta sink {}: partitions {} resume at the table's offsets {}", name, partitions, offsets);
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        for (SinkRecord r : records) {
            TopicPartition tp = new TopicPartition(r.topic(), r.kafkaPartition());
            Long expected = next.get(tp);
            if (expected == null || r.kafkaOffset() < expected) {
                continue; // not assigned to this task, or in the table already (or in the open batch)
            }
            boolean tombstone = r.value() == null && config.upsert();
            List<Object[]> rows = tombstone ? List.of() : rowsOf(r, tp); // empty for a marker, and for a bad record the reporter took
            if (sink == null) {
                continue; // a marker or tombstone before any row: nothing to write or delete, no table to hold the offset yet
            }
            if (batch == null) {
                batch = begin();
                batchStartMs = System.currentTimeMillis();
            }
            batchFrom.putIfAbsent(tp, expected);
            if (tombstone) {
                delete(r, tp);
            }
            rows = holding(r, tp, rows);
            rows.forEach(batch::add);
            metrics.input(rows.size());
            next.put(tp, r.kafkaOffset() + 1);
            batchInputBytes += r.value() instanceof String s ? s.length() : 64L * rows.size();
        }
        if (batch != null && due()) {
            commitBatch();
        }
    }

    /** The record's rows; none when it was bad and Connect's errant record reporter took it. */
    private List<Object[]> rowsOf(SinkRecord r, TopicPartition tp) {
        if (RecordRows.isMarker(r)) {
            return List.of();
        }
        if (sink == null) {
            String ddl = RecordRows.header(r, FileSourceTask.SCHEMA_HEADER);
            if (ddl == null) {
                throw new ConnectException("delta sink " + name + ": table " + config.tablePath() + " does not exist and record "
                        + tp + "@" + r.kafkaOffset() + " does not say its schema (header " + FileSourceTask.SCHEMA_HEADER
                        + "); set the connector's 'schema' to the rows' Spark DDL, e.g. \"id INT, user STRING, ts TIMESTAMP\"");
            }
            schema = Schema.parseWithVariant(ddl);
            openSink();
        }
        List<Object[]> rows;
        try {
            rows = RecordRows.rows(r, rowJson);
        } catch (BadRecordException e) {
            String message = "delta sink " + name + ": record " + tp + "@" + r.kafkaOffset() + " is not a row of " + schema.toDdl()
                    + (e.field() == null ? "" : ", field '" + e.field() + "'") + ": " + e.reason();
            setAside(r, message, "Fix the producer, set the connector's 'schema' to what the topic holds");
            return List.of();
        }
        return transform == null || transform.isIdentity() ? rows : transformed(r, tp, rows);
    }

    /** The rows the transform makes of the record's; none when an expression fails on one and the record was set aside. */
    private List<Object[]> transformed(SinkRecord r, TopicPartition tp, List<Object[]> rows) {
        if (!joinsFresh) {
            try {
                transform.startBatch(Instant.now()); // the join tables and current_timestamp() as of the batch's start (one commit)
            } catch (TributaryException e) {
                throw new ConnectException("delta sink " + name + ": " + e.getMessage(), e);
            }
            joinsFresh = true;
        }
        List<Object[]> out = new java.util.ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            try {
                out.addAll(transform.apply(rows.get(i)));
            } catch (ExpressionException e) {
                String message = "delta sink " + name + ": record " + tp + "@" + r.kafkaOffset() + (rows.size() == 1 ? "" : ", row "
                        + (i + 1) + ",") + ": expression \"" + e.expression() + "\" fails: " + e.condition() + ": " + e.reason();
                setAside(r, message, "Fix the producer or the expression");
                return List.of();
            }
        }
        return out;
    }

    /**
     * The record's rows when each holds the table's CHECK constraints and invariants; none when one
     * does not and Connect's errant record reporter took the record (Delta refuses a commit holding it).
     */
    private List<Object[]> holding(SinkRecord r, TopicPartition tp, List<Object[]> rows) {
        for (int i = 0; i < rows.size(); i++) {
            BadRecordException v = batch.violation(rows.get(i));
            if (v != null) {
                String message = "delta sink " + name + ": record " + tp + "@" + r.kafkaOffset()
                        + (rows.size() == 1 ? "" : ", row " + (i + 1) + ",") + " " + v.reason() + " of table " + config.tablePath();
                setAside(r, message, "Fix the producer or the constraint (ALTER TABLE ... DROP CONSTRAINT " + v.field() + ")");
                return List.of();
            }
        }
        return rows;
    }

    /** A bad record to Connect's errant record reporter (errors.tolerance, the dead letter queue); without one, the task stops naming it. */
    private void setAside(SinkRecord r, String message, String fix) {
        if (reporter != null) {
            reporter.report(r, new ConnectException(message));
            return;
        }
        throw new ConnectException(message + ". " + fix + ", or let Connect set bad records aside (errors.tolerance all, "
                + "errors.deadletterqueue.topic.name)");
    }

    /** A new batch; once more if another task created the table just then. */
    private PartitionSink.Batch begin() {
        try {
            try {
                return sink.begin();
            } catch (StaleBatchException e) {
                return sink.begin();
            }
        } catch (StaleBatchException e) {
            throw e;
        } catch (TributaryException e) { // a CHECK constraint of the table that cannot be checked on the rows
            throw new ConnectException("delta sink " + name + ": " + e.getMessage(), e);
        }
    }

    /** Upsert: a tombstone deletes the key its record key names; a key that is none is a bad record. */
    private void delete(SinkRecord r, TopicPartition tp) {
        try {
            byte[] key = RecordRows.keyBytes(r);
            if (key == null) {
                throw ConnectErrors.noValueNorKey(name, tp, r.kafkaOffset());
            }
            batch.delete(tp, r.kafkaOffset(), key);
        } catch (TributaryException e) {
            if (reporter != null) {
                reporter.report(r, new ConnectException(e.getMessage()));
                return;
            }
            throw new ConnectException(e.getMessage() + " (or let Connect set bad records aside: errors.tolerance all, "
                    + "errors.deadletterqueue.topic.name)", e);
        }
    }

    private boolean due() {
        if (System.currentTimeMillis() - batchStartMs >= config.allowedLatency().toMillis()) {
            return true;
        }
        double ratio = outputPerInputByte > 0 ? outputPerInputByte : 0.25;
        return batchInputBytes * ratio >= config.targetFileSize();
    }

    /** Commits the open batch; a stale one is dropped and its partitions read again from the table's offsets. */
    private void commitBatch() {
        if (batch == null) {
            return;
        }
        Map<TopicPartition, Long> from = new LinkedHashMap<>(batchFrom);
        Map<TopicPartition, Long> to = new LinkedHashMap<>();
        from.keySet().forEach(tp -> to.put(tp, next.get(tp)));
        long rows = batch.rows();
        try {
            long version = batch.commit(from, to);
            committed.putAll(to);
            lastVersion = version;
            metrics.output(rows);
            LOG.info("delta sink {}: version {} of {}: {} rows, offsets {}", name, version, config.tablePath(), rows, to);
        } catch (StaleBatchException e) {
            LOG.warn("delta sink {}: batch of {} rows not committed: {}", name, rows, e.getMessage());
            rewind(from.keySet());
        } catch (RuntimeException e) {
            rewind(from.keySet()); // nothing of the batch is in the table (or, after an unknown outcome, the table says what is)
            throw new ConnectException("delta sink " + name + ": " + e.getMessage(), e);
        } finally {
            batch = null;
            batchFrom.clear();
            batchInputBytes = 0;
            joinsFresh = false;
        }
    }

    /** Reads {@code partitions} again from the table's offsets (where the consumer goes before its next poll). */
    private void rewind(Collection<TopicPartition> partitions) {
        Map<TopicPartition, Long> offsets = PartitionSink.offsets(config.tablePath(), config.storage(), partitions);
        offsets.keySet().retainAll(next.keySet());
        next.putAll(offsets);
        committed.putAll(offsets);
        context.offset(offsets);
    }

    /** Commits what the task holds, then tells Connect the table's offsets: the group's offsets only mirror the table. */
    @Override
    public Map<TopicPartition, OffsetAndMetadata> preCommit(Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
        commitBatch();
        Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>();
        committed.forEach((tp, offset) -> {
            if (currentOffsets.containsKey(tp)) {
                out.put(tp, new OffsetAndMetadata(offset));
            }
        });
        return out;
    }

    /**
     * Partitions taken away. After a revocation Connect called {@link #preCommit} first, so nothing of
     * them is pending; after a loss (the task was cut off from the group) the open batch is dropped
     * and its other partitions are read again from the table.
     */
    @Override
    public void close(Collection<TopicPartition> partitions) {
        if (batch != null && partitions.stream().anyMatch(batchFrom::containsKey)) {
            Map<TopicPartition, Long> from = new LinkedHashMap<>(batchFrom);
            batch.close();
            batch = null;
            batchFrom.clear();
            batchInputBytes = 0;
            joinsFresh = false;
            from.keySet().removeAll(partitions);
            from.forEach(next::put);
            context.offset(from);
        }
        partitions.forEach(tp -> {
            next.remove(tp);
            committed.remove(tp);
        });
    }

    @Override
    public void stop() {
        if (batch != null) {
            batch.close();
            batch = null;
        }
    }
}
