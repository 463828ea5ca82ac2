package io.tributary.connect;

import io.tributary.connect.internal.ConnectSettings;
import io.tributary.connect.internal.TransformKeys;
import io.tributary.expressions.RowTransform;
import io.tributary.ingest.TransformSettings;
import io.tributary.ingest.IngestSettings;
import io.tributary.settings.Setting;
import io.tributary.settings.Values;
import io.tributary.sink.SinkChanges;
import io.tributary.sink.SinkChecks;
import io.tributary.sink.SinkMode;
import io.tributary.sink.SinkSettings;
import io.tributary.schema.Schema;
import io.tributary.sink.PartitionSink;
import io.tributary.storage.Storage;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * The {@link DeltaSinkConnector}'s settings: the keys of the pipeline spec's {@code sink.delta.*}
 * with {@code delta.} kept on the table's path ({@code delta.path}); Connect's own {@code topics}
 * names what is read. A bad value is refused by the worker's REST API with the key named.
 */
public final class DeltaSinkConfig extends AbstractConfig {
    private static final Setting<String> PATH = SinkSettings.PATH.named("delta.path").withDoc("the Delta table's folder (a path every"
            + " worker reaches, or a URI such as s3a://...); created on the first commit");
    private static final Setting<Schema> SCHEMA = Setting.custom("schema", Setting.Kind.STRING, (k, v) -> Schema.parseWithVariant(v),
            "the rows' schema as a Spark DDL string; default: the table's, else the one the file source connector's records carry"
                    + " (header tributary.schema)");
    private static final Setting<String> MODE = SinkSettings.MODE.withDoc("append every row, or upsert: MERGE by keys (a row"
            + " replaces the key's row or inserts it, a tombstone keyed [key values] deletes it); records of one key must be in one"
            + " topic partition");
    private static final Setting<List<String>> KEYS = SinkSettings.KEYS.withDoc("mode upsert: the columns that identify a row, e.g. id (required there)");
    private static final Setting<String> ORDER = SinkSettings.ORDER.withDoc(
            "mode upsert: the column whose largest value wins among rows of one key in a batch; default: the last record");
    private static final Setting<String> SEQUENCE_BY = SinkSettings.SEQUENCE_BY;
    private static final Setting<String> DELETE_WHEN = SinkSettings.DELETE_WHEN;
    private static final Setting<List<String>> EXCEPT_COLUMNS = SinkSettings.EXCEPT_COLUMNS.withDoc("mode upsert: columns of the"
            + " rows not stored in the table (AUTO CDC's COLUMNS * EXCEPT), e.g. [op]; not the keys nor sequenceBy; needs schema,"
            + " as the table's lacks them");
    private static final Setting<java.time.Duration> DELETE_RETENTION = SinkSettings.DELETE_RETENTION;
    private static final Setting<Boolean> HISTORY = SinkSettings.HISTORY;
    private static final Setting<List<String>> TRACK_HISTORY_COLUMNS = SinkSettings.TRACK_HISTORY_COLUMNS;
    private static final Setting<List<String>> TRACK_HISTORY_EXCEPT_COLUMNS = SinkSettings.TRACK_HISTORY_EXCEPT_COLUMNS;
    /** Spark's dropDuplicates(keys), a pipeline's transform.dropDuplicates.keys, kept by the table (the connector's own). */
    private static final Setting<List<String>> DROP_DUPLICATES_KEYS = Setting.list("dropDuplicates.keys", "mode append: Spark's"
            + " dropDuplicates(keys): a row whose key columns the table already holds, or that an earlier record of the batch had, is"
            + " dropped; the table keeps each key's first row, and is what the tasks look the keys up in, so restarts and rebalances"
            + " forget nothing; the first row is the first the tasks commit, Kafka's order when a key's"
            + " records are in one topic partition");
    private static final Setting<Duration> DROP_DUPLICATES_WITHIN_WATERMARK = Setting.duration("dropDuplicates.withinWatermark",
            "refused: Spark's dropDuplicatesWithinWatermark needs an event time and a watermark, which this connector does not"
                    + " keep; dropDuplicates.keys drops a key's later rows for good, as Spark's dropDuplicates without a watermark");
    private static final Setting<List<String>> PARTITION_BY = SinkSettings.PARTITION_BY.withDoc(
            "partition columns, set when the table is created: a column, or a day of an event time, e.g. date(ts) as day");
    private static final Setting<Long> TARGET_FILE_SIZE = SinkSettings.TARGET_FILE_SIZE.withDoc(
            "the size of the Parquet files written; a task commits once its rows make about this much");
    private static final Setting<Duration> ALLOWED_LATENCY = SinkSettings.ALLOWED_LATENCY.withDefault("10 seconds").withDoc(
            "a task commits its rows at the latest this long after the first of them arrived (and at each of the worker's offset"
                    + " commits), so a slow topic does not write tiny files");
    private static final Setting<ZoneId> TIME_ZONE = IngestSettings.TIME_ZONE.withDoc(
            "the zone of a TIMESTAMP written without an offset (Spark's spark.sql.session.timeZone)");
    private static final Setting<Integer> ROWS_PER_FILE = SinkSettings.ROWS_PER_FILE;
    private static final Setting<Boolean> ALLOW_NON_EMPTY_PATH = SinkSettings.ALLOW_NON_EMPTY_PATH.withDoc("create the table in a"
            + " folder that holds other files but no Delta table (they stay); false: such a folder is refused");

