package io.tributary.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.TributaryException;
import org.junit.jupiter.api.Test;

class DeltaSourceConfigTest {
    @Test
    void defaultsFollowSparkAndTheTopicContract() {
        DeltaSourceConfig c = DeltaSourceConfig.builder("silver", "../bronze/out/").build();
        assertThat(c.topic()).isEqualTo("tributary.silver.events");
        assertThat(c.progressTopic()).isEqualTo("tributary.silver.delta-source-log");
        assertThat(c.transactionalId()).isEqualTo("tributary-silver-delta-source");
        assertThat(c.startingVersion()).isEqualTo(StartingVersion.snapshot());
        assertThat(c.maxFilesPerTrigger()).isEqualTo(1000);
        assertThat(c.maxBytesPerTrigger()).isZero();
        assertThat(c.skipChangeCommits()).isFalse();
        assertThat(c.ignoreDeletes()).isFalse();
        assertThat(c.readChangeFeed()).isFalse();
        assertThat(c.stageName()).isEqualTo("silver/delta-source");
        assertThat(c.toBuilder().topic("t").build().topic()).isEqualTo("t");
    }

    @Test
    void startingVersionIsANumberLatestOrAbsent() {
        assertThat(StartingVersion.parse("5")).isEqualTo(StartingVersion.at(5));
        assertThat(StartingVersion.parse(" Latest ")).isEqualTo(StartingVersion.latest());
        assertThat(StartingVersion.parse(null)).isEqualTo(StartingVersion.snapshot());
        assertThatThrownBy(() -> StartingVersion.parse("yesterday")).isInstanceOf(TributaryException.class)
                .hasMessageContaining("neither a version number nor 'latest'");
        assertThatThrownBy(() -> StartingVersion.parse("-1")).hasMessageContaining("negative");
    }

    @Test
    void batchLimitsMustBePositive() {
        assertThatThrownBy(() -> DeltaSourceConfig.builder("p", "t").maxFilesPerTrigger(0).build())
                .hasMessageContaining("maxFilesPerTrigger is 0");
        assertThatThrownBy(() -> DeltaSourceConfig.builder("p", "t").maxBytesPerTrigger(-1).build())
                .hasMessageContaining("maxBytesPerTrigger is -1");
        assertThatThrownBy(() -> DeltaSourceConfig.builder("p", " ").build()).hasMessageContaining("no table path");
    }
}
