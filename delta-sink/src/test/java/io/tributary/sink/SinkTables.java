package io.tributary.sink;

import io.tributary.delta.KernelEngines;
import io.tributary.schema.Schema;
import io.tributary.sink.internal.DeltaTableWriter;
import io.tributary.sink.internal.Partitioning;
import java.util.List;
import java.util.Map;

/**
 * A real table written the way the sink writes it (one commit per batch, with the batch's
 * transaction version and topic offsets), without a broker: for the tests of the commands that
 * read and maintain sink tables. Shared with other modules through this module's test-jar.
 */
public final class SinkTables {
    private final DeltaTableWriter writer;
    private final String appId;
    private long batch;
    private long offset;

    /** A new table at {@code path}, partitioned by {@code partitionBy} (as {@code sink.delta.partitionBy} writes them). */
    public SinkTables(String path, Schema schema, List<String> partitionBy, String appId) {
        this.writer = new DeltaTableWriter(KernelEngines.create(), path, Map.of(), Partitioning.parse(partitionBy, schema));
        this.appId = appId;
    }

    /** Commits {@code rows} as the next batch, read from partition 0 of topic {@code events}. */
    public SinkTables commit(List<Object[]> rows) {
        Map<Integer, Long> start = offset == 0 ? Map.of() : Map.of(0, offset);
        offset += rows.size();
        writer.append(appId, batch++, rows, start, new SinkOffsets(appId, "events", "tid", Map.of(0, offset)));
        return this;
    }
}
