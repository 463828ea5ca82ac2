package io.tributary.topology;

import io.tributary.schema.Schema;
import io.tributary.settings.Setting;
import io.tributary.settings.Values;
import io.tributary.topology.internal.DedupErrors;
import java.time.Duration;
import java.util.List;

/**
 * The deduplication's settings under their own names; a spec writes them under {@code transform.}
 * ({@code transform.dropDuplicates.keys} ...). {@link #spec} reads them.
 */
public final class DedupSettings {
    public static final Setting<List<String>> KEYS = Setting.list("dropDuplicates.keys", "Spark's dropDuplicates(keys): the columns"
            + " whose values make a row's key; only the first row of each key is kept (docs/transform.md)");
    public static final Setting<String> EVENT_TIME = Setting.string("dropDuplicates.eventTime", "the event-time column of the"
            + " deduplication's watermark (Spark's withWatermark(column, delay)); needs withinWatermark or watermark");
    public static final Setting<Duration> WITHIN_WATERMARK = Setting.duration("dropDuplicates.withinWatermark", "Spark's"
            + " withWatermark(eventTime, delay).dropDuplicatesWithinWatermark(keys): a key is dropped until the watermark passes"
            + " its first row's event time plus this delay, then forgotten");
    public static final Setting<Duration> WATERMARK = Setting.duration("dropDuplicates.watermark", "Spark's withWatermark(eventTime,"
            + " delay).dropDuplicates(keys): rows behind the watermark are dropped; a key is forgotten once the watermark passes"
            + " it only when eventTime is among the keys; absent (and no withinWatermark): keys are kept forever");

    /** The settings under {@code transform.}, in the order the documentation lists them. */
    public static final List<Setting<?>> ALL = List.of(KEYS, EVENT_TIME, WITHIN_WATERMARK, WATERMARK);

    private DedupSettings() {
    }

    /** True when {@code values} ask for a deduplication (any of its settings given). */
    public static boolean given(Values values) {
        return ALL.stream().anyMatch(values::has);
    }

    /** The deduplication {@code values} give over rows of {@code input}, or null when they give none. */
    public static DedupSpec spec(Values values, Schema input) {
        if (!given(values)) {
            return null;
        }
        Duration within = values.get(WITHIN_WATERMARK);
        Duration watermark = values.get(WATERMARK);
        if (within != null && watermark != null) {
            throw DedupErrors.bothDelays(values.name(WITHIN_WATERMARK), values.name(WATERMARK));
        }
        return DedupSpec.of(input, values.get(KEYS), values.get(EVENT_TIME), within != null ? within : watermark, within != null);
    }
}
