package io.tributary.service.internal;

import io.tributary.schema.Topics;
import io.tributary.schema.TopicsVisible;
import io.tributary.schema.TributaryException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/** Creates the topics a pipeline needs beyond the ingest's own, if they are absent (event-time timestamps: no time retention). */
final class TopicAdmin {
    private TopicAdmin() {
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
            TopicsVisible.await(admin, List.of(topics)); // the next stage opens right after this
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TributaryException("interrupted while creating topics", e);
        }
    }
}
