package io.tributary.kafka;

import io.tributary.expressions.RowTransform;
import io.tributary.kafka.KafkaSourceSettings;
import io.tributary.kafka.StartingOffsets;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.RescuedData;
import io.tributary.schema.Schema;
import io.tributary.settings.Values;
import io.tributary.kafka.internal.format.ValueFormats;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What a {@link DeltaSink} reads when a pipeline's source is someone else's Kafka topics
 * ({@code source.kafka}), as Spark's Kafka source: the topics (Spark's {@code subscribe}) or a
 * pattern ({@code subscribePattern}), where a new table starts, the rate limit, what retention's
 * deletions do, and how a record becomes a row.
 *
 * @param topics the topics read; empty when {@code pattern} is given
 * @param pattern every topic whose whole name matches it when a batch starts; null when {@code topics} are given
 * @param format json, avro, protobuf, string or bytes
 * @param valueSchema format json, avro or protobuf: the columns of each record's value; else null
 * @param includeMetadata Spark's Kafka columns after the value's
 * @param startingOffsets where a new table starts, unless {@code startingTimestamp} is given
 * @param startingTimestamp ms since the epoch, or null: a new table starts at each partition's first record at or after it
 * @param maxOffsetsPerTrigger at most this many offsets per batch over all partitions; 0: no limit
 * @param failOnDataLoss offsets the table holds that retention deleted stop the run (else they are skipped and counted)
 * @param valueFormat format avro or protobuf: how a value becomes a row of {@code valueSchema}; else null
 * @param transform the pipeline's transform (joins, where, select) over {@link #rowSchema()}, applied to each row
 *                  before it is written; null: the rows as they are
 * @param schemaEvolution format json: what a value's fields the schema lacks do (none, addNewColumns, failOnNewColumns, rescue)
 * @param inferenceRecords format json without a schema: at most this many records are sampled to infer it
 * @param minOffsets Spark's minOffsetsPerTrigger and maxTriggerDelay, or null without a minimum
 */
