package io.tributary.schema;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Creates a pipeline's topics. A topic that exists is left as it is: only the missing ones are
 * asked for, so a client without the right to create topics runs on topics made beforehand, and
 * one that another client creates meanwhile counts as created.
 */
public final class TopicCreation {
    private static final long WAIT_SECONDS = 60;

    private TopicCreation() {
    }

    /** Creates those of {@code topics} that do not exist, in one request; an error names the topic and the cause. */
    public static void create(Admin admin, Collection<NewTopic> topics) {
        Set<String> existing = existing(admin);
        List<NewTopic> missing = new ArrayList<>();
        for (NewTopic t : topics) {
            if (!existing.contains(t.name())) {
                missing.add(t);
            }
        }
        if (missing.isEmpty()) {
            return;
        }
        for (Map.Entry<String, KafkaFuture<Void>> e : admin.createTopics(missing).values().entrySet()) {
            try {
                e.getValue().get(WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (ExecutionException ex) {
                if (!(ex.getCause() instanceof TopicExistsException)) {
                    throw new TributaryException("cannot create topic " + e.getKey() + ": " + ex.getCause().getMessage(), ex.getCause());
                }
            } catch (TimeoutException ex) {
                throw new TributaryException("creating topic " + e.getKey() + " took more than " + WAIT_SECONDS + " s; is the broker reachable?", ex);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new TributaryException("interrupted while creating topic " + e.getKey(), ex);
            }
        }
    }

    /**
     * Waits until the broker answers for {@code topics}: {@code createTopics} returns once the
     * controller created them, and a broker that has not applied that yet answers a describe (a
     * sink's first call) with "unknown topic", which on a loaded machine would fail the run.
     */
    public static void awaitVisible(Admin admin, List<String> topics) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        try {
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
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TributaryException("interrupted while creating topics", e);
        }
    }

    private static Set<String> existing(Admin admin) {
        try {
            return admin.listTopics().names().get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new TributaryException("cannot list the topics of the Kafka cluster: " + cause
                    + "; check bootstrap.servers and the client security settings", cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TributaryException("interrupted while listing the topics of the Kafka cluster", e);
        }
    }
}
