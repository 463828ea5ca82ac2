package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Schema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Change data (sequenceBy, deleteWhen, exceptColumns) through the Connect sink's writer
 * ({@link PartitionSink} with {@link PartitionSink.Keys#changes()}): the sink's ChangeUpsert, so
 * writers of different partitions apply out-of-order changes and deletes as the pipeline's sink
 * does, delete markers included.
 */
class PartitionSinkChangesTest {
    private static final Schema ROWS = Schema.parse("op STRING, id INT, name STRING, lsn BIGINT");
    private static final SinkChanges CHANGES = new SinkChanges("lsn", "op = 'd'", List.of("op"), Duration.ofDays(7));
    private static final TopicPartition P0 = new TopicPartition("cdc", 0);
    private static final TopicPartition P1 = new TopicPartition("cdc", 1);

    @TempDir
    Path dir;

    private String table() {
        return dir.resolve("t").toString();
    }

    private PartitionSink sink(String writer) {
        return new PartitionSink(table(), ROWS, List.of(), SinkConfig.DEFAULT_TARGET_FILE_SIZE, Map.of(), writer,
                io.tributary.storage.Storage.NONE, new PartitionSink.Keys(List.of("id"), null, 1000, CHANGES), false);
    }

    private static Object[] change(String op, int id, String name, long lsn) {
        return new Object[] {op, id, name, lsn};
    }

    /** id to name@lsn; the table has no op column. */
    private Map<Integer, String> table(int columns) {
        Map<Integer, String> out = new TreeMap<>();
        for (Object[] r : DeltaTables.readRows(table())) {
            assertThat(r).hasSize(columns);
            out.put((Integer) r[0], r[1] + "@" + r[2]);
        }
        return out;
    }

    @Test
    void writersOfTwoPartitionsApplyOutOfOrderChangesAndDeletesAsTheSinkDoes() {
        PartitionSink a = sink("task-0");
        PartitionSink b = sink("task-1");
        try (PartitionSink.Batch batch = a.begin()) { // odd ids come from partition 0
            batch.add(change("c", 1, "ann", 10));
            batch.add(change("u", 1, "anne", 13));
            batch.add(change("u", 1, "an", 12)); // older than the update before it
            batch.add(change("c", 3, "cy", 11));
            batch.commit(Map.of(P0, 0L), Map.of(P0, 4L));
        }
        try (PartitionSink.Batch batch = b.begin()) { // even ids from partition 1
            batch.add(change("c", 2, "bob", 11));
            batch.add(change("d", 2, null, 14));
            batch.add(change("c", 4, "dee", 12));
            batch.commit(Map.of(P1, 0L), Map.of(P1, 3L));
        }
        assertThat(table(3)).containsExactly(Map.entry(1, "anne@13"), Map.entry(3, "cy@11"), Map.entry(4, "dee@12"));
        assertThat(DeltaTables.schema(table(), io.tributary.storage.Storage.NONE).orElseThrow().toDdl())
                .as("exceptColumns: op is not stored").isEqualTo("id INT, name STRING, lsn BIGINT");

        try (PartitionSink.Batch batch = b.begin()) {
            batch.add(change("u", 2, "bob-late", 13)); // after its key's delete (14): stays deleted
            batch.add(change("u", 4, "dee-late", 11)); // older than the table's row
            batch.commit(Map.of(P1, 3L), Map.of(P1, 5L));
        }
        try (PartitionSink.Batch batch = a.begin()) {
            batch.add(change("d", 3, null, 20));
            batch.add(change("u", 1, "anne", 13)); // a duplicate
            batch.commit(Map.of(P0, 4L), Map.of(P0, 6L));
        }
        assertThat(table(3)).containsExactly(Map.entry(1, "anne@13"), Map.entry(4, "dee@12"));

        try (PartitionSink.Batch batch = b.begin()) {
            batch.add(change("c", 2, "bob-again", 21)); // above its delete: the key comes back
            batch.delete(P1, 5, "[4]".getBytes(StandardCharsets.UTF_8)); // a Kafka tombstone deletes whatever the sequence
            batch.commit(Map.of(P1, 5L), Map.of(P1, 7L));
        }
        assertThat(table(3)).containsExactly(Map.entry(1, "anne@13"), Map.entry(2, "bob-again@21"));
        assertThat(PartitionSink.allOffsets(table())).containsExactly(Map.entry(P0, 6L), Map.entry(P1, 7L));
    }
}
