package io.tributary.source.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where the stream stands, as Spark's {@code DeltaSourceOffset}: every file up to {@code index} of
 * version {@code reservoirVersion} is published ({@code index} -1: none of that version yet).
 * {@code isStartingVersion} says the version is read as a snapshot (all its files) rather than as
 * the files its own commit added.
 */
public record SourcePosition(long reservoirVersion, long index, boolean isStartingVersion) {
    /** The first file of {@code version}, read as a snapshot. */
    public static SourcePosition snapshotOf(long version) {
        return new SourcePosition(version, -1, true);
    }

    /** Before the first file of the commit {@code version}. */
    public static SourcePosition commit(long version) {
        return new SourcePosition(version, -1, false);
    }

    /** As Spark prints a Delta source offset in progress: {@code {"sourceVersion":1,"reservoirId":...,"reservoirVersion":v,"index":i,"isStartingVersion":b}}. */
    public Map<String, Object> toOffset(String reservoirId) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sourceVersion", 1);
        m.put("reservoirId", reservoirId);
        m.put("reservoirVersion", reservoirVersion);
        m.put("index", index);
        m.put("isStartingVersion", isStartingVersion);
        return m;
    }

    @Override
    public String toString() {
        return "version " + reservoirVersion + (isStartingVersion ? " (snapshot)" : "") + (index >= 0 ? ", file index " + index : "");
    }
}
