package io.tributary.service.internal;

import io.tributary.kafka.TopicCreation;
import io.tributary.schema.Topics;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

/** Creates the topics a pipeline needs beyond the ingest's own, if they are absent (event-time timestamps: no time retention). */
final class TopicAdmin {
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
}
