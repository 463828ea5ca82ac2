package io.tributary.sink;

import io.tributary.sink.internal.SinkErrors;
import java.util.Locale;

/**
 * How a {@link DeltaSink} writes a batch into its table (spec key {@code sink.delta.mode}).
 */
public enum SinkMode {
    /** Every row is appended (Spark's Delta sink in append mode). */
    APPEND,
    /**
     * MERGE by key, copy-on-write: rows of one key collapse within the batch, an existing row with
     * the key is replaced, a new key is inserted, a Kafka tombstone deletes the key's row
     * (Spark's {@code foreachBatch} + {@code dropDuplicates} + {@code MERGE ... whenMatchedUpdateAll
     * whenNotMatchedInsertAll}).
     */
    UPSERT,
    /**
     * The table becomes the batch's rows: every current file is removed and the batch's rows added
     * in one commit (Spark's Delta sink in {@code complete} output mode).
     */
    COMPLETE;

    /** {@code append}, {@code upsert} or {@code complete}, any case. */
    public static SinkMode parse(String text) {
        if (text != null) {
            for (SinkMode m : values()) {
                if (m.name().equalsIgnoreCase(text.trim())) {
                    return m;
                }
            }
        }
        throw SinkErrors.unknownMode(text);
    }

    /** The spec spelling: {@code append}, {@code upsert}, {@code complete}. */
    public String specName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
