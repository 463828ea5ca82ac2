package io.tributary.connect;

import io.tributary.connect.internal.ConfigValues;
import io.tributary.schema.Schema;
import io.tributary.schema.Timestamps;
import io.tributary.sink.PartitionSink;
import io.tributary.sink.SinkConfig;
import io.tributary.storage.Storage;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * The {@link DeltaSinkConnector}'s settings: the keys of the pipeline spec's {@code sink.delta.*}
 * with {@code delta.} kept on the table's path ({@code delta.path}); Connect's own {@code topics}
 * names what is read. A bad value is refused by the worker's REST API with the key named.
 */
public final class DeltaSinkConfig extends AbstractConfig {
    public static final String PATH = "delta.path";
    public static final String SCHEMA = "schema";
    public static final String MODE = "mode";
    public static final String PARTITION_BY = "partitionBy";
    public static final String TARGET_FILE_SIZE = "targetFileSize";
    public static final String ALLOWED_LATENCY = "allowedLatency";
    public static final String TIME_ZONE = "timeZone";
    public static final String KEYS = "keys";
    public static final String ORDER = "order";
    public static final String ROWS_PER_FILE = "rowsPerFile";
    public static final String ALLOW_NON_EMPTY_PATH = "allowNonEmptyPath";

    public static final ConfigDef DEF = new ConfigDef()
            .define(PATH, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(), Importance.HIGH,
                    "the Delta table's folder (a path every worker reaches, or a URI such as s3a://...); created on the first commit")
            .define(SCHEMA, Type.STRING, null, ConfigValues.by(Schema::parse), Importance.HIGH,
                    "the rows' schema as a Spark DDL string; default: the table's, else the one the file source connector's "
                            + "records carry (header tributary.schema)")
            .define(MODE, Type.STRING, "append", ConfigDef.CaseInsensitiveValidString.in("append", "upsert"), Importance.MEDIUM,
                    "append every row, or upsert: MERGE by keys (a row replaces the key's row or inserts it, a tombstone "
                            + "keyed [key values] deletes it); records of one key must be in one topic partition")
            .define(KEYS, Type.LIST, List.of(), Importance.MEDIUM,
                    "mode upsert: the columns that identify a row, e.g. id (required there)")
            .define(ORDER, Type.STRING, null, Importance.LOW,
                    "mode upsert: the column whose largest value wins among rows of one key in a batch; default: the last record")
            .define(ROWS_PER_FILE, Type.INT, SinkConfig.DEFAULT_ROWS_PER_FILE, ConfigDef.Range.atLeast(1), Importance.LOW,
                    "mode upsert: at most this many rows per Parquet file written, sorted by key, so a batch rewrites few rows")
            .define(ALLOW_NON_EMPTY_PATH, Type.BOOLEAN, false, Importance.LOW,
                    "create the table in a folder that holds other files but no Delta table (they stay); false: such a folder is refused")
            .define(PARTITION_BY, Type.LIST, List.of(), Importance.LOW,
                    "partition columns, set when the table is created: a column, or a day of an event time, e.g. date(ts) as day")
            .define(TARGET_FILE_SIZE, Type.STRING, "128m", ConfigValues.by(v -> ConfigValues.bytes(TARGET_FILE_SIZE, v)), Importance.LOW,
                    "the size of the Parquet files written; a task commits once its rows make about this much")
            .define(ALLOWED_LATENCY, Type.STRING, "10 seconds", ConfigValues.by(v -> ConfigValues.duration(ALLOWED_LATENCY, v)),
                    Importance.MEDIUM, "a task commits its rows at the latest this long after the first of them arrived "
                            + "(and at each of the worker's offset commits), so a slow topic does not write tiny files")
            .define(TIME_ZONE, Type.STRING, "UTC", ConfigValues.by(v -> Timestamps.sessionZone(v, TIME_ZONE)), Importance.LOW,
                    "the zone of a TIMESTAMP written without an offset (Spark's spark.sql.session.timeZone)");

    public DeltaSinkConfig(Map<String, String> props) {
        super(DEF, props);
    }

    public String tablePath() {
        return getString(PATH);
    }

    /** The {@code storage.}-prefixed keys, without the prefix: the table's file-system settings, as a spec's {@code storage:} map. */
    public Storage storage() {
        return ConfigValues.storage(originalsStrings());
    }

    /** The configured schema, or null when the table or the records give it. */
    public Schema schema() {
        String s = getString(SCHEMA);
        return s == null ? null : Schema.parse(s);
    }

    public List<String> partitionBy() {
        return getList(PARTITION_BY);
    }

    public long targetFileSize() {
        return ConfigValues.bytes(TARGET_FILE_SIZE, getString(TARGET_FILE_SIZE));
    }

    public Duration allowedLatency() {
        return ConfigValues.duration(ALLOWED_LATENCY, getString(ALLOWED_LATENCY));
    }

    /** True in mode upsert. */
    public boolean upsert() {
        return "upsert".equalsIgnoreCase(getString(MODE).trim());
    }

    /** Mode upsert's keys for the stage's {@link PartitionSink}; null in mode append. */
    public PartitionSink.Keys keys() {
        if (!upsert()) {
            return null;
        }
        String order = getString(ORDER);
        return new PartitionSink.Keys(getList(KEYS), order == null || order.isBlank() ? null : order.trim(), getInt(ROWS_PER_FILE));
    }

    public boolean allowNonEmptyPath() {
        return getBoolean(ALLOW_NON_EMPTY_PATH);
    }

    /**
     * The keys together, as the service checks a spec's sink.delta.keys and order: per key, the
     * problems of this config (empty when there is none).
     */
    public Map<String, String> problems() {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        List<String> keys = getList(KEYS);
        String order = getString(ORDER);
        if (upsert() && keys.isEmpty()) {
            out.put(KEYS, "keys is empty, but mode is upsert: an upsert needs the columns that identify a row; set keys, e.g. \"id\", "
                    + "or use mode append");
        }
        if (!upsert() && !keys.isEmpty()) {
            out.put(KEYS, "keys " + keys + " is set, but mode is append, which writes every row and ignores keys; set mode upsert "
                    + "to MERGE by these keys, or remove keys");
        }
        if (!upsert() && order != null && !order.isBlank()) {
            out.put(ORDER, "order only chooses among rows of one key in mode upsert: remove it or set mode upsert");
        }
        if (upsert() && getList(PARTITION_BY).stream().anyMatch(c -> c.toLowerCase(java.util.Locale.ROOT).contains(" as "))) {
            out.put(PARTITION_BY, "partitionBy " + getList(PARTITION_BY) + " derives a column, which only mode append supports yet "
                    + "(mode upsert rewrites rows without computing it); partition by a plain column, or use mode append");
        }
        Schema schema = schema();
        if (schema != null) {
            for (String k : keys) {
                if (schema.indexOf(k) < 0) {
                    out.put(KEYS, "keys names column '" + k + "', which is not in the schema " + schema.toDdl() + "; use columns of it");
                }
            }
            if (order != null && !order.isBlank() && schema.indexOf(order.trim()) < 0) {
                out.put(ORDER, "order names column '" + order + "', which is not in the schema " + schema.toDdl());
            }
        }
        return out;
    }

    public ZoneId timeZone() {
        return Timestamps.sessionZone(getString(TIME_ZONE), TIME_ZONE);
    }
}
