package io.tributary.kafka;

import io.tributary.schema.Schema;
import io.tributary.settings.Setting;
import java.util.List;

/**
 * A Kafka source's settings under their own names; a spec writes them under {@code source.kafka.}:
 * topics someone else writes, read by the Delta sink directly (no copy into a topic of the
 * pipeline's), each batch committed to the table with the topic's offsets, exactly once.
 */
public final class KafkaSourceSettings {
    public static final Setting<List<String>> TOPICS = Setting.list("topics", "a Kafka source: the topic whose records are the rows"
            + " (Spark's readStream.format(\"kafka\").option(\"subscribe\", ...)), on the cluster of kafka.bootstrap.servers; one topic");
    public static final Setting<Schema> SCHEMA = Setting.custom("schema", Setting.Kind.STRING, KafkaSourceSettings::ddl,
            "a Kafka source's schema as a Spark DDL string: each record's value is a JSON object of these columns (or JSON lines of"
                    + " them), as Spark's from_json(CAST(value AS STRING), schema)");
    public static final Setting<String> FORMAT = Setting.oneOf("format", "the records' format: json (a JSON object per record, or"
            + " JSON lines)", "json").withDefault("json");
    public static final Setting<String> STARTING_OFFSETS = Setting.oneOf("startingOffsets", "where a new table starts reading"
            + " (Spark's startingOffsets): earliest; afterwards the table's offsets say where reading resumes", "earliest")
            .withDefault("earliest");

    /** Every setting, in the order the documentation lists them. */
    public static final List<Setting<?>> ALL = List.of(TOPICS, SCHEMA, FORMAT, STARTING_OFFSETS);

    private KafkaSourceSettings() {
    }

    private static Schema ddl(String key, String text) {
        try {
            return Schema.parse(text);
        } catch (io.tributary.schema.TributaryException e) {
            throw KafkaErrors.badSchema(key, e);
        }
    }
}
