package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyDescription;
import org.junit.jupiter.api.Test;

/** The settings a restart relies on, and the shape of the topology a service wires. */
class StreamsConfigTest {
    @Test
    void exactlyOnceWithExplicitStateDirAndStaticMembership() {
        Properties p = WindowedAggregation.streamsConfig("revenue", "127.0.0.1:9092", Path.of("/var/tributary/state"), "revenue-0");
        assertThat(p).containsEntry(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, "exactly_once_v2")
                .containsEntry(StreamsConfig.STATE_DIR_CONFIG, "/var/tributary/state")
                .containsEntry("consumer.group.instance.id", "revenue-0")
                .containsEntry("consumer.session.timeout.ms", 10_000)
                .containsEntry(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 60_000)
                .containsEntry("producer.transaction.timeout.ms", 60_000);
        assertThat(new StreamsConfig(p).getMainConsumerConfigs("revenue", "c", 0).get("group.instance.id")).asString()
                .startsWith("revenue-0");
    }

    @Test
    void topologyReadsEventsAndWritesResultsAndLateRowsWithTheirStores() {
        TopologyDescription d = WindowedAggregation.build(GoldenWindowsTest.goldenSpec(), "ev", "res", "late").describe();
        String text = d.toString();
        assertThat(text).contains("topics: [ev]", "topic: res", "topic: late", "stores: [aggregate-windows, aggregate-commit-hook, aggregate-meta]");
        assertThat(WindowedAggregation.build(GoldenWindowsTest.goldenSpec(), "ev", "res", null).describe().toString())
                .doesNotContain("late");
    }
}
