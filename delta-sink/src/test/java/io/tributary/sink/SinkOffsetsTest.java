package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.TributaryException;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class SinkOffsetsTest {
    @Test
    void offsetsStoredInTheTableReadBackEqual() {
        SinkOffsets o = new SinkOffsets("tributary-q-sink", "tributary.q.events", "AbCd", Map.of(1, 7L, 0, 12L));

        assertThat(o.toJson()).isEqualTo("{\"appId\":\"tributary-q-sink\",\"topic\":\"tributary.q.events\",\"topicId\":\"AbCd\","
                + "\"offsets\":{\"0\":12,\"1\":7}}");
        assertThat(SinkOffsets.parse(o.toJson())).isEqualTo(o);
        assertThat(o.sparkJson()).isEqualTo(Map.of("tributary.q.events", Map.of("0", 12L, "1", 7L)));
    }

    @Test
    void instancesOnAClusterRecordItWithTheOffsets() {
        SinkOffsets o = new SinkOffsets("tributary-q-sink", "tributary.q.events", "AbCd", Map.of(0, 12L), "k1:9092,k2:9092");

        assertThat(o.toJson()).endsWith(",\"cluster\":\"k1:9092,k2:9092\"}");
        assertThat(SinkOffsets.parse(o.toJson())).isEqualTo(o);
        assertThat(SinkOffsets.parse(new SinkOffsets("a", "t", "id", Map.of(0, 1L)).toJson()).cluster()).isNull();
    }

    @Test
    void aKafkaSourceOfSeveralTopicsRecordsEachNumbersTopicPartition() {
        SinkOffsets o = new SinkOffsets("tributary-o-sink", "orders,refunds", null, Map.of(0, 5L, 1, 3L, 2, 9L), null,
                Map.of(0, new TopicPartition("orders", 0), 1, new TopicPartition("orders", 1), 2, new TopicPartition("refunds", 0)));

        assertThat(o.toJson()).endsWith(",\"sources\":{\"0\":\"orders:0\",\"1\":\"orders:1\",\"2\":\"refunds:0\"}}");
        assertThat(SinkOffsets.parse(o.toJson())).isEqualTo(o);
        assertThat(o.sparkJson()).isEqualTo(Map.of("orders", Map.of("0", 5L, "1", 3L), "refunds", Map.of("0", 9L)));
    }

    @Test
    void foreignDomainMetadataGetsAClearError() {
        assertThatThrownBy(() -> SinkOffsets.parse("not json"))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("is not Tributary sink offsets");
    }
}
