package io.tributary.service.spec;

import io.tributary.kafka.KafkaSourceSettings;
import io.tributary.kafka.StartingOffsets;
import io.tributary.service.spec.internal.SpecErrors;
import io.tributary.settings.Values;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * What a spec with a Kafka source ({@code source.kafka.*}) needs besides each value being valid:
 * settings that contradict each other are refused at start, in one line naming the keys.
 */
final class KafkaSourceChecks {
    /** The columns includeMetadata adds, as Spark's Kafka source names them. */
    private static final List<String> METADATA_COLUMNS = List.of("key", "topic", "partition", "offset", "timestamp", "timestamptype",
            "headers");
    private KafkaSourceChecks() {
    }

    /** @param where where a key's value was given, for the error */
    static void check(PipelineSpec spec, UnaryOperator<String> where) {
        boolean pattern = spec.has(Settings.KAFKA_TOPIC_PATTERN);
        if (pattern && spec.has(Settings.KAFKA_TOPICS)) {
            throw SpecErrors.kafkaSourceContradiction(where.apply(Settings.KAFKA_TOPIC_PATTERN), Settings.KAFKA_TOPICS,
                    Settings.KAFKA_TOPIC_PATTERN, "give one: the topics (Spark's subscribe) or a pattern (subscribePattern)");
        }
        String subscribedKey = pattern ? Settings.KAFKA_TOPIC_PATTERN : Settings.KAFKA_TOPICS;
        List<String> topics = pattern ? List.of() : spec.list(Settings.KAFKA_TOPICS);
        if (!pattern && topics.isEmpty()) {
            throw SpecErrors.kafkaSourceNoTopics(where.apply(Settings.KAFKA_TOPICS), Settings.KAFKA_TOPICS);
        }
        boolean json = "json".equals(spec.string(Settings.KAFKA_FORMAT));
        boolean schemaRead = json || "debezium-json".equals(spec.string(Settings.KAFKA_FORMAT));
        if (schemaRead && !spec.has(Settings.KAFKA_SCHEMA) && (!json || aggregates(spec))) {
            // JSON values without a schema are inferred as the sink opens; an aggregation's columns are needed before
            throw SpecErrors.kafkaSourceSchema(where.apply(subscribedKey), subscribedKey, Settings.KAFKA_SCHEMA);
        }
        if (!schemaRead && spec.has(Settings.KAFKA_SCHEMA)) {
            throw SpecErrors.kafkaSourceContradiction(where.apply(Settings.KAFKA_SCHEMA), Settings.KAFKA_FORMAT, Settings.KAFKA_SCHEMA,
                    "a schema reads JSON values; format " + spec.string(Settings.KAFKA_FORMAT) + " has its own columns");
        }
        checkBinaryFormats(spec, where, subscribedKey, topics);
        if (json && spec.has(Settings.KAFKA_SCHEMA) && spec.bool(Settings.KAFKA_INCLUDE_METADATA)) {
            Values v = spec.values(Settings.KAFKA_SOURCE, KafkaSourceSettings.ALL);
            for (io.tributary.schema.Field f : v.get(KafkaSourceSettings.SCHEMA).fields()) {
                if (METADATA_COLUMNS.contains(f.name().toLowerCase(java.util.Locale.ROOT))) {
                    throw SpecErrors.kafkaSourceContradiction(where.apply(Settings.KAFKA_INCLUDE_METADATA), Settings.KAFKA_SCHEMA,
                            Settings.KAFKA_INCLUDE_METADATA, "the schema's column " + f.name() + " is also one of the Kafka columns "
                                    + METADATA_COLUMNS + " includeMetadata adds; rename it in the schema");
                }
            }
        }
        if (spec.has(Settings.KAFKA_STARTING_OFFSETS) && spec.has(Settings.KAFKA_STARTING_TIMESTAMP)) {
            throw SpecErrors.kafkaSourceContradiction(where.apply(Settings.KAFKA_STARTING_TIMESTAMP), Settings.KAFKA_STARTING_OFFSETS,
                    Settings.KAFKA_STARTING_TIMESTAMP, "give one: where a new table starts, by offsets or by time");
        }
        Values values = spec.values(Settings.KAFKA_SOURCE, KafkaSourceSettings.ALL);
        StartingOffsets starting = values.get(KafkaSourceSettings.STARTING_OFFSETS);
        for (String topic : starting.offsets().keySet()) {
            boolean read = pattern ? values.get(KafkaSourceSettings.TOPIC_PATTERN).matcher(topic).matches() : topics.contains(topic);
            if (!read) {
                throw SpecErrors.kafkaSourceOffsetsTopic(where.apply(Settings.KAFKA_STARTING_OFFSETS), Settings.KAFKA_STARTING_OFFSETS,
                        topic, subscribedKey, pattern ? spec.string(Settings.KAFKA_TOPIC_PATTERN) : topics);
            }
        }
        checkAggregation(spec, where);
    }

