package io.tributary.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A topic's end offsets for a reader once the transactions that had written records are complete:
 * a producer's {@code commitTransaction()} returns before the brokers write the markers, so right
 * after it the committed end offsets (last stable offsets) can still lag behind the rows it
 * published. A batch that took them as they are would find nothing new, and an availableNow run
 * could end before reading what its own ingest had just published.
 */
public final class SettledEnds {
    private static final Logger LOG = LoggerFactory.getLogger(SettledEnds.class);
    /** How long a batch waits, at its start, for transactions already committing to complete. */
    public static final Duration DEFAULT_WAIT = Duration.ofSeconds(5);

    private SettledEnds() {
    }

    /**
     * The committed end offsets, once they reach {@code high} on every partition, or after {@code maxWait};
     * with {@code from} (the reader's positions), a partition is settled too once its committed end
     * moved past its position there: what is still open then is a later transaction.
     *
     * @param <K> how the caller names a partition (its number, or its {@link TopicPartition})
     */
    public static <K> Map<K, Long> await(String topic, Supplier<Map<K, Long>> committedEnds, Map<K, Long> high,
                                         Map<K, Long> from, Duration maxWait) throws InterruptedException {
        long deadline = System.nanoTime() + maxWait.toNanos();
        while (true) {
            Map<K, Long> end = committedEnds.get();
            boolean settled = high.entrySet().stream().allMatch(e -> end.getOrDefault(e.getKey(), 0L) >= e.getValue()
                    || from != null && end.getOrDefault(e.getKey(), 0L) > from.getOrDefault(e.getKey(), 0L));
            if (settled || System.nanoTime() > deadline) {
                if (!settled) {
                    LOG.info("topic {}: a transaction is still open (committed end offsets {}, written up to {}); its rows wait for a later batch",
                            topic, end, high);
                }
                return end;
            }
            Thread.sleep(20);
        }
    }

    /** The read_uncommitted end offsets (high watermarks) of {@code partitions}, each under {@code key}'s name for it. */
    public static <K> Map<K, Long> highWatermarks(Admin admin, List<TopicPartition> partitions, Function<TopicPartition, K> key)
            throws ExecutionException, InterruptedException {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(tp -> request.put(tp, OffsetSpec.latest()));
        Map<TopicPartition, ListOffsetsResultInfo> got = admin.listOffsets(request, new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED)).all().get();
        Map<K, Long> high = new LinkedHashMap<>();
        partitions.forEach(tp -> high.put(key.apply(tp), got.get(tp).offset()));
        return high;
    }
}
