package io.tributary.kafka;

import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.RescuedData;
import io.tributary.schema.JsonTypes;
import io.tributary.schema.RowPack;
import io.tributary.schema.Schema;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The columns of a Kafka source's JSON values when the spec gives no {@code schema}, inferred as the
 * file source infers JSON files' (Spark's JSON inference, {@link JsonTypes}): every partition of the
 * topics is read from its earliest offset up to its end offset when the run starts (read_committed),
 * or until {@code schemaInference.sampleSize.numRecords} records were read; each value's objects (one,
 * or JSON lines) give their fields' types, merged over the records; the columns sorted by name, as
 * Spark sorts them. Values that are not JSON objects are skipped (they are bad records when read).
 */
public final class JsonSchemaInference {
    /** How long a read may go without progress before the broker is taken for gone. */
    private static final Duration STALL = Duration.ofSeconds(60);

    private JsonSchemaInference() {
    }

    /**
     * The subscription's JSON values' columns, inferred from its topics' records.
     *
     * @throws io.tributary.schema.TributaryException when the topics hold no JSON object to infer from
     */
    public static Schema infer(KafkaSubscription source, Map<String, Object> clientProps) {
        return infer(source, clientProps, null);
    }

    /**
     * The subscription's JSON values' columns when its sink's table may exist already: the table's
     * columns (without Spark's Kafka columns, with {@code includeMetadata}), in its order, then the
     * columns inferred from the records that the table lacks (as an ungrown table, or an upsert's
     * {@code exceptColumns}, lacks them); without a table, the inferred columns.
     *
     * @param table the table's schema, or null when there is none (or its columns are a transform's)
     * @throws io.tributary.schema.TributaryException when there is no table and the topics hold no JSON object
     */
    public static Schema infer(KafkaSubscription source, Map<String, Object> clientProps, Schema table) {
        Map<String, DataType> sampled = new TreeMap<>();
        long records = sample(source, clientProps, sampled);
        List<Field> fields = new ArrayList<>();
        if (table != null) {
            List<String> metadata = source.metadataColumns().stream().map(f -> f.name().toLowerCase(java.util.Locale.ROOT)).toList();
            table.fields().stream().filter(f -> !metadata.contains(f.name().toLowerCase(java.util.Locale.ROOT))).forEach(fields::add);
        }
        if (table != null && source.rescues() && table.indexOf(RescuedData.COLUMN) >= 0) {
            return new Schema(fields); // rescue: the columns never change, what they lack is rescued
        }
        List<String> known = fields.stream().map(f -> f.name().toLowerCase(java.util.Locale.ROOT)).toList();
        JsonTypes.finish(sampled).forEach((k, v) -> { // a field only ever {} is dropped, as Spark's inference drops it
            if (!known.contains(k.toLowerCase(java.util.Locale.ROOT))) {
                fields.add(new Field(k, v, true));
            }
        });
        if (fields.isEmpty()) {
            throw KafkaErrors.nothingToInfer(source.description(), records);
        }
        return new Schema(fields);
    }

    /** Reads the records to sample, merging their fields' types into {@code columns}; how many records it read. */
    private static long sample(KafkaSubscription source, Map<String, Object> clientProps, Map<String, DataType> columns) {
        Map<String, Object> props = new HashMap<>(clientProps);
        props.remove("group.id");
        props.remove("group.instance.id");
        props.remove("transactional.id");
        props.put("isolation.level", "read_committed");
        props.put("allow.auto.create.topics", false);
        props.put("enable.auto.commit", "false");
        props.put("auto.offset.reset", "earliest");
        props.putIfAbsent("client.id", "tributary-schema-inference");
        long sampled = 0;
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> tps = partitions(source, c, TopicWait.bound(clientProps));
            Map<TopicPartition, Long> end = c.endOffsets(tps);
            c.assign(tps);
            c.seekToBeginning(tps);
            List<TopicPartition> open = new ArrayList<>(tps);
            long limit = source.inferenceRecords();
            long lastProgress = System.nanoTime();
            while (!open.isEmpty() && (limit == 0 || sampled < limit)) {
                boolean progressed = false;
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    if (r.offset() >= end.get(new TopicPartition(r.topic(), r.partition())) || (limit > 0 && sampled >= limit)) {
                        continue;
                    }
                    progressed = true;
                    sampled++;
                    if (r.value() != null) {
                        RowPack.forEachRow(r.value(), (bytes, offset, length) -> JsonTypes.fields(new String(bytes, offset, length,
                                StandardCharsets.UTF_8), true).forEach((k, v) -> columns.put(k, columns.containsKey(k)
                                ? JsonTypes.merge(columns.get(k), v) : v))); // null: only null so far
                    }
                }
                List<TopicPartition> done = new ArrayList<>();
                for (TopicPartition tp : open) {
                    if (c.position(tp) >= end.get(tp)) {
                        done.add(tp);
                        progressed = true;
                    }
                }
                open.removeAll(done);
                c.pause(done);
                if (progressed) {
                    lastProgress = System.nanoTime();
                } else if (System.nanoTime() - lastProgress > STALL.toNanos()) {
                    throw KafkaErrors.noProgress("sampling " + source.description() + " to infer source.kafka.schema",
                            STALL.toSeconds(), end);
                }
            }
        }
        return sampled;
    }

    private static List<TopicPartition> partitions(KafkaSubscription source, KafkaConsumer<byte[], byte[]> c, Duration bound) {
        List<TopicPartition> tps = new ArrayList<>();
        if (source.pattern() != null) {
            c.listTopics().forEach((topic, infos) -> {
                if (source.subscribes(topic)) {
                    infos.forEach(p -> tps.add(new TopicPartition(topic, p.partition())));
                }
            });
            return tps;
        }
        for (String topic : source.topics()) {
            List<PartitionInfo> infos = TopicWait.partitions(c, topic, bound);
            infos.forEach(p -> tps.add(new TopicPartition(topic, p.partition())));
        }
        return tps;
    }
}
