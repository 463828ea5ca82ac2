package io.tributary.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.expressions.RowTransform;
import io.tributary.schema.Schema;
import io.tributary.settings.Values;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An aggregation grouping by the batch's date: the source computes the key, one value for each batch's rows. */
class BatchTimeGroupByTest {
    private static final Schema STREAM = Schema.parse("id INT, amt DOUBLE");
    private static final Instant LATE = Instant.parse("2026-12-06T23:59:59.999Z");
    private static final int DAY = (int) LocalDate.parse("2026-12-06").toEpochDay();

    @Test
    void theFileSourceComputesTheGroupingKeyOfItsBatch() {
        IngestConfig c = IngestConfig.builder("p", Path.of("in"), STREAM).transform(null, List.of("id"))
                .alsoSelect(List.of("current_date() AS `_agg_g`"), "aggregate.groupBy").build();
        assertThat(c.outputSchema().toDdl()).isEqualTo("id INT, _agg_g DATE");
        assertThat(c.transform().readsBatchTime()).isTrue();
        c.transform().startBatch(LATE);
        assertThat(c.transform().apply(new Object[] {1, 2.0})).containsExactly(1, DAY);
        assertThat(c.transform().apply(new Object[] {2, 3.0})).containsExactly(2, DAY);
        c.transform().startBatch(LATE.plusMillis(1));
        assertThat(c.transform().apply(new Object[] {3, 4.0})).as("the next batch, the next day").containsExactly(3, DAY + 1);
    }

    @Test
    void aKafkaOrDeltaSourcesTransformTakesTheBatchsStartWithItsJoins() {
        Values none = Values.localized(List.of(TransformSettings.SQL, TransformSettings.JOIN_MAX_ROWS), s -> s, Map.<String, String>of()::get,
                (s, t, e) -> e);
        RowTransform t = RowTransforms.compile(none, STREAM, null, Map.of("current_timestamp() AS `_agg_g`", "aggregate.groupBy"));
        t.startBatch(LATE);
        long micros = LATE.toEpochMilli() * 1000L;
        assertThat(t.apply(new Object[] {1, 2.0})).singleElement().satisfies(r -> assertThat(r).containsExactly(1, 2.0, micros));
        t.startBatch(LATE.plusSeconds(5));
        assertThat(t.apply(new Object[] {2, 2.0})).singleElement().satisfies(r -> assertThat(r).containsExactly(2, 2.0, micros + 5_000_000L));
    }
}
