package io.tributary.service.internal;

import io.tributary.service.spec.PipelineSpec;
import io.tributary.service.spec.Settings;
import io.tributary.kafka.KafkaSourceSettings;
import io.tributary.settings.Values;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * {@code checkpoint show} for a Kafka source: per topic-partition the table's next offset (an
 * aggregation's: the offset its Kafka Streams group committed with its state), the
 * partition's committed end (read_committed) and the lag between them, as Spark's
 * {@code KafkaMicroBatchStream} metrics name them (its offsets behind latest).
 */
public final class KafkaSourceLag {
    private KafkaSourceLag() {
    }

    /**
     * One line per topic: {@code orders  0: table 42, end 50, lag 8; 1: ...}; a partition the table
     * has not read yet says so and lags by all it holds.
     *
     * @param table the table's offsets per topic and partition, as Spark prints them (empty: no table yet)
     */
    public static List<String> lines(Map<String, Object> clientProps, PipelineSpec spec, Map<String, Map<String, Long>> table) {
        Predicate<String> subscribes = subscribes(spec);
        List<String> out = new ArrayList<>();
        try (Admin admin = Admin.create(clientProps)) {
            boolean aggregated = AggregationParts.aggregates(spec); // the aggregation reads the source, the table its results
            Map<String, Map<String, Long>> next = aggregated ? committed(admin, spec, subscribes) : table;
            String label = aggregated ? "committed " : "table ";
            List<String> topics = admin.listTopics().names().get().stream().filter(subscribes).sorted().toList();
            Map<TopicPartition, OffsetSpec> first = new HashMap<>();
            Map<TopicPartition, OffsetSpec> end = new HashMap<>();
            admin.describeTopics(topics).allTopicNames().get().forEach((t, d) -> d.partitions().forEach(p -> {
                first.put(new TopicPartition(t, p.partition()), OffsetSpec.earliest());
                end.put(new TopicPartition(t, p.partition()), OffsetSpec.latest());
            }));
            var firsts = admin.listOffsets(first).all().get();
            var ends = admin.listOffsets(end, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get();
            Map<String, Map<Integer, String>> byTopic = new TreeMap<>();
            ends.forEach((tp, e) -> {
                Long at = next.getOrDefault(tp.topic(), Map.of()).get(String.valueOf(tp.partition()));
                long endOffset = e.offset();
                String text = at == null ? "not read yet, end " + endOffset + ", lag " + (endOffset - firsts.get(tp).offset())
                        : label + at + ", end " + endOffset + ", lag " + Math.max(0, endOffset - at);
                byTopic.computeIfAbsent(tp.topic(), k -> new TreeMap<>()).put(tp.partition(), text);
            });
            byTopic.forEach((t, parts) -> {
                StringBuilder line = new StringBuilder("  " + t + " ");
                parts.forEach((p, text) -> line.append(' ').append(p).append(": ").append(text).append(';'));
                out.add(line.substring(0, line.length() - 1));
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ServiceErrors.topicOffsetsInterrupted(e);
        } catch (ExecutionException e) {
            throw ServiceErrors.topicOffsetsUnreadable(spec.name(), e);
        }
        if (out.isEmpty()) {
            out.add("  no topic " + (spec.has(Settings.KAFKA_TOPIC_PATTERN) ? "matches the pattern yet" : "of the source exists"));
        }
        return out;
    }

    /**
     * The source offsets an aggregation (or the deduplication before it) committed with its state, in Kafka
     * Streams' group: where a restart resumes. Empty when it has committed none.
     */
    private static Map<String, Map<String, Long>> committed(Admin admin, PipelineSpec spec, Predicate<String> subscribes)
            throws InterruptedException, ExecutionException {
        Map<String, Map<String, Long>> out = new TreeMap<>();
        for (String role : List.of("dedup", "aggregate")) {
            admin.listConsumerGroupOffsets("tributary-" + spec.name() + "-" + role).partitionsToOffsetAndMetadata().get()
                    .forEach((tp, o) -> {
                        if (o != null && subscribes.test(tp.topic())) {
                            out.computeIfAbsent(tp.topic(), k -> new TreeMap<>()).putIfAbsent(String.valueOf(tp.partition()), o.offset());
                        }
                    });
        }
        return out;
    }

    /**
     * Whether the source reads a topic, from the spec's topics or pattern alone: the value format is not resolved, so
     * a schema registry that does not answer does not keep the offsets from being shown.
     */
    private static Predicate<String> subscribes(PipelineSpec spec) {
        Values v = spec.values(Settings.KAFKA_SOURCE, KafkaSourceSettings.ALL);
        Pattern pattern = v.has(KafkaSourceSettings.TOPIC_PATTERN) ? v.get(KafkaSourceSettings.TOPIC_PATTERN) : null;
        List<String> topics = v.has(KafkaSourceSettings.TOPICS) ? v.get(KafkaSourceSettings.TOPICS) : List.of();
        return t -> pattern != null ? pattern.matcher(t).matches() : topics.contains(t);
    }
}
