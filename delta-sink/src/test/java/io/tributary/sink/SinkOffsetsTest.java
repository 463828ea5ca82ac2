package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.TributaryException;
import java.util.Map;
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
    void foreignDomainMetadataGetsAClearError() {
        assertThatThrownBy(() -> SinkOffsets.parse("not json"))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("is not Tributary sink offsets");
    }
}