    /** Spark's stream-static join, where and selectExpr over each record's rows before they are written, by the stage's names. */
    private static final List<Setting<?>> TRANSFORM = java.util.stream.Stream.concat(java.util.stream.Stream.of(
            TransformSettings.JOIN.withDoc("Spark's stream-static joins with Delta tables, applied to each record's rows before where"
                    + " and select: join.table (a path every worker reaches, or a URI), join.as (the alias), join.on (e.g. \"user ="
                    + " u.user\") and join.type (inner, left, left_semi or left_anti; default inner); several as join.0.table,"
                    + " join.1.table ...; each table is read again at a batch's start when it has a new version"),
            TransformSettings.WHERE.withDoc("Spark's filter/where: a Spark SQL boolean expression over the record's row; only the rows"
                    + " where it is true are written; a row it fails on is a bad record (errors.tolerance)"),
            TransformSettings.SELECT.withDoc("Spark's selectExpr: the table's columns, comma separated, each *, a column or"
                    + " \"expression AS name\"; applied after where; a row it fails on is a bad record (errors.tolerance)"),
            TransformSettings.LATERAL_VIEW.withDoc("Spark's LATERAL VIEW over each record's rows, applied after join and before where:"
                    + " lateralView.generator (a generator call, e.g. \"explode(tags)\"), lateralView.as (the view's name),"
                    + " lateralView.columns (its columns, comma separated; default the generator's own names) and lateralView.outer (true"
                    + " keeps a row the generator makes none of, with nulls; default false); several as lateralView.0.generator ..."),
            TransformSettings.SQL.withDoc("the transform as one Spark SQL query instead of join, where and select: SELECT ... FROM"
                    + " source [s] [JOIN, LEFT JOIN, LEFT SEMI JOIN or LEFT ANTI JOIN delta.`path` u ON ...] [WHERE ...], over the record's rows;"
                    + " no GROUP BY (the connector runs no aggregation); a row it fails on is a bad record (errors.tolerance)")), TransformKeys.COLUMN_STEPS.stream()).toList();

    /** Every setting: the sink's own under this connector's names, the schema and the zone of its records, the transform. */
    private static final List<Setting<?>> ALL = java.util.stream.Stream.concat(java.util.stream.Stream.of(PATH, SCHEMA, MODE, KEYS,
            ORDER, SEQUENCE_BY, DELETE_WHEN, EXCEPT_COLUMNS, DELETE_RETENTION, HISTORY, TRACK_HISTORY_COLUMNS,
            TRACK_HISTORY_EXCEPT_COLUMNS, DROP_DUPLICATES_KEYS, DROP_DUPLICATES_WITHIN_WATERMARK, ROWS_PER_FILE, ALLOW_NON_EMPTY_PATH,
            PARTITION_BY, TARGET_FILE_SIZE, ALLOWED_LATENCY, TIME_ZONE), TRANSFORM.stream()).toList();

