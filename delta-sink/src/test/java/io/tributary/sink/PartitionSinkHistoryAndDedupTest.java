package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Schema;
import io.tributary.storage.Storage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Connect sink's writer ({@link PartitionSink}) keeping history (SCD type 2, the sink's own history writer) and
 * Spark's dropDuplicates(keys) kept by the table: writers of two partitions, real Delta tables, rows checked.
 */
class PartitionSinkHistoryAndDedupTest {
    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final TopicPartition P1 = new TopicPartition("t", 1);

    @TempDir
    Path dir;

    private String table() {
        return dir.resolve("t").toString();
    }

    private List<String> rows() {
        return DeltaTables.readRows(table()).stream().map(Arrays::toString).sorted().toList();
    }

    private PartitionSink history(String writer) {
        SinkChanges changes = new SinkChanges("lsn", "op = 'd'", List.of("op"), Duration.ofDays(7), true);
        return new PartitionSink(table(), Schema.parse("op STRING, id INT, name STRING, lsn BIGINT"), List.of(), 1 << 27, Map.of(),
                writer, Storage.NONE, new PartitionSink.Keys(List.of("id"), null, 1000, changes), false);
    }

    @Test
    void writersOfTwoPartitionsKeepEachKeysVersionsByTheirSequence() {
        PartitionSink a = history("task-0");
        PartitionSink b = history("task-1");
        try (PartitionSink.Batch batch = a.begin()) {
            batch.add(new Object[] {"c", 1, "ann", 10L});
            batch.add(new Object[] {"u", 1, "an", 12L});
            batch.add(new Object[] {"c", 3, "cy", 11L});
            batch.commit(Map.of(P0, 0L), Map.of(P0, 3L));
        }
        try (PartitionSink.Batch batch = b.begin()) {
            batch.add(new Object[] {"c", 2, "bob", 11L});
            batch.add(new Object[] {"d", 2, null, 14L});
            batch.delete(P1, 2, "[4]".getBytes(StandardCharsets.UTF_8)); // a tombstone has no sequence: skipped
            batch.commit(Map.of(P1, 0L), Map.of(P1, 3L));
        }
        try (PartitionSink.Batch batch = a.begin()) {
            batch.add(new Object[] {"u", 1, "anne", 13L});
            batch.add(new Object[] {"u", 1, "a-late", 11L}); // older than the versions after it: takes its place between them
            batch.commit(Map.of(P0, 3L), Map.of(P0, 5L));
        }
        assertThat(DeltaTables.schema(table(), Storage.NONE).orElseThrow().toDdl())
                .isEqualTo("id INT, name STRING, lsn BIGINT, __START_AT BIGINT, __END_AT BIGINT");
        assertThat(rows()).containsExactly("[1, a-late, 11, 11, 12]", "[1, an, 12, 12, 13]", "[1, ann, 10, 10, 11]",
                "[1, anne, 13, 13, null]", "[2, bob, 11, 11, 14]", "[3, cy, 11, 11, null]");
        assertThat(PartitionSink.allOffsets(table())).containsExactly(Map.entry(P0, 5L), Map.entry(P1, 3L));
    }

    private PartitionSink dedup(String writer) {
        return new PartitionSink(table(), Schema.parse("id INT, v STRING"), List.of(), 1 << 27, Map.of(), writer, Storage.NONE,
                PartitionSink.Keys.dropDuplicates(List.of("id"), 1000), false);
    }

    @Test
    void dropDuplicatesKeepsEachKeysFirstRowAcrossBatchesWritersAndANewWriter() {
        PartitionSink a = dedup("task-0");
        PartitionSink b = dedup("task-1");
        try (PartitionSink.Batch batch = a.begin()) {
            batch.add(new Object[] {1, "a"});
            batch.add(new Object[] {1, "a-again"});
            batch.add(new Object[] {2, "b"});
            batch.commit(Map.of(P0, 0L), Map.of(P0, 3L));
        }
        PartitionSink.Batch racing = b.begin();
        racing.add(new Object[] {3, "c-from-1"});
        racing.add(new Object[] {2, "b-from-1"});
        try (PartitionSink.Batch batch = a.begin()) {
            batch.add(new Object[] {3, "c"});
            batch.commit(Map.of(P0, 3L), Map.of(P0, 4L));
        }
        racing.commit(Map.of(P1, 0L), Map.of(P1, 2L)); // planned on the table as it is then: 2 and 3 are there
        try (PartitionSink.Batch batch = dedup("task-0-restarted").begin()) {
            batch.add(new Object[] {1, "after-restart"});
            batch.add(new Object[] {4, "d"});
            batch.commit(Map.of(P0, 4L), Map.of(P0, 6L));
        }
        assertThat(rows()).containsExactly("[1, a]", "[2, b]", "[3, c]", "[4, d]");
        assertThat(PartitionSink.allOffsets(table())).containsExactly(Map.entry(P0, 6L), Map.entry(P1, 2L));
        try (PartitionSink.Batch batch = a.begin()) {
            assertThatThrownBy(() -> batch.delete(P0, 6, "[1]".getBytes(StandardCharsets.UTF_8)))
                    .hasMessageContaining("tombstone");
        }
    }
}
