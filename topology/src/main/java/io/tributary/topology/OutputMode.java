package io.tributary.topology;

import io.tributary.topology.internal.TopologyErrors;
import java.util.Locale;

/** Spark's output modes for a streaming aggregation, with the same names. */
public enum OutputMode {
    /** Each window once, final, after the watermark passes its end; needs a watermark. */
    APPEND,
    /** At each batch end, the rows whose aggregates changed in that batch (the sink upserts them). */
    UPDATE,
    /** At each batch end, every row of the result table; state is never purged. */
    COMPLETE;

    /** Reads {@code append}, {@code update} or {@code complete}, case-insensitively. */
    public static OutputMode parse(String text) {
        if (text != null) {
            for (OutputMode m : values()) {
                if (m.name().equalsIgnoreCase(text.strip())) {
                    return m;
                }
            }
        }
        throw TopologyErrors.badOutputMode(text);
    }

    /** The name as Spark spells it: {@code append}, {@code update}, {@code complete}. */
    public String sparkName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