public record KafkaSubscription(List<String> topics, Pattern pattern, String format, Schema valueSchema, boolean includeMetadata,
                                StartingOffsets startingOffsets, Long startingTimestamp, long maxOffsetsPerTrigger,
                                boolean failOnDataLoss, ValueFormat valueFormat, RowTransform transform, String schemaEvolution,
                                long inferenceRecords, MinOffsets.Limit minOffsets) {
    public KafkaSubscription {
        topics = List.copyOf(topics == null ? List.of() : topics);
    }

    /** The subscription of a spec's {@code source.kafka} settings, as {@link KafkaSourceSettings} defines them. */
    public static KafkaSubscription of(Values v) {
        List<String> topics = v.has(KafkaSourceSettings.TOPICS) ? v.get(KafkaSourceSettings.TOPICS) : List.of();
        ValueFormat valueFormat = ValueFormats.of(v, topics);
        if (valueFormat != null && v.get(KafkaSourceSettings.INCLUDE_METADATA)) {
            ValueFormats.checkNoMetadataColumn(v, valueFormat.columns());
        }
        return new KafkaSubscription(topics, v.has(KafkaSourceSettings.TOPIC_PATTERN) ? v.get(KafkaSourceSettings.TOPIC_PATTERN) : null,
                v.get(KafkaSourceSettings.FORMAT), valueFormat != null ? valueFormat.columns()
                        : v.has(KafkaSourceSettings.SCHEMA) ? rescuing(v.get(KafkaSourceSettings.SCHEMA),
                        v.get(KafkaSourceSettings.SCHEMA_EVOLUTION)) : null,
                v.get(KafkaSourceSettings.INCLUDE_METADATA), v.get(KafkaSourceSettings.STARTING_OFFSETS),
                v.has(KafkaSourceSettings.STARTING_TIMESTAMP) ? v.get(KafkaSourceSettings.STARTING_TIMESTAMP) : null,
                v.has(KafkaSourceSettings.MAX_OFFSETS_PER_TRIGGER) ? v.get(KafkaSourceSettings.MAX_OFFSETS_PER_TRIGGER) : 0,
                v.get(KafkaSourceSettings.FAIL_ON_DATA_LOSS), valueFormat, null, v.get(KafkaSourceSettings.SCHEMA_EVOLUTION),
                v.get(KafkaSourceSettings.INFERENCE_RECORDS), MinOffsets.limit(v));
    }

    /**
     * True for format json without a schema: the columns are inferred from the records
     * ({@link JsonSchemaInference}), or taken from the table a run before landed, then given by {@link #withValueSchema}.
     */
    public boolean infersSchema() {
        return valueSchema == null && "json".equals(format);
    }

    /** This subscription reading its JSON values by {@code schema} (inferred, or the table's). */
    public KafkaSubscription withValueSchema(Schema schema) {
        return new KafkaSubscription(topics, pattern, format, rescuing(schema, schemaEvolution), includeMetadata, startingOffsets, startingTimestamp,
                maxOffsetsPerTrigger, failOnDataLoss, valueFormat, transform, schemaEvolution, inferenceRecords, minOffsets);
    }

    /** True under schemaEvolution rescue: what a JSON value's schema does not take goes to {@code _rescued_data}. */
    public boolean rescues() {
        return "rescue".equals(schemaEvolution);
    }

    /** {@code schema} with {@code _rescued_data} at the end under schemaEvolution rescue ({@link RescuedData}). */
    private static Schema rescuing(Schema schema, String schemaEvolution) {
        return "rescue".equals(schemaEvolution) ? RescuedData.withColumn(schema) : schema;
    }

    /** This subscription with {@code transform} (compiled over {@link #rowSchema()}) applied to each row read; null or the identity: none. */
    public KafkaSubscription withTransform(RowTransform transform) {
        return new KafkaSubscription(topics, pattern, format, valueSchema, includeMetadata, startingOffsets, startingTimestamp,
                maxOffsetsPerTrigger, failOnDataLoss, valueFormat, transform == null || transform.isIdentity() ? null : transform,
                schemaEvolution, inferenceRecords, minOffsets);
    }

    /** The columns of the rows written: the transform's output, or {@link #rowSchema()} without one. */
    public Schema outputSchema() {
        return transform != null ? transform.output() : rowSchema();
    }

    /** What the sink's offsets name as their topic: the topics, comma separated, or the pattern. */
    public String description() {
        return pattern != null ? pattern.pattern() : String.join(",", topics);
    }

    /** True when a new table starts elsewhere than each partition's earliest offset (startingOffsets or startingTimestamp). */
    public boolean startsElsewhere() {
        return startingTimestamp != null || startingOffsets.kind() != StartingOffsets.Kind.EARLIEST;
    }

    /** True when {@code topic} is one this subscription reads. */
    public boolean subscribes(String topic) {
        return pattern != null ? pattern.matcher(topic).matches() : topics.contains(topic);
    }

    /** The rows' columns: the value's (json, avro, protobuf), {@code value STRING} (string) or Spark's Kafka columns (bytes), then the metadata's. */
    public Schema rowSchema() {
        List<Field> fields = new ArrayList<>();
        switch (format) {
            case "string" -> fields.add(new Field("value", DataType.STRING, true));
            case "bytes" -> {
                fields.add(new Field("key", DataType.BINARY, true));
                fields.add(new Field("value", DataType.BINARY, true));
                kafkaColumns(fields);
            }
            default -> fields.addAll(valueSchema.fields());
        }
        fields.addAll(metadataColumns());
        return new Schema(fields);
    }

    /** The columns {@code includeMetadata} adds after the value's (none without it). */
    public List<Field> metadataColumns() {
        List<Field> fields = new ArrayList<>();
        if (includeMetadata) {
            if (!"bytes".equals(format)) {
                fields.add(new Field("key", DataType.BINARY, true));
                kafkaColumns(fields);
            }
            fields.add(new Field("headers", DataType.array(DataType.struct(Schema.parse("key STRING, value BINARY"))), true));
        }
        return fields;
    }

    private static void kafkaColumns(List<Field> fields) {
        fields.add(new Field("topic", DataType.STRING, true));
        fields.add(new Field("partition", DataType.INT, true));
        fields.add(new Field("offset", DataType.LONG, true));
        fields.add(new Field("timestamp", DataType.TIMESTAMP, true));
        fields.add(new Field("timestampType", DataType.INT, true));
    }
}
