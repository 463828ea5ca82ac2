package io.tributary.service.spec;

import io.tributary.expressions.SelectItems;
import io.tributary.service.spec.internal.SpecErrors;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * {@code transform.dropDuplicates} before an aggregation ({@code aggregate.*}), as Spark chains a deduplication and a
 * windowed aggregation under one watermark: what the spec must say for the two to share it, and for a key's rows and a
 * group's rows to meet on one partition. Refused otherwise, in one line naming the keys.
 */
final class DedupChecks {
    private DedupChecks() {
    }

    /** @param dedupKey a key of the deduplication the spec gives, to name in a refusal */
    static void beforeAggregation(PipelineSpec spec, String dedupKey, UnaryOperator<String> where) {
        String mode = spec.string(Settings.OUTPUT_MODE);
        if (mode != null && !mode.equalsIgnoreCase("append")) {
            throw SpecErrors.dropDuplicatesBeforeAggregateMode(where.apply(Settings.OUTPUT_MODE), dedupKey, mode);
        }
        if (spec.has(Settings.DEDUP_EVENT_TIME) && spec.has(Settings.EVENT_TIME)
                && !spec.string(Settings.DEDUP_EVENT_TIME).equalsIgnoreCase(spec.string(Settings.EVENT_TIME))) {
            throw SpecErrors.dropDuplicatesOtherWatermark(where.apply(Settings.DEDUP_EVENT_TIME), Settings.DEDUP_EVENT_TIME,
                    Settings.EVENT_TIME, spec.string(Settings.DEDUP_EVENT_TIME), spec.string(Settings.EVENT_TIME));
        }
        String delayKey = spec.has(Settings.DEDUP_WITHIN_WATERMARK) ? Settings.DEDUP_WITHIN_WATERMARK
                : spec.has(Settings.DEDUP_WATERMARK) ? Settings.DEDUP_WATERMARK : null;
        if (delayKey != null && spec.has(Settings.WATERMARK)) {
            Duration delay = spec.duration(delayKey);
            Duration watermark = spec.duration(Settings.WATERMARK);
            if (!delay.equals(watermark)) {
                throw SpecErrors.dropDuplicatesOtherWatermark(where.apply(delayKey), delayKey, Settings.WATERMARK,
                        spec.string(delayKey), spec.string(Settings.WATERMARK));
            }
        }
        int partitions = spec.integer(Settings.PARTITIONS);
        if (partitions > 1) {
            List<String> keys = spec.list(Settings.DEDUP_KEYS).stream().map(k -> k.toLowerCase(Locale.ROOT)).toList();
            List<String> groupBy = spec.has(Settings.GROUP_BY)
                    ? SelectItems.split(spec.string(Settings.GROUP_BY)).stream().map(SelectItems::name).toList() : List.of();
            for (String g : groupBy) {
                if (!keys.contains(g.toLowerCase(Locale.ROOT))) {
                    throw SpecErrors.dropDuplicatesApartFromGroups(where.apply(Settings.PARTITIONS), dedupKey, Settings.PARTITIONS,
                            partitions, g);
                }
            }
        }
    }
}
