package io.tributary.service.internal;

import io.tributary.kafka.TopicCreation;
import io.tributary.schema.Topics;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import io.tributary.service.spec.PipelineSpec;
import java.util.HashMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/** Creates the topics a pipeline needs beyond the ingest's own, if they are absent (event-time timestamps: no time retention). */
public final class TopicAdmin {
    private TopicAdmin() {
    }

    /** Creates {@code topics} ({@link TopicCreation}) and waits until the broker answers for them. */
    static void ensure(Map<String, Object> clientProps, int partitions, Optional<Short> replicationFactor, String... topics) {
        try (Admin admin = Admin.create(clientProps)) {
            TopicCreation.create(admin, Arrays.stream(topics)
                    .map(t -> new NewTopic(t, Optional.of(partitions), Optional.empty()).configs(Topics.EVENT_TIME_TOPIC_CONFIG))
                    .toList(), replicationFactor);
        }
    }

    /**
     * Every topic of the pipeline, by partition: the first offset still in it (above 0 once
     * {@code topic.trim} deleted what the next stage committed) and the read_committed end offset.
     */
    public static Map<String, Map<Integer, String>> topicOffsets(Map<String, Object> clientProps, PipelineSpec spec) {
        String prefix = "tributary." + spec.name() + ".";
        Map<String, Map<Integer, String>> out = new TreeMap<>();
        try (Admin admin = Admin.create(clientProps)) {
            List<String> topics = admin.listTopics().names().get().stream().filter(t -> t.startsWith(prefix)).sorted().toList();
            Map<TopicPartition, OffsetSpec> first = new HashMap<>();
            Map<TopicPartition, OffsetSpec> end = new HashMap<>();
            admin.describeTopics(topics).allTopicNames().get().forEach((t, d) -> d.partitions().forEach(p -> {
                first.put(new TopicPartition(t, p.partition()), OffsetSpec.earliest());
                end.put(new TopicPartition(t, p.partition()), OffsetSpec.latest());
            }));
            var firsts = admin.listOffsets(first).all().get();
            admin.listOffsets(end, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get().forEach((tp, o) ->
                    out.computeIfAbsent(tp.topic(), k -> new TreeMap<>()).put(tp.partition(), firsts.get(tp).offset() + ".." + o.offset()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ServiceErrors.topicOffsetsInterrupted(e);
        } catch (ExecutionException e) {
            throw ServiceErrors.topicOffsetsUnreadable(spec.name(), e);
        }
        return out;
    }

}
