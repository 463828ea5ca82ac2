package io.tributary.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.kafka.KafkaSourceSettings;
import io.tributary.kafka.KafkaSubscription;
import io.tributary.settings.Values;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Spark's {@code maxOffsetsPerTrigger} split over a topic written in transactions: as Spark's {@code rateLimit}, the shares
 * count to each partition's end offset, past the commit marker after its last record, and the next batch counts from
 * where Spark's ended; a bound itself stops at the last record, which a task can read up to.
 */
class BatchLimitsTest {
    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final TopicPartition P1 = new TopicPartition("t", 1);

    @Test
    void aCommitMarkerAtAPartitionsEndCountsInTheSplitAsInSpark() {
        BatchLimits limits = new BatchLimits(KafkaSubscription.of(Values.of(KafkaSourceSettings.ALL,
                Map.of("topics", "t", "schema", "id INT", "maxOffsetsPerTrigger", "3"))), false);
        // one transaction each: 8 records and their marker at 8 on partition 0, 4 and the marker at 4 on partition 1
        Map<TopicPartition, Long> tails = Map.of(P0, 8L, P1, 4L);
        Map<TopicPartition, Long> ends = Map.of(P0, 9L, P1, 5L);
        // Spark: 9 and 5 behind, floor(3 * 9/14) = 1 and floor(3 * 5/14) = 1 (by the last records: 2 and 1)
        SourceBatch b0 = batch(0, limits.next(null, Map.of(), tails, tps -> zeros(tps), tps -> ends));
        assertThat(b0.bounds()).isEqualTo(Map.of(P0, 1L, P1, 1L));
        // from 1 and 1: 8 and 4 behind, 2 and 1
        SourceBatch b1 = batch(1, limits.next(b0, Map.of(), tails, tps -> zeros(tps), tps -> ends));
        assertThat(b1.bounds()).isEqualTo(Map.of(P0, 3L, P1, 2L));
        // 6 and 3: 2 and 1; then 4 and 2: 2 and 1
        SourceBatch b2 = batch(2, limits.next(b1, Map.of(), tails, tps -> zeros(tps), tps -> ends));
        assertThat(b2.bounds()).isEqualTo(Map.of(P0, 5L, P1, 3L));
        SourceBatch b3 = batch(3, limits.next(b2, Map.of(), tails, tps -> zeros(tps), tps -> ends));
        assertThat(b3.bounds()).isEqualTo(Map.of(P0, 7L, P1, 4L));
        // 2 and 1 behind: Spark's batch ends at 9 and 5, past the markers; the bounds stop at the last records
        SourceBatch b4 = batch(4, limits.next(b3, Map.of(), tails, tps -> zeros(tps), tps -> ends));
        assertThat(b4.bounds()).isEqualTo(Map.of(P0, 8L, P1, 4L));
        // a second transaction on partition 1: records 5 to 7, its marker at 8; Spark counts 4 from its end at 5, so
        // the whole limit, 3, reaches the last record (counted from 4, its share would stop at 7)
        Map<TopicPartition, Long> later = Map.of(P0, 8L, P1, 8L);
        SourceBatch b5 = batch(5, limits.next(b4, Map.of(), later, tps -> zeros(tps), tps -> Map.of(P0, 9L, P1, 9L)));
        assertThat(b5.bounds()).isEqualTo(Map.of(P0, 8L, P1, 8L));
    }

    private static SourceBatch batch(long id, Map<TopicPartition, Long> bounds) {
        return new SourceBatch(id, null, new HashMap<>(bounds), Map.of());
    }

    private static Map<TopicPartition, Long> zeros(List<TopicPartition> tps) {
        Map<TopicPartition, Long> out = new HashMap<>();
        tps.forEach(tp -> out.put(tp, 0L));
        return out;
    }
}
