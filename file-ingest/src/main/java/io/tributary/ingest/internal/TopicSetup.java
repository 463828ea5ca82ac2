package io.tributary.ingest.internal;

import io.tributary.ingest.IngestConfig;
import io.tributary.kafka.TopicCreation;
import io.tributary.kafka.TopicWait;
import io.tributary.schema.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/** Creates the ingest's topics, and checks that they exist before a batch would wait on them. */
public final class TopicSetup {
    private TopicSetup() {
    }

    /** Creates the topics that are missing and returns once the broker serves all three ({@link TopicCreation}). */
    public static void create(Admin admin, IngestConfig config, int partitions) {
        List<NewTopic> topics = List.of(
                new NewTopic(config.eventsTopic(), Optional.of(partitions), Optional.empty()).configs(Topics.EVENT_TIME_TOPIC_CONFIG),
                new NewTopic(config.ingestLogTopic(), Optional.of(1), Optional.empty())
                        .configs(Map.of("cleanup.policy", "compact")),
                new NewTopic(config.deadLetterTopic(), Optional.of(1), Optional.empty()));
        TopicCreation.create(admin, topics, config.replicationFactor());
    }

    /**
     * Waits for the ingest's topics to be visible ({@link TopicWait}: created a moment ago, perhaps), and
     * fails with the names of those still missing and the fix, instead of a producer waiting on its own.
     */
    public static void requireTopics(Map<String, Object> clientProps, IngestConfig config) {
        Map<String, Object> props = new HashMap<>();
        for (Map.Entry<String, Object> e : clientProps.entrySet()) {
            if (AdminClientConfig.configNames().contains(e.getKey())) {
                props.put(e.getKey(), e.getValue());
            }
        }
        Set<String> wanted = Set.of(config.eventsTopic(), config.ingestLogTopic(), config.deadLetterTopic());
        Duration bound = TopicWait.bound(clientProps);
        List<String> missing = new ArrayList<>(wanted);
        try (Admin admin = Admin.create(props)) {
            TopicWait.until(String.join(", ", new TreeSet<>(wanted)), bound, () -> {
                missing.removeAll(listTopics(admin));
                return missing.isEmpty() ? Optional.of(true) : Optional.empty();
            });
        }
        if (!missing.isEmpty()) {
            missing.sort(null);
            throw IngestErrors.missingTopics(config.pipeline(), String.join(", ", missing), bound.toSeconds());
        }
    }

    private static Set<String> listTopics(Admin admin) {
        try {
            return admin.listTopics().names().get(60, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw IngestErrors.cannotListTopics(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw IngestErrors.interruptedCheckingTopics(e);
        }
    }
}
