package io.tributary.service.internal;

import io.tributary.ingest.IngestConfigBuilder;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.service.spec.Settings;
import io.tributary.settings.Values;
import io.tributary.source.DeltaSourceConfig;
import io.tributary.topology.DedupSettings;
import io.tributary.topology.DedupSpec;
import java.time.Duration;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * {@code transform.dropDuplicates}: the deduplication the pipeline runs between the source and the sink
 * (docs/transform.md), and what the file or Delta source does for it: place a key's rows on one partition, and carry
 * the deduplication's watermark in its batch markers.
 */
final class DedupParts {
    private DedupParts() {
    }

    static boolean given(PipelineSpec spec) {
        return DedupSettings.given(values(spec));
    }

    private static Values values(PipelineSpec spec) {
        return spec.values(Settings.TRANSFORM, DedupSettings.ALL);
    }

    /** The deduplication over the rows the transform makes, or null; a refusal is led by the spec line of its key. */
    static DedupSpec spec(PipelineSpec spec, Schema rows) {
        try {
            return DedupSettings.spec(values(spec), rows);
        } catch (TributaryException e) {
            String message = String.valueOf(e.getMessage());
            for (String key : Settings.TRANSFORM_DEDUP) {
                if (message.startsWith(key + ":") || message.startsWith(key + " and")) {
                    throw spec.has(key) ? ServiceErrors.at(spec.origin(key), e) : e;
                }
            }
            throw e;
        }
    }

    /**
     * Places the rows by the deduplication's keys (a key's rows on one partition, so one task sees them all)
     * and has every batch end with a marker, with the watermark of the deduplication's event time and delay.
     */
    static void placeRows(PipelineSpec spec, IngestConfigBuilder b) {
        place(spec, keys -> b.groupBy(keys).marksBatches(true), (eventTime, delay) -> b.eventTime(eventTime).watermarkDelay(delay));
    }

    /** As above, for a Delta source: the same keys place its rows, the same markers end its batches. */
    static void placeRows(PipelineSpec spec, DeltaSourceConfig.Builder b) {
        place(spec, keys -> b.groupBy(keys).marksBatches(true), (eventTime, delay) -> b.eventTime(eventTime).watermarkDelay(delay));
    }

    /** Hands the deduplication's keys to {@code byKeys}, and its event time and delay, when both are given, to {@code watermark}. */
    private static void place(PipelineSpec spec, Consumer<List<String>> byKeys, BiConsumer<String, Duration> watermark) {
        Values v = values(spec);
        if (!DedupSettings.given(v)) {
            return;
        }
        List<String> keys = v.get(DedupSettings.KEYS);
        byKeys.accept(keys == null ? List.of() : keys);
        String eventTime = v.get(DedupSettings.EVENT_TIME);
        Duration within = v.get(DedupSettings.WITHIN_WATERMARK);
        Duration delay = within != null ? within : v.get(DedupSettings.WATERMARK);
        if (eventTime != null && delay != null) {
            watermark.accept(eventTime, delay);
        }
    }
}
