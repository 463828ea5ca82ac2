package io.tributary.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Spark's maxOffsetsPerTrigger split: in proportion to each partition's lag, rounded down, a lagging partition never starved. */
class RateLimitTest {
    @Test
    void splitsTheLimitInProportionToTheLag() {
        assertThat(RateLimit.cap(3, Map.of(0, 0L, 1, 0L), Map.of(0, 8L, 1, 4L))).isEqualTo(Map.of(0, 2L, 1, 1L));
        assertThat(RateLimit.cap(100, Map.of(0, 10L, 1, 0L), Map.of(0, 110L, 1, 300L))).isEqualTo(Map.of(0, 35L, 1, 75L));
    }

    @Test
    void aSmallPartitionGetsAtLeastOneAndNoPartitionPassesItsEnd() {
        assertThat(RateLimit.cap(10, Map.of(0, 0L, 1, 0L), Map.of(0, 1000L, 1, 1L))).isEqualTo(Map.of(0, 9L, 1, 1L));
        assertThat(RateLimit.cap(1000, Map.of(0, 5L), Map.of(0, 7L))).isEqualTo(Map.of(0, 7L));
    }

    @Test
    void noLimitOrNothingBehindLeavesTheEndAsItIs() {
        assertThat(RateLimit.cap(0, Map.of(0, 0L), Map.of(0, 50L))).isEqualTo(Map.of(0, 50L));
        assertThat(RateLimit.cap(5, Map.of(0, 50L), Map.of(0, 50L))).isEqualTo(Map.of(0, 50L));
    }
}
