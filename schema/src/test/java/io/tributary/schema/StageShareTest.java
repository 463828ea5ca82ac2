package io.tributary.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A share as {@code /instance} prints it: partitions of one input topic as before, a Kafka source's by topic. */
class StageShareTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void oneInputTopicsShareHasNoTopicsKey() throws Exception {
        assertThat(JSON.writeValueAsString(new StageShare(null, List.of(0, 2), List.of("0_0", "0_2"), List.of("0_1"))))
                .isEqualTo("{\"role\":null,\"partitions\":[0,2],\"activeTasks\":[\"0_0\",\"0_2\"],\"standbyTasks\":[\"0_1\"]}");
    }

    @Test
    void aKafkaSourcesShareNamesItsPartitionsByTopic() throws Exception {
        StageShare share = new StageShare(null, List.of(), List.of("0_0"), List.of(), Map.of("sales-shop", List.of(0)));
        assertThat(JSON.readTree(JSON.writeValueAsString(share)).path("topics").toString()).isEqualTo("{\"sales-shop\":[0]}");
    }
}
