package io.tributary.service.internal;

import io.tributary.schema.Topics;
import io.tributary.schema.TributaryException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/** Creates the topics a pipeline needs beyond the ingest's own, if they are absent (event-time timestamps: no time retention). */
final class TopicAdmin {
    private TopicAdmin() {
    }

    /**
     * Waits until the broker answers for the topics: {@code createTopics} returns once the
     * controller created them, and a broker that has not applied that yet answers a describe (the
     * sink's first call) with "unknown topic", which on a loaded machine would fail the run.
     */
    private static void awaitVisible(Admin admin, List<String> topics) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            try {
                admin.describeTopics(topics).allTopicNames().get();
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
                    throw new TributaryException("cannot describe topics " + topics + ": " + e.getCause().getMessage(), e);
                }
                Thread.sleep(20);
            }
        }
    }

    static void ensure(Map<String, Object> clientProps, int partitions, String... topics) {
        try (Admin admin = Admin.create(clientProps)) {
            for (String topic : topics) {
                try {
                    admin.createTopics(List.of(new NewTopic(topic, java.util.Optional.of(partitions), java.util.Optional.empty())
                            .configs(Topics.EVENT_TIME_TOPIC_CONFIG))).all().get();
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new TributaryException("cannot create topic " + topic + ": " + e.getCause().getMessage(), e);
                    }
                }
            }
            awaitVisible(admin, List.of(topics));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TributaryException("interrupted while creating topics", e);
        }
    }
}
