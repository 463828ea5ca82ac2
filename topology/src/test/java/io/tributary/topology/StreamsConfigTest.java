package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.topology.internal.BoundedRocksDb;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyDescription;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    @Test
    void rocksDbKeepsIndexesAndMemtablesInOneBoundedCache(@TempDir Path stateDir) throws IOException {
        assertThat(WindowedAggregation.streamsConfig("revenue", "127.0.0.1:9092", stateDir, "revenue-0"))
                .containsEntry(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDb.class);
        List<String> options;
        try (AggregationDriver d = AggregationDriver.of(GoldenWindowsTest.goldenSpec(), stateDir);
             Stream<Path> files = Files.walk(stateDir)) {
            // the options the windows' store was opened with, as RocksDB wrote them beside its files
            Path written = files.filter(f -> f.getFileName().toString().startsWith("OPTIONS-")
                    && f.getParent().getFileName().toString().equals("aggregate-windows")).max(Path::compareTo).orElseThrow();
            options = Files.readAllLines(written).stream().map(String::strip).toList();
        }
        assertThat(options).contains("cache_index_and_filter_blocks=true", "max_write_buffer_number=2",
                "write_buffer_size=" + BoundedRocksDb.MEMORY_BYTES / 4);
    }
}
