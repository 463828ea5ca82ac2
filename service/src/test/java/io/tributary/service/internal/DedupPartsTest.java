package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.ingest.IngestConfig;
import io.tributary.schema.Schema;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.testing.Specs;
import io.tributary.topology.DedupSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code transform.dropDuplicates} in a spec: the deduplication over the rows the transform makes, the file
 * source placing rows by its keys with its watermark, and the refusals, each led by the spec line of its key.
 */
class DedupPartsTest {
    private static final Schema SEED = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");

    @TempDir
    Path dir;

    private PipelineSpec load(String transform) throws IOException {
        Path f = dir.resolve("pipeline.yaml");
        Files.writeString(f, Specs.QUICKSTART + "transform:\n" + transform);
        return PipelineSpec.load(f, Map.of(), Map.of());
    }

    @Test
    void theFileSourcePlacesRowsByTheKeysAndCarriesTheDeduplicationsWatermark() throws IOException {
        PipelineSpec spec = load("  select: [\"*\", \"upper(user) AS u\"]\n  dropDuplicates: { keys: [u, id], eventTime: ts, withinWatermark: 1 hour }\n");
        Schema rows = PipelineParts.ingestConfig(spec, SEED, null).outputSchema();
        DedupSpec dedup = DedupParts.spec(spec, rows);
        assertThat(dedup.keys()).containsExactly("u", "id");
        assertThat(dedup.withinWatermark()).isTrue();
        assertThat(dedup.delay()).isEqualTo(Duration.ofHours(1));
        IngestConfig ingest = PipelineParts.ingestConfig(spec, SEED, null, true);
        assertThat(ingest.groupBy()).containsExactly("u", "id");
        assertThat(ingest.eventTime()).isEqualTo("ts");
        assertThat(ingest.watermarkDelay()).isEqualTo(Duration.ofHours(1));
        assertThat(ingest.marksBatches()).isTrue();
    }

    @Test
    void withoutAWatermarkEveryBatchIsStillMarked() throws IOException {
        PipelineSpec spec = load("  dropDuplicates: { keys: [id] }\n");
        IngestConfig ingest = PipelineParts.ingestConfig(spec, SEED, null, true);
        assertThat(ingest.hasWatermark()).isFalse();
        assertThat(ingest.marksBatches()).isTrue();
        assertThat(DedupParts.spec(spec, SEED).evicts()).isFalse();
    }

    @Test
    void aKeyTheRowsLackIsRefusedAtItsSpecLine() throws IOException {
        PipelineSpec spec = load("  select: [id, ts]\n  dropDuplicates:\n    keys: [user]\n");
        Schema rows = PipelineParts.ingestConfig(spec, SEED, null).outputSchema();
        assertThatThrownBy(() -> DedupParts.spec(spec, rows))
                .hasMessageContaining("line 14: transform.dropDuplicates.keys: no column 'user'; the rows have id INT, ts TIMESTAMP");
    }

    @Test
    void beforeAnAggregationInUpdateModeOrAnotherWatermarkOrApartFromItsGroupsOrIntoAnUpsertIsRefused()
            throws IOException {
        String aggregate = "aggregate:\n  eventTime: ts\n  watermark: 10 minutes\n  window: 10 minutes\n  groupBy: [user]\n"
                + "  select: { n: count(*) }\n";
        assertThat(load("  dropDuplicates: { keys: [id], eventTime: ts, withinWatermark: 10 minutes }\n" + aggregate)
                .has("aggregate.window")).isTrue();
        assertThatThrownBy(() -> load("  dropDuplicates: { keys: [id] }\n" + aggregate + "outputMode: update\n"))
                .hasMessageContaining("key 'transform.dropDuplicates.keys' drops duplicates before the aggregation, whose outputMode is"
                        + " update: a deduplication before an aggregation writes its windows in append mode only");
        assertThatThrownBy(() -> load("  dropDuplicates: { keys: [id], eventTime: ts, withinWatermark: 1 hour }\n" + aggregate))
                .hasMessageContaining("key 'transform.dropDuplicates.withinWatermark' is 1 hour, but 'aggregate.watermark' is 10 minutes");
        assertThatThrownBy(() -> load("  dropDuplicates: { keys: [id] }\n" + aggregate + "topic:\n  partitions: 3\n"))
                .hasMessageContaining("key 'topic.partitions' is 3, and 'transform.dropDuplicates.keys' drops duplicates before an"
                        + " aggregation by 'user', which is not a key of the deduplication");
        Path f = dir.resolve("pipeline.yaml");
        Files.writeString(f, Specs.QUICKSTART + "transform:\n  dropDuplicates: { keys: [id] }\n");
        assertThatThrownBy(() -> PipelineSpec.load(f, Map.of(), Map.of("sink.delta.mode", "upsert", "sink.delta.keys", "id")))
                .hasMessageContaining("'sink.delta.mode' is upsert");
    }
}
