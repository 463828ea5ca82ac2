package io.tributary.sink.internal;

import io.tributary.kafka.TopicWait;
import io.tributary.schema.TributaryException;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Finds the topic a sink reads: its partitions and its id. A topic the brokers do not know yet is
 * waited for ({@link TopicWait}), as the stage that writes it may have created it a moment ago;
 * one still unknown after the client's {@code default.api.timeout.ms} is missing.
 */
final class TopicLookup {
    private final String topic;
    private final Duration bound;

    TopicLookup(String topic, Map<String, ?> clientProps) {
        this.topic = topic;
        this.bound = TopicWait.bound(clientProps);
    }

    /** The topic's partitions, in order. */
    List<TopicPartition> partitions(Consumer<?, ?> consumer) {
        List<PartitionInfo> infos = TopicWait.partitions(consumer, topic, bound);
        if (infos.isEmpty()) {
            throw missing();
        }
        return infos.stream().map(i -> new TopicPartition(topic, i.partition()))
                .sorted(Comparator.comparingInt(TopicPartition::partition)).toList();
    }

    /** The topic's Kafka id. */
    String topicId(Admin admin) {
        return TopicWait.until(topic, bound, () -> describe(admin)).orElseThrow(this::missing);
    }

    private Optional<String> describe(Admin admin) {
        try {
            return Optional.of(admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).topicId().toString());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.empty();
            }
            throw SinkErrors.cannotDescribeTopic(topic, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw SinkErrors.interruptedDescribingTopic(topic, e);
        }
    }

    private TributaryException missing() {
        return SinkErrors.noTopic(topic, bound.toSeconds());
    }
}