    /**
     * An aggregation or dropDuplicates over a Kafka source: schemaEvolution addNewColumns is refused, naming the key
     * (its columns are fixed when it starts).
     */
    private static void checkAggregation(PipelineSpec spec, UnaryOperator<String> where) {
        String aggregating = null;
        for (io.tributary.settings.Setting<?> s : Settings.ALL) {
            if (s.key().startsWith(Settings.AGGREGATE + ".") && !s.key().equals(Settings.STANDBY_REPLICAS)
                    && (spec.has(s.key()) || s.isPrefix() && !spec.map(s.key()).isEmpty())) {
                aggregating = s.key();
            }
        }
        for (String key : Settings.TRANSFORM_DEDUP) {
            if (aggregating == null && spec.has(key)) {
                aggregating = key;
            }
        }
        if (aggregating == null) {
            return;
        }
        if (spec.has(Settings.KAFKA_SCHEMA_EVOLUTION) && "addNewColumns".equalsIgnoreCase(spec.string(Settings.KAFKA_SCHEMA_EVOLUTION))) {
            // the aggregation's columns are fixed when it starts
            throw SpecErrors.kafkaSourceAggregation(where.apply(Settings.KAFKA_SCHEMA_EVOLUTION), Settings.KAFKA_SCHEMA_EVOLUTION, aggregating);
        }
    }