    public static final ConfigDef DEF = ConnectSettings.configDef(ALL);

    private final Values values;

    public DeltaSinkConfig(Map<String, String> props) {
        super(DEF, props);
        Map<String, Setting<?>> placed = ConnectSettings.byKey(ALL);
        placed.remove(PATH.key());
        placed.put(SinkSettings.PATH.key(), PATH);
        this.values = ConnectSettings.values(placed, originalsStrings());
    }

    public String tablePath() {
        return values.get(SinkSettings.PATH);
    }

    /** The {@code storage.}-prefixed keys, without the prefix: the table's file-system settings, as a spec's {@code storage:} map. */
    public Storage storage() {
        return ConnectSettings.storage(originalsStrings());
    }

    /** The configured schema, or null when the table or the records give it. */
    public Schema schema() {
        return values.get(SCHEMA);
    }

    /** True when the rows are transformed before they are written: sql, where, select or join. */
    public boolean transforms() {
        return TransformKeys.given(values);
    }

    /**
     * The transform over the records' rows of {@code input} (the table gets its output's columns), or null when none is given.
     *
     * @throws ConfigException on the key at fault: an expression over no column, a join table that is not there, sql with GROUP BY
     */
    public RowTransform transform(Schema input) {
        if (!transforms()) {
            return null;
        }
        ConfigException problem = TransformKeys.problem(values, originalsStrings(), "Delta sink connector");
        if (problem != null) {
            throw problem;
        }
        return TransformKeys.compile(values, input, storage(), TRANSFORM.stream().map(Setting::key).toList(),
                TransformSettings.SQL.key(), originalsStrings());
    }

    /** The rows written to the table: the schema, or the transform's output over it; null when the schema is not given. */
    private Schema rowsSchema() {
        ConfigException problem = TransformKeys.problem(values, originalsStrings(), "Delta sink connector");
        if (problem != null) {
            throw problem; // without schema too
        }
        Schema schema = schema();
        return schema == null || !transforms() ? schema : transform(schema).output();
    }

    public List<String> partitionBy() {
        return list(PARTITION_BY);
    }

    public long targetFileSize() {
        return values.get(TARGET_FILE_SIZE);
    }

    public Duration allowedLatency() {
        return values.get(ALLOWED_LATENCY);
    }

    /** True in mode upsert. */
    public boolean upsert() {
        return "upsert".equals(values.get(MODE));
    }

    /** Mode upsert's keys for the stage's {@link PartitionSink}, or dropDuplicates' in mode append; null in mode append without. */
    public PartitionSink.Keys keys() {
        if (!upsert()) {
            return dropDuplicates() ? PartitionSink.Keys.dropDuplicates(list(DROP_DUPLICATES_KEYS), values.get(ROWS_PER_FILE)) : null;
        }
        String order = values.get(ORDER);
        return new PartitionSink.Keys(list(KEYS), order == null || order.isBlank() ? null : order.trim(), values.get(ROWS_PER_FILE),
                changes());
    }

    /** True when dropDuplicates.keys is given. */
    public boolean dropDuplicates() {
        return !list(DROP_DUPLICATES_KEYS).isEmpty();
    }

    /** True with history (SCD type 2). */
    public boolean history() {
        return values.get(HISTORY);
    }

    /**
     * Mode upsert's change data (sequenceBy, deleteWhen, exceptColumns, deleteRetention, history and the columns it tracks),
     * as the pipeline's sink takes them.
     */
    public SinkChanges changes() {
        return new SinkChanges(values.get(SEQUENCE_BY), values.get(DELETE_WHEN), list(EXCEPT_COLUMNS), values.get(DELETE_RETENTION),
                history(), new SinkChanges.TrackHistory(list(TRACK_HISTORY_COLUMNS), list(TRACK_HISTORY_EXCEPT_COLUMNS)));
    }

