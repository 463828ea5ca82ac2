package io.tributary.service.spec;

import io.tributary.schema.Durations;
import io.tributary.service.spec.internal.SpecErrors;
import java.time.Duration;

/**
 * When batches run, with Spark's four triggers: the default (the next batch starts as soon as
 * the previous ends), {@code processingTime} (fixed intervals), {@code availableNow} (all that is
 * there, in as many batches as the limits need, then stop) and {@code once} (deprecated in
 * Spark: one batch, then stop).
 */
public record Trigger(Kind kind, Duration interval) {
    public enum Kind { DEFAULT, PROCESSING_TIME, AVAILABLE_NOW, ONCE }

    /** Parses {@code availableNow}, {@code once}, {@code processingTime=1 minute} or null (the default). */
    public static Trigger parse(String text) {
        if (text == null || text.isBlank() || text.equalsIgnoreCase("default")) {
            return new Trigger(Kind.DEFAULT, Duration.ZERO);
        }
        String t = text.strip();
        if (t.equalsIgnoreCase("availableNow")) {
            return new Trigger(Kind.AVAILABLE_NOW, Duration.ZERO);
        }
        if (t.equalsIgnoreCase("once")) {
            return new Trigger(Kind.ONCE, Duration.ZERO);
        }
        String[] kv = t.split("[=:]", 2);
        if (kv.length == 2 && kv[0].strip().equalsIgnoreCase("processingTime")) {
            return new Trigger(Kind.PROCESSING_TIME, io.tributary.settings.Setting.duration("trigger.processingTime", "").parse("trigger.processingTime", kv[1].strip()));
        }
        throw SpecErrors.unknownTrigger(text);
    }

    /** Whether the run stops once what was there is processed. */
    public boolean bounded() {
        return kind == Kind.AVAILABLE_NOW || kind == Kind.ONCE;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case DEFAULT -> "default";
            case AVAILABLE_NOW -> "availableNow";
            case ONCE -> "once";
            case PROCESSING_TIME -> "processingTime=" + Durations.format(interval);
        };
    }
}
