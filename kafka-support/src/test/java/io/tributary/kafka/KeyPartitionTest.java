package io.tributary.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;

class KeyPartitionTest {
    @Test
    void aKeyGoesWhereKafkasDefaultPartitionerSendsIt() {
        for (String key : new String[] {"[\"a\"]", "[\"b\"]", "[\"a\",3]", "[null]", "[\"2026-01-01T10:00:00Z\",1.5,2.50]"}) {
            byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
            for (int partitions : new int[] {1, 3, 12}) {
                assertThat(KeyPartition.of(bytes, partitions)).as("%s among %d", key, partitions)
                        .isEqualTo(BuiltInPartitioner.partitionForKey(bytes, partitions));
            }
        }
    }
}