    public boolean allowNonEmptyPath() {
        return values.get(ALLOW_NON_EMPTY_PATH);
    }

    /**
     * The keys together, as the sink checks a spec's {@code sink.delta.*} ({@link SinkChecks}): per key,
     * the problems of this config (empty when there is none).
     */
    public Map<String, String> problems() {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        Schema schema;
        try {
            schema = rowsSchema();
        } catch (ConfigException e) {
            out.put(ConnectSettings.keyOf(e, ALL.stream().map(Setting::key).toList(), TransformSettings.SQL.key()), e.getMessage());
            return out;
        }
        try {
            SinkChecks.problems(schema, upsert() ? SinkMode.UPSERT : SinkMode.APPEND, list(KEYS), values.get(ORDER), partitionBy(),
                    values::name).forEach((setting, problem) -> out.put(values.name(setting), problem));
            SinkChecks.changeProblems(schema, upsert() ? SinkMode.UPSERT : SinkMode.APPEND, list(KEYS), values.get(ORDER),
                    partitionBy(), changes(), values::name).forEach((setting, problem) -> out.putIfAbsent(values.name(setting), problem));
            dropDuplicatesProblem(schema).ifPresent(p -> out.putIfAbsent(p.getKey(), p.getValue()));
            if (upsert() && !list(EXCEPT_COLUMNS).isEmpty() && schema() == null) {
                out.putIfAbsent(SCHEMA.key(), values.name(EXCEPT_COLUMNS) + " is set, but " + SCHEMA.key() + " is not: the table"
                        + " lacks the columns it names, so it cannot give the rows' schema; set " + SCHEMA.key() + " to the rows'"
                        + " Spark DDL, e.g. \"op STRING, id INT, name STRING, lsn BIGINT\"");
            }
        } catch (io.tributary.schema.TributaryException e) {
            out.put(PARTITION_BY.key(), e.getMessage()); // an entry of partitionBy that is not a column of the schema
        }
        return out;
    }

    /** What is wrong with dropDuplicates, on its key, if anything. */
    private java.util.Optional<Map.Entry<String, String>> dropDuplicatesProblem(Schema schema) {
        String keys = DROP_DUPLICATES_KEYS.key();
        if (values.get(DROP_DUPLICATES_WITHIN_WATERMARK) != null) {
            return java.util.Optional.of(Map.entry(DROP_DUPLICATES_WITHIN_WATERMARK.key(), DROP_DUPLICATES_WITHIN_WATERMARK.key()
                    + " is set, but the Delta sink connector keeps no event time nor watermark, so it cannot forget a key when the"
                    + " watermark passes it, as Spark's dropDuplicatesWithinWatermark does; remove it (" + keys + " alone drops a key's"
                    + " later rows for good, as Spark's dropDuplicates without a watermark), or run the pipeline with tributary run"));
        }
        if (!dropDuplicates()) {
            return java.util.Optional.empty();
        }
        if (upsert()) {
            return java.util.Optional.of(Map.entry(keys, keys + " is set in mode upsert, which keeps one row per key already;"
                    + " remove it, or use mode append"));
        }
        for (String k : list(DROP_DUPLICATES_KEYS)) {
            if (schema != null && schema.indexOf(k) < 0) {
                return java.util.Optional.of(Map.entry(keys, keys + " names column '" + k + "', which is not in the schema "
                        + schema.toDdl() + "; use columns of it"));
            }
        }
        if (partitionBy().stream().anyMatch(p -> p.toLowerCase(java.util.Locale.ROOT).contains(" as "))) {
            return java.util.Optional.of(Map.entry(PARTITION_BY.key(), PARTITION_BY.key() + " " + partitionBy() + " derives a column,"
                    + " which " + keys + " does not compute; partition by columns of the rows, or remove " + keys));
        }
        return java.util.Optional.empty();
    }

    public ZoneId timeZone() {
        return values.get(TIME_ZONE);
    }

    private List<String> list(Setting<List<String>> setting) {
        List<String> l = values.get(setting);
        return l == null ? List.of() : l;
    }
}
