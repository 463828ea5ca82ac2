package io.tributary.topology.internal;

import io.tributary.kafka.KafkaSubscription;
import io.tributary.topology.KafkaInput;
import java.util.List;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Where an aggregation's or deduplication's rows come from: the pipeline's events topic, or a Kafka
 * source's topics through {@link KafkaSourceFront}, with the batches topic as a global store every
 * task reads and the reports and dead letters as sinks.
 */
public final class SourceWiring {
    /** The names of the nodes and stores of a Kafka source's front. */
    public record Nodes(Names names) {
        String processor() {
            return names.processor();
        }

        String front() {
            return names.prefix() + "-kafka-source";
        }

        String frontStore() {
            return names.prefix() + "-kafka-source-position";
        }

        String heldStore() {
            return names.prefix() + "-kafka-source-held";
        }

        String frontCommitHook() {
            return names.prefix() + "-kafka-source-commit-hook";
        }

        String batchesStore() {
            return names.prefix() + "-batches";
        }

        String rowsSink() {
            return names.prefix() + "-rows-out";
        }

        String rowsSource() {
            return names.prefix() + "-rows-in";
        }

        String merge() {
            return names.prefix() + "-batch-merge";
        }

        String mergeStore() {
            return names.prefix() + "-batch-merge-markers";
        }

        String mergeReportsSink() {
            return names.prefix() + "-batch-merge-reports";
        }

        String reportsSink() {
            return names.prefix() + "-batch-reports";
        }

        String deadLetterSink() {
            return names.prefix() + "-deadletter";
        }
    }

    /**
     * A Kafka source as an aggregation reads it.
     *
     * @param stage the stage's name, for logs and dead letters
     * @param eventTime the event-time column's index in the source's rows, or -1
     * @param placeBy the columns that place a row on a partition of the rows topic: the group-by or deduplication keys
     */
    public record Kafka(KafkaInput input, String applicationId, String stage, int eventTime, List<String> placeBy) {
    }

    private SourceWiring() {
    }

    /**
     * Adds the source nodes and returns the name of the node the main processor reads from.
     *
     * @param kafka a Kafka source, or null for the events topic
     */
    public static String source(Topology t, Names names, String eventsTopic, Kafka kafka) {
        if (kafka == null) {
            t.addSource(AutoOffsetReset.earliest(), names.source(), new ByteArrayDeserializer(), new ByteArrayDeserializer(), eventsTopic);
            return names.source();
        }
        Nodes nodes = new Nodes(names);
        var subscription = kafka.input().subscription();
        if (subscription.pattern() != null) {
            t.addSource(AutoOffsetReset.earliest(), names.source(), new ByteArrayDeserializer(), new ByteArrayDeserializer(),
                    subscription.pattern());
        } else {
            t.addSource(AutoOffsetReset.earliest(), names.source(), new ByteArrayDeserializer(), new ByteArrayDeserializer(),
                    subscription.topics().toArray(String[]::new));
        }
        t.addProcessor(nodes.front(), () -> new KafkaSourceFront(kafka.input(), nodes, kafka.stage(), kafka.eventTime(),
                kafka.placeBy()), names.source());
        t.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(nodes.frontStore()), Serdes.String(), Serdes.Long())
                .withCachingDisabled(), nodes.front());
        t.addStateStore(CommitHook.builder(nodes.frontCommitHook()), nodes.front());
        if (subscription.maxOffsetsPerTrigger() > 0) { // the records read past a batch's bounds wait there (HeldRecords)
            t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(nodes.heldStore()), Serdes.String(),
                    Serdes.ByteArray()).withCachingDisabled(), nodes.front());
        }
        t.addGlobalStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(nodes.batchesStore()), Serdes.String(),
                        Serdes.ByteArray()).withLoggingDisabled(), nodes.batchesStore() + "-source", new StringDeserializer(),
                new ByteArrayDeserializer(), KafkaInput.batchesTopic(kafka.applicationId()), nodes.batchesStore() + "-update",
                () -> new BatchesUpdate(nodes.batchesStore(), subscription));
        t.addSink(nodes.reportsSink(), KafkaInput.reportsTopic(kafka.applicationId()), new ByteArraySerializer(), new ByteArraySerializer(),
                nodes.front());
        if (kafka.input().deadLetterTopic() != null) {
            t.addSink(nodes.deadLetterSink(), kafka.input().deadLetterTopic(), new ByteArraySerializer(), new ByteArraySerializer(),
                    nodes.front());
        }
        t.addSink(nodes.rowsSink(), KafkaInput.rowsTopic(kafka.applicationId()), ResultKey.SERIALIZER, new ByteArraySerializer(),
                ResultKey.PARTITIONER, nodes.front());
        t.addSource(AutoOffsetReset.earliest(), nodes.rowsSource(), new ByteArrayDeserializer(), new ByteArrayDeserializer(),
                KafkaInput.rowsTopic(kafka.applicationId()));
        t.addProcessor(nodes.merge(), () -> new BatchMerge(nodes, kafka.input()), nodes.rowsSource());
        t.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(nodes.mergeStore()), Serdes.String(), Serdes.Long())
                .withCachingDisabled(), nodes.merge());
        t.addSink(nodes.mergeReportsSink(), KafkaInput.reportsTopic(kafka.applicationId()), new ByteArraySerializer(),
                new ByteArraySerializer(), nodes.merge());
        return nodes.merge();
    }

    /** The topics a Kafka source's application needs besides the source's and the rows topic: the batches and the reports, one partition each. */
    public static List<String> controlTopics(String applicationId) {
        return List.of(KafkaInput.batchesTopic(applicationId), KafkaInput.reportsTopic(applicationId));
    }

    /** Keeps the batches topic's records in the global store, and says which source partitions the last batch knows. */
    private static final class BatchesUpdate implements Processor<String, byte[], Void, Void> {
        private final String storeName;
        private final KafkaSubscription subscription;
        private KeyValueStore<String, byte[]> store;
        private UnknownPartitions unknown;

        BatchesUpdate(String storeName, KafkaSubscription subscription) {
            this.storeName = storeName;
            this.subscription = subscription;
        }

        @Override
        public void init(ProcessorContext<Void, Void> context) {
            this.store = context.getStateStore(storeName);
            this.unknown = UnknownPartitions.of(context.applicationId());
        }

        @Override
        public void process(Record<String, byte[]> record) {
            if (record.key() != null && record.value() != null) {
                store.put(record.key(), record.value());
                if (SourceBatch.KEY.equals(record.key())) {
                    unknown.published(subscription::subscribes, SourceBatch.parse(record.value()).known());
                }
            }
        }
    }
}
