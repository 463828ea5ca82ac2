package io.tributary.connect;

import io.tributary.connect.internal.ConfigValues;
import io.tributary.schema.Schema;
import io.tributary.schema.Timestamps;
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

    public static final ConfigDef DEF = new ConfigDef()
            .define(PATH, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(), Importance.HIGH,
                    "the Delta table's folder (a path every worker reaches, or a URI such as s3a://...); created on the first commit")
            .define(SCHEMA, Type.STRING, null, ConfigValues.by(Schema::parse), Importance.HIGH,
                    "the rows' schema as a Spark DDL string; default: the table's, else the one the file source connector's "
                            + "records carry (header tributary.schema)")
            .define(MODE, Type.STRING, "append", ConfigDef.CaseInsensitiveValidString.in("append"), Importance.MEDIUM,
                    "append every row (the connector's one mode; MERGE by key is tributary run's sink.delta.mode upsert)")
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

    public ZoneId timeZone() {
        return Timestamps.sessionZone(getString(TIME_ZONE), TIME_ZONE);
    }
}
