package io.tributary.source.internal;

import io.tributary.kafka.TopicCreation;
import io.tributary.schema.TributaryException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * Creates the source's topics if they are missing: the row topic (broker defaults) and the compacted
 * progress topic; returns once the broker serves the ones it created.
 */
public final class TopicSetup {
    private TopicSetup() {
    }

    public static void ensure(Map<String, Object> clientProps, String rowTopic, String progressTopic, Optional<Short> replicationFactor) {
        try (Admin admin = Admin.create(adminProps(clientProps))) {
            TopicCreation.create(admin, List.of(new NewTopic(rowTopic, Optional.empty(), Optional.empty()),
                    new NewTopic(progressTopic, Optional.of(1), Optional.empty()).configs(Map.of("cleanup.policy", "compact"))),
                    replicationFactor);
        } catch (TributaryException e) {
            if (Thread.currentThread().isInterrupted()) {
                throw e;
            }
            throw SourceErrors.cannotCreateTopics(e.getMessage(), rowTopic, progressTopic, e.getCause());
        }
    }

    /** Creates the dead-letter topic (one partition) when missing: where the rows a transform fails on go. */
    public static void ensureDeadLetter(Map<String, Object> clientProps, String topic, Optional<Short> replicationFactor) {
        try (Admin admin = Admin.create(adminProps(clientProps))) {
            TopicCreation.create(admin, List.of(new NewTopic(topic, Optional.of(1), Optional.empty())), replicationFactor);
        }
    }

    private static Map<String, Object> adminProps(Map<String, Object> clientProps) {
        Map<String, Object> props = new HashMap<>();
        for (Map.Entry<String, Object> e : clientProps.entrySet()) {
            if (!e.getKey().startsWith("transactional.") && !e.getKey().equals("isolation.level")) {
                props.put(e.getKey(), e.getValue());
            }
        }
        return props;
    }
}
