package io.tributary.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.kafka.KafkaSourceSettings;
import io.tributary.kafka.KafkaSubscription;
import io.tributary.settings.Values;
import io.tributary.topology.KafkaInput;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

/**
 * A batch over a Kafka source names the partitions it knows, which give the source tasks that end it; the markers say
 * how many; the changelogs that grow with the tasks are those of the sub-topology that reads the source.
 */
class SourceBatchTest {
    private static final TopicPartition A0 = new TopicPartition("a", 0);
    private static final TopicPartition A1 = new TopicPartition("a", 1);
    private static final TopicPartition B2 = new TopicPartition("b", 2);

    @Test
    void aBatchKeepsItsKnownPartitionsAndCountsATaskPerPartitionNumber() {
        SourceBatch b = new SourceBatch(7, 1000L, Map.of(A0, 5L, B2, 3L), Map.of(), Set.of(A0, A1, B2));
        SourceBatch read = SourceBatch.parse(b.toJson());
        assertThat(read).isEqualTo(b);
        assertThat(read.tasks(1)).as("partitions 0, 1 and 2: three tasks, whatever the run began with").isEqualTo(3);
        assertThat(new SourceBatch(0, null, Map.of(), Map.of(), Set.of()).tasks(4)).as("no partition yet: one task").isEqualTo(1);
    }

    @Test
    void aBatchWrittenBeforeBatchesNamedTheirPartitionsCountsTheRunsTasks() {
        SourceBatch old = SourceBatch.parse("{\"batchId\":3,\"watermarkMs\":null,\"bounds\":{\"a\":{\"0\":5}},\"starts\":{}}"
                .getBytes(StandardCharsets.UTF_8));
        assertThat(old.known()).isNull();
        assertThat(old.tasks(2)).isEqualTo(2);
    }

    @Test
    void aSourceTasksMarkerSaysHowManySourceTasksWriteIt() {
        assertThat(Marker.parse(Marker.ofSourceTask(4, 60_000L, 3), "test")).isEqualTo(new Marker(4, 60_000L, false, 3));
        assertThat(Marker.parse("{\"batchId\":4,\"watermarkMs\":null}".getBytes(StandardCharsets.UTF_8), "test").sources())
                .as("a marker of the events topic").isZero();
    }

    @Test
    void theChangelogsThatGrowAreThoseOfTheStoresOfTheTasksThatReadTheSource() {
        KafkaSubscription s = KafkaSubscription.of(Values.of(KafkaSourceSettings.ALL, Map.of("topicPattern", "sales-.*",
                "schema", "id INT, user STRING", "maxOffsetsPerTrigger", "10")));
        Topology t = new Topology();
        Names names = new Names("agg");
        SourceWiring.source(t, names, "events", new SourceWiring.Kafka(new KafkaInput(s, "drop", null, 2, 2), "app", "stage", -1,
                List.of("user")));
        assertThat(SourceChangelogs.changelogs("app", s, t.describe())).as("the front's stores, not the rows' sub-topology's")
                .containsExactlyInAnyOrder("app-agg-kafka-source-position-changelog", "app-agg-kafka-source-held-changelog",
                        "app-agg-kafka-source-commit-hook-changelog");
        SourceChangelogs changelogs = new SourceChangelogs(Map.of("bootstrap.servers", "127.0.0.1:1"), "app", s, t);
        String refused = "Existing internal topic app-agg-kafka-source-position-changelog has invalid partitions: expected: 3; actual: 2.";
        assertThat(changelogs.refusedBy(new RuntimeException(new StreamsException(refused)))).as("a thread stopped on it").isTrue();
        assertThat(changelogs.refusedBy(new StreamsException(refused.replace("app-agg-kafka-source", "app-agg-batch-merge"))))
                .as("another sub-topology's changelog").isFalse();
    }
}
