package io.tributary.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.LeaderNotAvailableException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Creates a pipeline's topics. A topic that exists is left as it is: only the missing ones are
 * asked for, so a client without the right to create topics runs on topics made beforehand, and
 * one that another client creates meanwhile counts as created.
 */
public final class TopicCreation {
    private static final long WAIT_SECONDS = 60;
    /** How long a broker may take to serve a topic its controller created. */
    public static final Duration MAX_VISIBLE_WAIT = Duration.ofSeconds(60);
    private static final long POLL_MS = 20;

    private TopicCreation() {
    }

    /**
     * Creates those of {@code topics} that do not exist, in one request, and returns once the
     * broker serves them ({@link #awaitVisible}); an error names the topic and the cause.
     */
    public static void create(Admin admin, Collection<NewTopic> topics) {
        create(admin, topics, Optional.empty());
    }

    /**
     * As {@link #create(Admin, Collection)}; every topic that names no replication factor of its own
     * takes {@code replicationFactor} (the pipeline's {@code topic.replicationFactor}), or the
     * broker's {@code default.replication.factor} when that is empty.
     */
    public static void create(Admin admin, Collection<NewTopic> topics, Optional<Short> replicationFactor) {
        Set<String> existing = existing(admin);
        List<NewTopic> missing = new ArrayList<>();
        for (NewTopic t : topics) {
            if (!existing.contains(t.name())) {
                missing.add(withReplication(t, replicationFactor));
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
                    throw KafkaErrors.cannotCreateTopic(e.getKey(), ex.getCause().getMessage(), ex.getCause());
                }
            } catch (TimeoutException ex) {
                throw KafkaErrors.createTimedOut(e.getKey(), WAIT_SECONDS, ex);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw KafkaErrors.interruptedCreating(e.getKey(), ex);
            }
        }
        awaitVisible(admin, missing.stream().map(NewTopic::name).toList());
    }

    /**
     * Waits until the broker serves {@code topics}: {@code createTopics} returns once the
     * controller has committed them, and a broker applies that to its metadata a moment later; in
     * between it answers a describe or a consumer's metadata request with "unknown topic". On a
     * loaded machine that window is long enough for the next stage, opening right after the
     * topics were created, to be told that its topic does not exist.
     */
    public static void awaitVisible(Admin admin, Collection<String> topics) {
        awaitVisible(admin, topics, MAX_VISIBLE_WAIT);
    }

    /**
     * Returns once the broker describes every topic with a leader for each partition; fails with
     * the topics it still does not serve after {@code maxWait}, or with any other error at once.
     */
    public static void awaitVisible(Admin admin, Collection<String> topics, Duration maxWait) {
        List<String> wanted = List.copyOf(topics);
        long deadline = System.nanoTime() + maxWait.toNanos();
        String lastState;
        try {
            while (true) {
                try {
                    Map<String, TopicDescription> described = admin.describeTopics(wanted).allTopicNames().get(maxWait.toMillis(), TimeUnit.MILLISECONDS);
                    List<String> leaderless = wanted.stream().filter(t -> !led(described.get(t))).toList();
                    if (leaderless.isEmpty()) {
                        return;
                    }
                    lastState = "partitions without a leader in " + leaderless;
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof UnknownTopicOrPartitionException) && !(e.getCause() instanceof LeaderNotAvailableException)) {
                        throw KafkaErrors.cannotDescribeTopics(wanted, e.getCause().getMessage(), e.getCause());
                    }
                    lastState = e.getCause().getMessage();
                } catch (TimeoutException e) {
                    lastState = "no answer to a describe of " + wanted;
                }
                if (System.nanoTime() > deadline) {
                    throw KafkaErrors.topicsNotServed(wanted, maxWait.toSeconds(), lastState);
                }
                Thread.sleep(POLL_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw KafkaErrors.interruptedAwaitingTopics(wanted, e);
        }
    }

    private static NewTopic withReplication(NewTopic t, Optional<Short> replicationFactor) {
        if (replicationFactor.isEmpty() || t.replicationFactor() > 0 || t.replicasAssignments() != null) {
            return t;
        }
        Optional<Integer> partitions = t.numPartitions() < 0 ? Optional.empty() : Optional.of(t.numPartitions());
        NewTopic out = new NewTopic(t.name(), partitions, replicationFactor);
        return t.configs() == null ? out : out.configs(t.configs());
    }

    private static boolean led(TopicDescription d) {
        if (d == null || d.partitions().isEmpty()) {
            return false;
        }
        for (TopicPartitionInfo p : d.partitions()) {
            if (p.leader() == null || p.leader().isEmpty()) {
                return false;
            }
        }
        return true;
    }

    private static Set<String> existing(Admin admin) {
        try {
            return admin.listTopics().names().get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw KafkaErrors.cannotListTopics(cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw KafkaErrors.interruptedListing(e);
        }
    }
}
