package io.tributary.kafka;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the records a pipeline's stage has committed past from the topic it alone reads
 * ({@code topic.trim}), as Kafka Streams purges its repartition topics: the events and results
 * topics have no time retention (their timestamps are event times, see {@link io.tributary.schema.Topics}), so
 * without this they grow for as long as the pipeline runs.
 */
public final class TopicTrim {
    private static final Logger LOG = LoggerFactory.getLogger(TopicTrim.class);

    private TopicTrim() {
    }

    /**
     * Deletes the records before {@code offsets}, in the background: housekeeping that the next
     * batch repeats, so a failure is only logged. Give the result to {@link #await} before closing
     * {@code admin}.
     */
    public static KafkaFuture<Void> before(Admin admin, Map<TopicPartition, Long> offsets) {
        Map<TopicPartition, RecordsToDelete> request = new HashMap<>();
        offsets.forEach((tp, o) -> request.put(tp, RecordsToDelete.beforeOffset(o)));
        return admin.deleteRecords(request).all().whenComplete((ok, e) -> {
            if (e != null) {
                LOG.warn("could not delete the records before {} (the next batch tries again): {}", offsets, e.toString());
            }
        });
    }

    /** Waits a few seconds at most for a trim still in flight (null: none), so that a run's last trim is done when it ends. */
    public static void await(KafkaFuture<Void> trim) {
        if (trim == null) {
            return;
        }
        try {
            trim.get(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.debug("trim not finished: {}", e.toString()); // logged by before(), or left to the next run
        }
    }
}
