package io.tributary.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.TributaryException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Spark's startingOffsets: earliest, latest, or its JSON of offsets per partition (-2 earliest, -1 latest). */
class StartingOffsetsTest {
    @Test
    void readsTheThreeFormsAsSparkWritesThem() {
        assertThat(StartingOffsets.parse("k", "earliest").kind()).isEqualTo(StartingOffsets.Kind.EARLIEST);
        assertThat(StartingOffsets.parse("k", " LATEST ").kind()).isEqualTo(StartingOffsets.Kind.LATEST);
        StartingOffsets json = StartingOffsets.parse("k", "{\"orders\":{\"0\":42,\"1\":-2},\"refunds\":{\"0\":-1}}");
        assertThat(json.kind()).isEqualTo(StartingOffsets.Kind.SPECIFIC);
        assertThat(json.offsets()).isEqualTo(Map.of("orders", Map.of(0, 42L, 1, -2L), "refunds", Map.of(0, -1L)));
    }

    @Test
    void anythingElseIsRefusedNamingTheKeyAndTheForms() {
        assertThatThrownBy(() -> StartingOffsets.parse("source.kafka.startingOffsets", "newest")).isInstanceOf(TributaryException.class)
                .hasMessageContaining("key 'source.kafka.startingOffsets' is 'newest': not earliest, latest or a JSON object")
                .hasMessageContaining("(-2 earliest, -1 latest)");
        assertThatThrownBy(() -> StartingOffsets.parse("k", "{\"orders\":{\"0\":-3}}"))
                .hasMessageContaining("topic orders partition 0: -3 is not a partition number and an offset of at least -2");
        assertThatThrownBy(() -> StartingOffsets.parse("k", "{\"orders\":{\"x\":1}}")).hasMessageContaining("partition x");
        assertThatThrownBy(() -> StartingOffsets.parse("k", "{\"orders\":1}")).hasMessageContaining("no object of partitions");
        assertThatThrownBy(() -> StartingOffsets.parse("k", "{}")).hasMessageContaining("names no topic");
        assertThatThrownBy(() -> StartingOffsets.parse("k", "{\"orders\":")).hasMessageContaining("not valid JSON");
    }
}
