package io.tributary.topology;

import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import io.tributary.topology.internal.DedupErrors;
import io.tributary.topology.internal.TopologyErrors;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Spark's streaming deduplication, as Spark writes it: {@code withWatermark(eventTime, delay)} then
 * {@code dropDuplicatesWithinWatermark(keys)} ({@link #withinWatermark()}), or {@code dropDuplicates(keys)}
 * with or without a watermark. Immutable; {@link #of} binds it to the rows' schema and checks it, failing
 * with an error that names the spec key ({@code transform.dropDuplicates.*}).
 *
 * <p>What each keeps in state per key, and when the key leaves it (Spark 4.2's rules): within the
 * watermark, the first row's event time plus the delay, evicted once the watermark reaches it; plain
 * {@code dropDuplicates} whose keys hold the event-time column, that event time, evicted once the
 * watermark reaches it; otherwise nothing ever leaves. With a watermark, a row whose event time is at or
 * before the watermark of the batch before is late: dropped and counted, whatever the keys.
 */
public final class DedupSpec {
    /** The prefix of the keys the spec writes the deduplication under, for refusals. */
    public static final String KEY = "transform.dropDuplicates";

    private final Schema input;
    private final List<String> keys;
    private final int[] keyIndex;
    private final String eventTime;
    private final int eventTimeIndex;
    private final Duration delay;
    private final boolean withinWatermark;
    private final boolean eventTimeInKeys;

    private DedupSpec(Schema input, List<String> keys, String eventTime, Duration delay, boolean withinWatermark) {
        this.input = input;
        if (keys == null || keys.isEmpty()) {
            throw DedupErrors.dedupWithoutKeys(KEY + ".keys");
        }
        List<String> names = new ArrayList<>();
        this.keyIndex = new int[keys.size()];
        for (int i = 0; i < keys.size(); i++) {
            int index = input.indexOf(keys.get(i));
            if (index < 0) {
                throw DedupErrors.dedupKeyNotInSchema(KEY + ".keys", keys.get(i), input.toDdl());
            }
            DataType.Kind kind = input.field(index).type().kind();
            if (kind == DataType.Kind.MAP) {
                throw DedupErrors.dedupKeyNotGroupable(KEY + ".keys", keys.get(i), input.field(index).type().ddl());
            }
            if (names.contains(input.field(index).name())) {
                throw DedupErrors.dedupKeyTwice(KEY + ".keys", keys.get(i));
            }
            keyIndex[i] = index;
            names.add(input.field(index).name());
        }
        this.keys = List.copyOf(names);
        if (delay != null && delay.isNegative()) {
            throw DedupErrors.dedupNegativeDelay(KEY + (withinWatermark ? ".withinWatermark" : ".watermark"), delay);
        }
        if (eventTime == null) {
            if (delay != null) {
                throw DedupErrors.dedupWatermarkWithoutEventTime(KEY + (withinWatermark ? ".withinWatermark" : ".watermark"),
                        KEY + ".eventTime");
            }
            this.eventTime = null;
            this.eventTimeIndex = -1;
        } else {
            int index = input.indexOf(eventTime);
            if (index < 0) {
                throw DedupErrors.dedupKeyNotInSchema(KEY + ".eventTime", eventTime, input.toDdl());
            }
            DataType.Kind kind = input.field(index).type().kind();
            if (kind != DataType.Kind.TIMESTAMP && kind != DataType.Kind.TIMESTAMP_NTZ) {
                throw DedupErrors.dedupEventTimeNotTimestamp(KEY + ".eventTime", eventTime, input.field(index).type().ddl());
            }
            if (delay == null) {
                throw DedupErrors.dedupEventTimeWithoutDelay(KEY + ".eventTime", KEY + ".withinWatermark", KEY + ".watermark");
            }
            this.eventTime = input.field(index).name();
            this.eventTimeIndex = index;
        }
        this.delay = delay;
        this.withinWatermark = withinWatermark;
        this.eventTimeInKeys = eventTime != null && this.keys.contains(this.eventTime);
    }

    /**
     * The deduplication over rows of {@code input}.
     *
     * @param keys the columns whose values make a row's key (Spark's {@code dropDuplicates(keys)})
     * @param eventTime the event-time column of {@code withWatermark}, or null for no watermark
     * @param delay the watermark's delay ({@code withWatermark(eventTime, delay)}), null exactly when {@code eventTime} is
     * @param withinWatermark Spark's {@code dropDuplicatesWithinWatermark}: a key is kept until the watermark
     *                        passes its first row's event time plus the delay; needs the watermark
     */
    public static DedupSpec of(Schema input, List<String> keys, String eventTime, Duration delay, boolean withinWatermark) {
        if (input == null) {
            throw TopologyErrors.noInputSchema();
        }
        if (withinWatermark && eventTime == null) {
            throw DedupErrors.withinWatermarkWithoutEventTime(KEY + ".withinWatermark", KEY + ".eventTime");
        }
        return new DedupSpec(input, keys, eventTime, delay, withinWatermark);
    }

    public Schema inputSchema() {
        return input;
    }

    public List<String> keys() {
        return keys;
    }

    public int[] keyIndex() {
        return keyIndex.clone();
    }

    /** The event-time column, or null without a watermark. */
    public String eventTime() {
        return eventTime;
    }

    /** The event-time column's index, or -1. */
    public int eventTimeIndex() {
        return eventTimeIndex;
    }

    /** The watermark's delay, or null without a watermark. */
    public Duration delay() {
        return delay;
    }

    public boolean hasWatermark() {
        return eventTime != null;
    }

    public boolean withinWatermark() {
        return withinWatermark;
    }

    /** True when keys leave the state as the watermark passes: within the watermark, or the event time among the keys. */
    public boolean evicts() {
        return withinWatermark || eventTimeInKeys;
    }

    /** True when the event-time column is one of the keys (plain {@code dropDuplicates} then evicts by it). */
    public boolean eventTimeInKeys() {
        return eventTimeInKeys;
    }

    /** Spark's name of the state operator in a progress line: {@code dedupeWithinWatermark} or {@code dedupe}. */
    public String operatorName() {
        return withinWatermark ? "dedupeWithinWatermark" : "dedupe";
    }
}
