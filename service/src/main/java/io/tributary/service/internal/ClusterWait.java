package io.tributary.service.internal;

import io.tributary.schema.TributaryException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.KafkaFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits for the Kafka cluster the spec names to answer, before any stage starts. Kafka's clients
 * wait for a broker that does not answer in silence (a producer up to {@code max.block.ms}, an
 * admin call up to {@code default.api.timeout.ms}: 60 s each) and then fail with a timeout that
 * names no server. Here the wait says within {@link #FIRST_WARNING} that the cluster does not
 * answer, naming {@code kafka.bootstrap.servers}, and says it again every {@link #REPEAT}.
 *
 * <p>How long it waits is the caller's bound: a bounded run and {@code checkpoint show} wait as
 * long as a Kafka client would ({@code default.api.timeout.ms}), then fail, since whoever started
 * them waits for an answer; a continuous service waits as long as it rides out an outage while
 * running ({@link Recovery#GIVE_UP_AFTER}), since it is started next to its broker and is expected
 * to outwait the broker's own start. A stop request ends the wait at once.
 */
final class ClusterWait {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterWait.class);
    /** When the first "does not answer" comes, at the latest; also each probe's timeout. */
    static final Duration FIRST_WARNING = Duration.ofSeconds(5);
    /** How often it is said again while the wait goes on. */
    static final Duration REPEAT = Duration.ofSeconds(15);
    private static final long POLL_MS = 100;

    private final Duration firstWarning;
    private final Duration repeat;
    private final Consumer<String> warn;

    ClusterWait() {
        this(FIRST_WARNING, REPEAT, LOG::warn);
    }

    ClusterWait(Duration firstWarning, Duration repeat, Consumer<String> warn) {
        this.firstWarning = firstWarning;
        this.repeat = repeat;
        this.warn = warn;
    }

    /**
     * Returns once the cluster of {@code clientProps} answers a {@code describeCluster}.
     *
     * @param boundSetting the setting {@code bound} comes from, named when the wait gives up; null for none
     * @throws TributaryException when it did not within {@code bound}, or refused the client (security settings)
     * @throws StoppedWhileStarting when {@code stop} said so first
     */
    void await(Map<String, Object> clientProps, Duration bound, String boundSetting, BooleanSupplier stop) {
        String servers = String.valueOf(clientProps.get("bootstrap.servers"));
        String who = "the Kafka cluster at " + servers + " (kafka.bootstrap.servers)";
        long start = System.nanoTime();
        long nextWarning = start + firstWarning.toNanos();
        try (Admin admin = admin(clientProps, who)) {
            KafkaFuture<String> answer = ask(admin);
            while (true) {
                try {
                    answer.get(POLL_MS, TimeUnit.MILLISECONDS);
                    if (System.nanoTime() >= start + firstWarning.toNanos()) {
                        LOG.info("{} answers", who);
                    }
                    return;
                } catch (TimeoutException stillWaiting) {
                    // asked, no answer yet
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException)) {
                        throw ServiceErrors.clusterRefused(who, e.getCause().getMessage(), e.getCause());
                    }
                    answer = ask(admin); // this probe timed out: ask again
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw ServiceErrors.interruptedAwaitingCluster(who, e);
                }
                long now = System.nanoTime();
                if (stop.getAsBoolean()) {
                    throw ServiceErrors.stoppedWhileStarting(who);
                }
                if (now - start >= bound.toNanos()) {
                    throw ServiceErrors.clusterDidNotAnswer(who, format(bound), boundSetting);
                }
                if (now >= nextWarning) {
                    warn.accept(who + " does not answer (" + format(Duration.ofNanos(now - start)) + " so far); still trying, for up to "
                            + format(bound));
                    nextWarning = now + repeat.toNanos();
                }
            }
        }
    }

    private KafkaFuture<String> ask(Admin admin) {
        return admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) firstWarning.toMillis())).clusterId();
    }

    /** An admin client whose calls time out at each probe, not after Kafka's 60 s. */
    private Admin admin(Map<String, Object> clientProps, String who) {
        Map<String, Object> props = new HashMap<>();
        clientProps.forEach((k, v) -> {
            if (AdminClientConfig.configNames().contains(k)) {
                props.put(k, v);
            }
        });
        int probeMs = (int) firstWarning.toMillis();
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, probeMs);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, probeMs);
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, "tributary-connect-check");
        try {
            return Admin.create(props);
        } catch (org.apache.kafka.common.KafkaException e) {
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            throw ServiceErrors.badKafkaSettings(who, root.getMessage(), e);
        }
    }

    static String format(Duration d) {
        long s = Math.max(0, d.toSeconds());
        return s < 120 ? s + " s" : (s % 60 == 0 ? s / 60 + " minutes" : s / 60 + " min " + s % 60 + " s");
    }
}
