package io.tributary.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Spark's minOffsetsPerTrigger and maxTriggerDelay ({@code KafkaMicroBatchStream.delayBatch}), on an explicit clock. */
class MinOffsetsTest {
    private static final long T0 = 1_767_261_600_000L;

    @Test
    void theFirstTriggerRunsThenABatchWaitsForTheMinimumOverAllPartitions() {
        MinOffsets min = new MinOffsets(new MinOffsets.Limit(5, Duration.ofMinutes(15)));
        assertThat(min.delays(Map.of(0, 0L), Map.of(0, 1L), T0)).as("the query's first trigger").isFalse();
        assertThat(min.delays(Map.of(0, 1L, 1, 0L), Map.of(0, 3L, 1, 2L), T0 + 1000)).as("4 offsets").isTrue();
        assertThat(min.delays(Map.of(0, 1L), Map.of(0, 3L, 1, 3L), T0 + 2000)).as("5: a partition not read yet counts from 0")
                .isFalse();
    }

    @Test
    void maxTriggerDelayAfterTheLastBatchRunsOneWithFewer() {
        MinOffsets min = new MinOffsets(new MinOffsets.Limit(100, Duration.ofSeconds(30)));
        assertThat(min.delays(Map.of(0, 0L), Map.of(0, 0L), T0)).isFalse();
        assertThat(min.delays(Map.of(0, 0L), Map.of(0, 7L), T0 + 29_999)).isTrue();
        assertThat(min.delays(Map.of(0, 0L), Map.of(0, 7L), T0 + 30_000)).isFalse();
        assertThat(min.delays(Map.of(0, 7L), Map.of(0, 9L), T0 + 30_001)).as("the clock starts again at the last batch").isTrue();
        assertThat(min.delays(Map.of(0, 7L), Map.of(0, 107L), T0 + 30_002)).isFalse();
        assertThat(min.delays(Map.of(0, 107L), Map.of(0, 108L), T0 + 59_999)).as("30 s after the batch at +30,002 ms: not yet")
                .isTrue();
    }
}
