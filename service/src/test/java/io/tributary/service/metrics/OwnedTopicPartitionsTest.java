package io.tributary.service.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * The gauges of what an instance owns of a Kafka source's topics: one per topic and partition, published at
 * the scrape after the instance first owns it (a topic a pattern matched later too), reading 0 once it moved
 * away; the stage's gauges per bare partition number go.
 */
class OwnedTopicPartitionsTest {
    @Test
    void aTopicPartitionShowsFromTheScrapeAfterItIsOwnedAndReadsZeroOnceItMoved() {
        Map<String, List<Integer>> owned = new ConcurrentHashMap<>(Map.of("sales-shop", List.of(0, 2)));
        try (PipelineMetrics m = new PipelineMetrics("sales")) {
            m.ownedPartition("sales/aggregate", 0, () -> 0);
            m.beforeScrape(() -> {
                m.dropOwnedPartitions("sales/aggregate");
                owned.forEach((topic, ps) -> ps.forEach(p -> m.ownedTopicPartition("sales/aggregate", topic, p,
                        () -> owned.getOrDefault(topic, List.of()).contains(p) ? 1 : 0)));
            });

            String first = m.scrape();
            assertThat(first).contains(gauge("sales-shop", 0, "1.0"), gauge("sales-shop", 2, "1.0"))
                    .doesNotContain("tributary_instance_partition_owned{");

            owned.put("sales-web", List.of(1)); // a topic created to match the pattern
            owned.put("sales-shop", List.of(2)); // partition 0 moved to another instance
            assertThat(m.scrape()).contains(gauge("sales-shop", 0, "0.0"), gauge("sales-shop", 2, "1.0"), gauge("sales-web", 1, "1.0"));
        }
    }

    private static String gauge(String topic, int partition, String value) {
        return "tributary_instance_topic_partition_owned{partition=\"" + partition + "\",pipeline=\"sales\",stage=\"sales/aggregate\",topic=\""
                + topic + "\"} " + value;
    }
}
