package io.tributary.kafka;

import io.tributary.schema.Schema;
import io.tributary.settings.Setting;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A Kafka source's settings under their own names, as Spark's Kafka source names its options; a
 * spec writes them under {@code source.kafka.}: topics someone else writes, read by the Delta sink
 * directly (no copy into a topic of the pipeline's), each batch committed to the table with the
 * topics' offsets, exactly once.
 */
public final class KafkaSourceSettings {
    public static final Setting<List<String>> TOPICS = Setting.list("topics", "a Kafka source: the topics whose records are the rows"
            + " (Spark's readStream.format(\"kafka\").option(\"subscribe\", \"a,b\")), on the cluster of kafka.bootstrap.servers;"
            + " or topicPattern");
    public static final Setting<Pattern> TOPIC_PATTERN = Setting.custom("topicPattern", Setting.Kind.STRING,
            KafkaSourceSettings::pattern, "a Kafka source: a Java regular expression; every topic whose whole name matches it when a"
                    + " batch starts is read (Spark's subscribePattern), a topic created later from its earliest offset; or topics");
    public static final Setting<Schema> SCHEMA = Setting.custom("schema", Setting.Kind.STRING, KafkaSourceSettings::ddl,
            "a Kafka source's schema as a Spark DDL string: each record's value is a JSON object of these columns (or JSON lines of"
                    + " them), as Spark's from_json(CAST(value AS STRING), schema); format json, or debezium-json: the columns of the events' before and"
                    + " after (a VARIANT column parse_json of a JSON column's text); format json without it: inferred from the records as the file source infers JSON (the table's columns"
                    + " once it exists)");
    public static final Setting<String> FORMAT = Setting.oneOf("format", "the records' format: json (a JSON object per record, or"
            + " JSON lines, of the schema's columns), avro (Spark's from_avro: avroSchema, avroSchemaFile or schemaRegistry.url),"
            + " protobuf (Spark's from_protobuf: protobufDescriptorFile and protobufMessage, and schemaRegistry.url if any), string (one"
            + " column value STRING, the value as UTF-8 text) or bytes (Spark's Kafka source columns: key and value BINARY, topic,"
            + " partition, offset, timestamp, timestampType) or debezium-json (each value one of Debezium's JSON change events: the"
            + " schema's columns plus op and lsn; docs/cdc.md) or debezium-avro (Debezium's change events written by Confluent's"
            + " Avro converter, through schemaRegistry.url: the envelope's row columns plus op and lsn)", "json", "avro", "protobuf",
            "string", "bytes", "debezium-json", "debezium-avro")
            .withDefault("json");
    public static final Setting<List<String>> DEBEZIUM_SEQUENCE = DebeziumSequenceSetting.SEQUENCE;
    public static final Setting<String> AVRO_SCHEMA = Setting.string("avroSchema", "format avro: the values' Avro schema as JSON"
            + " (Spark's from_avro jsonFormatSchema); a record's fields become the columns, typed as Spark's Avro mapping does;"
            + " with schemaRegistry.url, each record's own schema is read as this one (Avro's schema resolution)");
    public static final Setting<String> AVRO_SCHEMA_FILE = Setting.file("avroSchemaFile", "format avro: a file holding the Avro"
            + " schema (.avsc), instead of avroSchema");
    public static final Setting<String> PROTOBUF_DESCRIPTOR_FILE = Setting.file("protobufDescriptorFile", "format protobuf: a"
            + " FileDescriptorSet (protoc --include_imports --descriptor_set_out=FILE) holding protobufMessage (Spark's"
            + " from_protobuf descFilePath)");
    public static final Setting<String> PROTOBUF_MESSAGE = Setting.string("protobufMessage", "format protobuf: the message each"
            + " value is, by its name or full name (Spark's from_protobuf messageName); its fields become the columns; with"
            + " schemaRegistry.url and no protobufDescriptorFile, default the first message of the subject's .proto");
    public static final Setting<String> SCHEMA_REGISTRY_URL = Setting.string("schemaRegistry.url", "avro, protobuf or debezium-avro: a schema"
            + " registry's URL (Confluent's REST API, or a registry's Confluent-compatible one); each value is in Confluent's wire"
            + " format (a 0 byte, the 4-byte schema id, for protobuf the message indexes, then the value), its schema fetched by"
            + " id and kept");
    public static final Setting<String> SCHEMA_REGISTRY_SUBJECT = Setting.string("schemaRegistry.subject", "with"
            + " schemaRegistry.url and no avroSchema (or no protobufDescriptorFile): the subject whose latest version, when the run"
            + " starts, gives the columns; default TOPIC-value (one topic)");
    public static final Setting<String> SCHEMA_REGISTRY_USER_INFO = Setting.string("schemaRegistry.basic.auth.user.info",
            "the schema registry's HTTP basic authentication, as user:password (Confluent's basic.auth.user.info)");
    public static final Setting<String> SCHEMA_EVOLUTION = SchemaEvolutionSetting.MODE.allowing("none", "addNewColumns",
            "failOnNewColumns", "rescue").withDefault("none").withDoc("format json, or avro with schemaRegistry.url: a JSON value with fields"
            + " the schema lacks, or a record whose schema id names a schema with fields the source's schema lacks: read without"
            + " them (none); its new fields added to the table as nullable columns, and read from then on (addNewColumns; needs"
            + " sink.delta.mergeSchema); or stop the run naming them (failOnNewColumns); format json only: kept, with the values"
            + " their column cannot take, in a _rescued_data column as JSON with the record's topic, partition and offset (rescue)");
    public static final Setting<Long> INFERENCE_RECORDS = Setting.custom("schemaInference.sampleSize.numRecords", Setting.Kind.INT,
            KafkaSourceSettings::positive, "format json without a schema: the columns are inferred from the first records of"
                    + " each run, at most this many over all partitions, up to the end offsets seen when the run starts (Auto Loader's"
                    + " schemaInference.sampleSize, counted in records)").withDefault("10000");
    public static final Setting<StartingOffsets> STARTING_OFFSETS = Setting.custom("startingOffsets", Setting.Kind.STRING,
            StartingOffsets::parse, "where a new table starts reading (Spark's startingOffsets): earliest, latest, or per partition"
                    + " as Spark writes it, {\"orders\":{\"0\":42,\"1\":-2}} (-2 earliest, -1 latest; every partition of every topic read,"
                    + " as Spark requires); afterwards the table's offsets say where reading resumes").withDefault("earliest");
    public static final Setting<Long> STARTING_TIMESTAMP = Setting.custom("startingTimestamp", Setting.Kind.INT,
            KafkaSourceSettings::nonNegative, "where a new table starts reading, instead of startingOffsets: in every partition the"
                    + " first record whose timestamp is at or after this many milliseconds since 1970-01-01 UTC (Spark's"
                    + " startingTimestamp), the partition's end where there is none");
    public static final Setting<Long> MAX_OFFSETS_PER_TRIGGER = Setting.custom("maxOffsetsPerTrigger", Setting.Kind.INT,
            KafkaSourceSettings::positive, "at most this many offsets per batch over all partitions (Spark's maxOffsetsPerTrigger),"
                    + " split across the partitions in proportion to how far each is behind; none: a batch reads to the end");
    public static final Setting<Long> MIN_OFFSETS_PER_TRIGGER = Setting.custom("minOffsetsPerTrigger", Setting.Kind.INT,
            KafkaSourceSettings::positive, "a batch waits until at least this many offsets are there over all partitions, or"
                    + " maxTriggerDelay passed since the last batch (Spark's minOffsetsPerTrigger); at most maxOffsetsPerTrigger;"
                    + " availableNow and once read all there is; none: a batch reads what is there");
    public static final Setting<java.time.Duration> MAX_TRIGGER_DELAY = Setting.duration("maxTriggerDelay", "with"
            + " minOffsetsPerTrigger: after this long since the last batch, a batch reads what is there even if it is fewer"
            + " offsets (Spark's maxTriggerDelay)").withDefault("15m");
    public static final Setting<Boolean> FAIL_ON_DATA_LOSS = Setting.bool("failOnDataLoss", "records the table had not read yet that"
            + " retention deleted (the table's offset below the partition's earliest): true stops the run naming the topic, the"
            + " partition and the gap (Spark's failOnDataLoss); false reads on from the earliest offset and counts the records lost"
            + " (numRecordsLost in the progress, and a warning)").withDefault("true");
    public static final Setting<Boolean> INCLUDE_METADATA = Setting.bool("includeMetadata", "add Spark's Kafka columns after the"
            + " value's: key BINARY, topic, partition, offset, timestamp, timestampType and headers ARRAY<STRUCT<key STRING, value"
            + " BINARY>> (format bytes: headers only, after Spark's columns)").withDefault("false");

    /** Every setting, in the order the documentation lists them. */
    public static final List<Setting<?>> ALL = List.of(TOPICS, TOPIC_PATTERN, SCHEMA, FORMAT, DEBEZIUM_SEQUENCE, AVRO_SCHEMA, AVRO_SCHEMA_FILE,
            PROTOBUF_DESCRIPTOR_FILE, PROTOBUF_MESSAGE, SCHEMA_REGISTRY_URL, SCHEMA_REGISTRY_SUBJECT, SCHEMA_REGISTRY_USER_INFO,
            SCHEMA_EVOLUTION, INFERENCE_RECORDS, STARTING_OFFSETS, STARTING_TIMESTAMP, MAX_OFFSETS_PER_TRIGGER, MIN_OFFSETS_PER_TRIGGER, MAX_TRIGGER_DELAY, FAIL_ON_DATA_LOSS,
            INCLUDE_METADATA);

    private KafkaSourceSettings() {
    }

    private static Schema ddl(String key, String text) {
        Schema schema;
        try {
            schema = Schema.parseWithVariant(text); // a JSON value's VARIANT field is its JSON's variant, as in Spark's from_json
        } catch (io.tributary.schema.TributaryException e) {
            throw KafkaErrors.badSchema(key, e);
        }
        for (io.tributary.schema.Field f : schema.fields()) {
            if (f.type().hasTypedMapKeys()) {
                throw KafkaErrors.badSetting(key, text, "column '" + f.name() + "' is " + f.type().ddl() + ": the values are read as"
                        + " Spark's from_json reads them, which takes maps of STRING keys only (DATATYPE_MISMATCH.INVALID_JSON_MAP_KEY_TYPE)");
            }
        }
        return schema;
    }

    private static Pattern pattern(String key, String text) {
        try {
            return Pattern.compile(text);
        } catch (PatternSyntaxException e) {
            throw KafkaErrors.badSetting(key, text, "not a regular expression (" + e.getDescription() + ")");
        }
    }

    private static Long nonNegative(String key, String text) {
        long v = number(key, text);
        if (v < 0) {
            throw KafkaErrors.badSetting(key, text, "a negative number");
        }
        return v;
    }

    private static Long positive(String key, String text) {
        long v = number(key, text);
        if (v <= 0) {
            throw KafkaErrors.badSetting(key, text, "not above 0");
        }
        return v;
    }

    private static long number(String key, String text) {
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw KafkaErrors.badSetting(key, text, "not a whole number");
        }
    }
}
