package io.tributary.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Progress;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * The aggregation's progress names each topic it read under its own name, as Spark prints a
 * Kafka source's offsets: a pattern ({@code sales-.*}) or a list of topics is never a key, since
 * the lag probe asks Kafka about every key as a topic.
 */
class BatchProgressTest {
    @Test
    void aPatternSourcesOffsetsAreGivenPerMatchedTopic() {
        BatchProgress progress = new BatchProgress("sales/aggregate", "windowedAggregate", "tributary-sales", "sales-.*", null, null);
        Map<TopicPartition, Long> before = Map.of(new TopicPartition("sales-shop", 0), 2L);
        Map<TopicPartition, Long> now = Map.of(new TopicPartition("sales-shop", 0), 5L, new TopicPartition("sales-shop", 1), 3L,
                new TopicPartition("sales-web", 0), 4L);

        Progress.Source source = progress.next(0L, 10L, before, now, Map.of()).sources().get(0);

        assertThat(source.description()).isEqualTo("KafkaStreams[tributary-sales <- sales-.*]");
        assertThat(source.startOffset()).isEqualTo(Map.of("sales-shop", Map.of("0", 2L)));
        assertThat(source.endOffset()).isEqualTo(Map.of("sales-shop", Map.of("0", 5L, "1", 3L), "sales-web", Map.of("0", 4L)));
    }

    @Test
    void theFirstBatchStartsFromNoOffsets() {
        BatchProgress progress = new BatchProgress("sales/aggregate", "windowedAggregate", "tributary-sales", "sales-.*", null, null);

        Progress.Source source = progress.next(0L, 10L, Map.of(), Map.of(new TopicPartition("sales-web", 1), 7L), Map.of()).sources().get(0);

        assertThat(source.startOffset()).isEqualTo(Map.of());
        assertThat(source.endOffset()).isEqualTo(Map.of("sales-web", Map.of("1", 7L)));
    }

    @Test
    void anInstanceOverAPatternNamesItsShareByTopic() {
        Map<String, List<Integer>> share = Map.of("sales-shop", List.of(1), "sales-web", List.of(0, 2));
        BatchProgress progress = new BatchProgress("sales/aggregate", "windowedAggregate", "tributary-sales", "sales-.*", "a", () -> share);
        Map<TopicPartition, Long> now = Map.of(new TopicPartition("sales-shop", 0), 5L, new TopicPartition("sales-shop", 1), 3L,
                new TopicPartition("sales-web", 0), 4L);

        Progress.Source source = progress.next(0L, 10L, Map.of(), now, Map.of()).sources().get(0);

        assertThat(source.metrics()).containsEntry("instance", "a").containsEntry("partitions", share);
    }

    @Test
    void anInstanceOverTheEventsTopicListsItsBatchsPartitions() {
        BatchProgress progress = new BatchProgress("sales/aggregate", "windowedAggregate", "tributary-sales", "tributary-sales-events", "a",
                null);
        Map<TopicPartition, Long> now = Map.of(new TopicPartition("tributary-sales-events", 2), 5L,
                new TopicPartition("tributary-sales-events", 0), 3L);

        Progress.Source source = progress.next(0L, 10L, Map.of(), now, Map.of()).sources().get(0);

        assertThat(source.metrics()).containsEntry("instance", "a").containsEntry("partitions", List.of(0, 2));
    }
}