    /** Avro and Protobuf: where the values' schema comes from, given once; their settings with their format only. */
    private static void checkBinaryFormats(PipelineSpec spec, UnaryOperator<String> where, String subscribedKey, List<String> topics) {
        String format = spec.string(Settings.KAFKA_FORMAT).toLowerCase(java.util.Locale.ROOT);
        List<String> avroKeys = List.of(Settings.KAFKA_AVRO_SCHEMA, Settings.KAFKA_AVRO_SCHEMA_FILE);
        List<String> protobufKeys = List.of(Settings.KAFKA_PROTOBUF_DESCRIPTOR_FILE, Settings.KAFKA_PROTOBUF_MESSAGE);
        for (String key : format.equals("avro") ? protobufKeys : format.equals("protobuf") ? avroKeys
                : java.util.stream.Stream.concat(avroKeys.stream(), protobufKeys.stream()).toList()) {
            if (spec.has(key)) {
                throw SpecErrors.kafkaSourceContradiction(where.apply(key), Settings.KAFKA_FORMAT, key,
                        "format " + format + " does not read " + (avroKeys.contains(key) ? "Avro" : "Protobuf") + " values");
            }
        }
        boolean registry = spec.has(Settings.KAFKA_SCHEMA_REGISTRY_URL);
        if (registry && !format.equals("avro") && !format.equals("protobuf") && !format.equals("debezium-avro")) {
            throw SpecErrors.kafkaSourceContradiction(where.apply(Settings.KAFKA_SCHEMA_REGISTRY_URL), Settings.KAFKA_FORMAT,
                    Settings.KAFKA_SCHEMA_REGISTRY_URL, "a schema registry serves Avro or Protobuf values, not format " + format);
        }
        if (format.equals("debezium-avro") && !registry) {
            throw SpecErrors.kafkaSourceNeeds(where.apply(subscribedKey), "format debezium-avro", Settings.KAFKA_SCHEMA_REGISTRY_URL);
        }
        if (format.equals("debezium-avro") && topics.size() != 1 && !spec.has(Settings.KAFKA_SCHEMA_REGISTRY_SUBJECT)) {
            throw SpecErrors.kafkaSourceNeeds(where.apply(Settings.KAFKA_SCHEMA_REGISTRY_URL), "a schema registry read for"
                    + " several topics or a pattern", Settings.KAFKA_SCHEMA_REGISTRY_SUBJECT);
        }
        if (format.equals("avro")) {
            if (spec.has(Settings.KAFKA_AVRO_SCHEMA) && spec.has(Settings.KAFKA_AVRO_SCHEMA_FILE)) {
                throw SpecErrors.kafkaSourceContradiction(where.apply(Settings.KAFKA_AVRO_SCHEMA_FILE), Settings.KAFKA_AVRO_SCHEMA,
                        Settings.KAFKA_AVRO_SCHEMA_FILE, "give the Avro schema once");
            }
            boolean schema = spec.has(Settings.KAFKA_AVRO_SCHEMA) || spec.has(Settings.KAFKA_AVRO_SCHEMA_FILE);
            if (!schema && !registry) {
                throw SpecErrors.kafkaSourceNeeds(where.apply(subscribedKey), "format avro", Settings.KAFKA_AVRO_SCHEMA + ", "
                        + Settings.KAFKA_AVRO_SCHEMA_FILE + " or " + Settings.KAFKA_SCHEMA_REGISTRY_URL);
            }
            if (!schema && topics.size() != 1 && !spec.has(Settings.KAFKA_SCHEMA_REGISTRY_SUBJECT)) {
                throw SpecErrors.kafkaSourceNeeds(where.apply(Settings.KAFKA_SCHEMA_REGISTRY_URL), "a schema registry read for"
                        + " several topics or a pattern", Settings.KAFKA_SCHEMA_REGISTRY_SUBJECT + " or " + Settings.KAFKA_AVRO_SCHEMA);
            }
        }
        if (format.equals("protobuf")) {
            if (!registry || spec.has(Settings.KAFKA_PROTOBUF_DESCRIPTOR_FILE)) { // with a registry alone, its .proto gives the message
                for (String key : protobufKeys) {
                    if (!spec.has(key)) {
                        throw SpecErrors.kafkaSourceNeeds(where.apply(subscribedKey), "format protobuf", key
                                + (registry ? "" : " (or " + Settings.KAFKA_SCHEMA_REGISTRY_URL + ")"));
                    }
                }
            } else if (topics.size() != 1 && !spec.has(Settings.KAFKA_SCHEMA_REGISTRY_SUBJECT)) {
                throw SpecErrors.kafkaSourceNeeds(where.apply(Settings.KAFKA_SCHEMA_REGISTRY_URL), "a schema registry read for"
                        + " several topics or a pattern", Settings.KAFKA_SCHEMA_REGISTRY_SUBJECT + " or "
                        + Settings.KAFKA_PROTOBUF_DESCRIPTOR_FILE);
            }
        }
    }

    /** True when an aggregation or dropDuplicates reads the Kafka source. */
    private static boolean aggregates(PipelineSpec spec) {
        for (io.tributary.settings.Setting<?> s : Settings.ALL) {
            if (s.key().startsWith(Settings.AGGREGATE + ".") && !s.key().equals(Settings.STANDBY_REPLICAS)
                    && (spec.has(s.key()) || s.isPrefix() && !spec.map(s.key()).isEmpty())) {
                return true;
            }
        }
        return Settings.TRANSFORM_DEDUP.stream().anyMatch(spec::has);
    }
}
