package io.tributary.schema;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.LeaderNotAvailableException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Waits until the broker serves topics just created. {@code createTopics} returns once the
 * controller has committed the topics, and a broker applies that to its metadata a moment later:
 * in between it answers a describe or a consumer's metadata request with "unknown topic". On a
 * loaded machine that window is long enough for the next stage, opening right after the
 * topics were created, to be told that its topic does not exist.
 */
public final class TopicsVisible {
    /** How long a broker may take to serve a topic its controller created. */
    public static final Duration MAX_WAIT = Duration.ofSeconds(60);
    private static final long POLL_MS = 20;

    private TopicsVisible() {
    }

    /** {@link #await(Admin, Collection, Duration)} with {@link #MAX_WAIT}. */
    public static void await(Admin admin, Collection<String> topics) {
        await(admin, topics, MAX_WAIT);
    }

    /**
     * Returns once the broker describes every topic with a leader for each partition; fails with
     * the topics it still does not serve after {@code maxWait}, or with any other error at once.
     */
    public static void await(Admin admin, Collection<String> topics, Duration maxWait) {
        List<String> wanted = List.copyOf(topics);
        long deadline = System.nanoTime() + maxWait.toNanos();
        String lastState;
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
                    throw new TributaryException("cannot describe topics " + wanted + ": " + e.getCause().getMessage(), e.getCause());
                }
                lastState = e.getCause().getMessage();
            } catch (TimeoutException e) {
                lastState = "no answer to a describe of " + wanted;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TributaryException("interrupted while waiting for the broker to serve topics " + wanted, e);
            }
            if (System.nanoTime() > deadline) {
                throw new TributaryException("the broker still does not serve topics " + wanted + " " + maxWait.toSeconds()
                        + " s after they were created (" + lastState + "); check the cluster's health, then run again");
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TributaryException("interrupted while waiting for the broker to serve topics " + wanted, e);
            }
        }
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
}
