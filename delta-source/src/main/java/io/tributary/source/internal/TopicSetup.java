package io.tributary.source.internal;

import io.tributary.schema.TopicsVisible;
import io.tributary.schema.TributaryException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates the source's topics if they are missing: the row topic (broker defaults) and the compacted
 * progress topic; returns once the broker serves the ones it created.
 */
public final class TopicSetup {
    private TopicSetup() {
    }

    public static void ensure(Map<String, Object> clientProps, String rowTopic, String progressTopic) {
        Map<String, Object> props = new HashMap<>();
        for (Map.Entry<String, Object> e : clientProps.entrySet()) {
            if (!e.getKey().startsWith("transactional.") && !e.getKey().equals("isolation.level")) {
                props.put(e.getKey(), e.getValue());
            }
        }
        try (Admin admin = Admin.create(props)) {
            Set<String> existing = admin.listTopics().names().get();
            List<NewTopic> missing = new ArrayList<>();
            if (!existing.contains(rowTopic)) {
                missing.add(new NewTopic(rowTopic, Optional.empty(), Optional.empty()));
            }
            if (!existing.contains(progressTopic)) {
                missing.add(new NewTopic(progressTopic, Optional.of(1), Optional.empty())
                        .configs(Map.of("cleanup.policy", "compact")));
            }
            if (!missing.isEmpty()) {
                try {
                    admin.createTopics(missing).all().get();
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
                TopicsVisible.await(admin, missing.stream().map(NewTopic::name).toList());
            }
        } catch (ExecutionException e) {
            throw new TributaryException("delta-source: cannot create topics " + rowTopic + " / " + progressTopic + ": "
                    + e.getCause().getMessage() + "; create them yourself (" + progressTopic + " with cleanup.policy=compact) or grant the client CREATE", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TributaryException("delta-source: interrupted while creating topics", e);
        }
    }
}
