package io.tributary.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.PartitionInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits for a topic a stage reads to become visible. A broker answers "unknown topic" for a while
 * after the topic's creation returned: the controller has committed it, and the broker applies it
 * to its metadata in turn. On a new broker that is creating its transaction-state and offsets
 * partitions meanwhile (50 each by default) that took seconds, and a stage that opened at once
 * took the topic for missing. A stage therefore looks for its topic until the client's
 * {@code default.api.timeout.ms} passes (60 s unless the pipeline's {@code kafka:} settings say
 * otherwise), as Kafka's own producer waits up to {@code max.block.ms} for a topic's metadata.
 */
public final class TopicWait {
    private static final Logger LOG = LoggerFactory.getLogger(TopicWait.class);
    private static final Duration DEFAULT_BOUND = Duration.ofSeconds(60);
    private static final long PAUSE_MS = 100;

    private TopicWait() {
    }

    /** How long to look for a topic: the client's {@code default.api.timeout.ms}, else 60 s. */
    public static Duration bound(Map<String, ?> clientProps) {
        Object v = clientProps.get("default.api.timeout.ms");
        if (v == null) {
            return DEFAULT_BOUND;
        }
        try {
            return Duration.ofMillis(Long.parseLong(v.toString().strip()));
        } catch (NumberFormatException e) {
            return DEFAULT_BOUND; // the client itself refuses the setting, with its own message
        }
    }

    /** The topic's partitions as {@code consumer} sees them, once it sees any; empty if it did not within {@code bound}. */
    public static List<PartitionInfo> partitions(Consumer<?, ?> consumer, String topic, Duration bound) {
        return until(topic, bound, () -> {
            List<PartitionInfo> infos = consumer.partitionsFor(topic);
            return infos == null || infos.isEmpty() ? Optional.empty() : Optional.of(infos);
        }).orElse(List.of());
    }

    /**
     * Asks {@code probe} until it gives a value (empty: the topic is not visible yet) or
     * {@code bound} has passed; says once, at the first miss, that it waits.
     */
    public static <T> Optional<T> until(String topic, Duration bound, Supplier<Optional<T>> probe) {
        long deadline = System.nanoTime() + bound.toNanos();
        boolean said = false;
        while (true) {
            Optional<T> found = probe.get();
            if (found.isPresent() || System.nanoTime() > deadline) {
                if (said && found.isPresent()) {
                    LOG.info("topic {} is there now", topic);
                }
                return found;
            }
            if (!said) {
                LOG.info("topic {} is not visible yet (a topic just created reaches the brokers a moment later); "
                        + "waiting up to {} s for it", topic, bound.toSeconds());
                said = true;
            }
            try {
                Thread.sleep(PAUSE_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw KafkaErrors.interruptedAwaitingTopic(topic, e);
            }
        }
    }
}
