package io.tributary.sink.internal;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link TopicReader}'s end offsets once the transactions that had written records are
 * complete: a producer's {@code commitTransaction()} returns before the brokers write the
 * markers, so right after it the committed end offsets can still lag behind the rows it published.
 */
final class SettledEnds {
    private static final Logger LOG = LoggerFactory.getLogger(SettledEnds.class);

    private SettledEnds() {
    }

    /**
     * The committed end offsets, once they reach {@code high} on every partition, or after {@code maxWait};
     * with {@code from} (the reader's positions), a partition is settled too once its committed end
     * moved past its position there: what is still open then is a later transaction.
     */
    static Map<Integer, Long> await(String topic, Supplier<Map<Integer, Long>> committedEnds, Map<Integer, Long> high,
                                    Map<Integer, Long> from, Duration maxWait) {
        long deadline = System.nanoTime() + maxWait.toNanos();
        while (true) {
            Map<Integer, Long> end = committedEnds.get();
            boolean settled = high.entrySet().stream().allMatch(e -> end.getOrDefault(e.getKey(), 0L) >= e.getValue()
                    || from != null && end.getOrDefault(e.getKey(), 0L) > from.getOrDefault(e.getKey(), 0L));
            if (settled || System.nanoTime() > deadline) {
                if (!settled) {
                    LOG.info("topic {}: a transaction is still open (committed end offsets {}, written up to {}); its rows wait for a later batch",
                            topic, end, high);
                }
                return end;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw SinkErrors.interruptedAwaitingTransactions(topic, e);
            }
        }
    }

    /** The read_uncommitted end offsets (high watermarks) of {@code partitions}, under their numbers. */
    static Map<Integer, Long> highWatermarks(Admin admin, String topic, List<TopicPartition> partitions, ToIntFunction<TopicPartition> number) {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(tp -> request.put(tp, OffsetSpec.latest()));
        try {
            Map<Integer, Long> high = new TreeMap<>();
            admin.listOffsets(request, new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED)).all().get()
                    .forEach((tp, info) -> high.put(number.applyAsInt(tp), info.offset()));
            return high;
        } catch (ExecutionException e) {
            throw SinkErrors.cannotReadEndOffsets(topic, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw SinkErrors.interruptedReadingEndOffsets(topic, e);
        }
    }
}
