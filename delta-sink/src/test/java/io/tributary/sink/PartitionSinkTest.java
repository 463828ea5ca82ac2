package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Schema;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several writers of one table, each committing its own partitions: blind appends that land together, stale batches refused. */
class PartitionSinkTest {
    private static final Schema SCHEMA = Schema.parse("id INT, user STRING");
    private static final TopicPartition P0 = new TopicPartition("orders", 0);
    private static final TopicPartition P1 = new TopicPartition("orders", 1);

    @TempDir
    Path dir;

    private PartitionSink sink(String writer) {
        return new PartitionSink(dir.resolve("t").toString(), SCHEMA, List.of(), SinkConfig.DEFAULT_TARGET_FILE_SIZE, Map.of(), writer);
    }

    private static void rows(PartitionSink.Batch b, int from, int to) {
        for (int i = from; i < to; i++) {
            b.add(new Object[] {i, "u" + i});
        }
    }

    private List<Integer> ids() {
        return DeltaTables.readRows(dir.resolve("t").toString()).stream().map(r -> (Integer) r[0]).sorted().toList();
    }

    @Test
    void writersOfDifferentPartitionsCommitConcurrently() {
        PartitionSink a = sink("task-0");
        PartitionSink b = sink("task-1");
        try (PartitionSink.Batch first = a.begin()) {
            rows(first, 0, 1);
            first.commit(Map.of(P0, 0L), Map.of(P0, 1L)); // creates the table
        }
        PartitionSink.Batch ba = a.begin();
        PartitionSink.Batch bb = b.begin();
        rows(ba, 1, 3);
        rows(bb, 100, 103);
        bb.commit(Map.of(P1, 0L), Map.of(P1, 3L));
        ba.commit(Map.of(P0, 1L), Map.of(P0, 3L)); // rebased over task-1's commit
        assertThat(ids()).containsExactly(0, 1, 2, 100, 101, 102);
        assertThat(a.tableOffsets(List.of(P0, P1))).containsEntry(P0, 3L).containsEntry(P1, 3L);
        assertThat(PartitionSink.allOffsets(dir.resolve("t").toString())).containsExactly(Map.entry(P0, 3L), Map.entry(P1, 3L));
    }

    @Test
    void aBatchOvertakenByTheNewOwnerOfItsPartitionIsRefused() {
        PartitionSink old = sink("task-0");
        PartitionSink owner = sink("task-1");
        try (PartitionSink.Batch first = old.begin()) {
            rows(first, 0, 1);
            first.commit(Map.of(P0, 0L), Map.of(P0, 1L));
        }
        PartitionSink.Batch stale = old.begin();
        rows(stale, 1, 3);
        try (PartitionSink.Batch taken = owner.begin()) { // the partition moved to task-1 in a rebalance
            rows(taken, 1, 4);
            taken.commit(Map.of(P0, 1L), Map.of(P0, 4L));
        }
        assertThatThrownBy(() -> stale.commit(Map.of(P0, 1L), Map.of(P0, 3L))).isInstanceOf(StaleBatchException.class)
                .hasMessageContaining("overtaken");
        assertThat(ids()).containsExactly(0, 1, 2, 3);
    }

    @Test
    void aBatchThatStartsWhereTheTableDoesNotStandIsRefused() {
        PartitionSink a = sink("task-0");
        try (PartitionSink.Batch first = a.begin()) {
            rows(first, 0, 5);
            first.commit(Map.of(P0, 0L), Map.of(P0, 5L));
        }
        try (PartitionSink.Batch b = sink("task-1").begin()) {
            rows(b, 0, 2);
            assertThatThrownBy(() -> b.commit(Map.of(P0, 0L), Map.of(P0, 2L))).isInstanceOf(StaleBatchException.class)
                    .hasMessageContaining("holds offsets {orders-0=5}");
        }
        assertThat(ids()).containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void twoWritersCreatingTheTableAtOnceOneRetries() {
        PartitionSink a = sink("task-0");
        PartitionSink b = sink("task-1");
        PartitionSink.Batch ba = a.begin();
        PartitionSink.Batch bb = b.begin();
        rows(ba, 0, 2);
        rows(bb, 100, 102);
        bb.commit(Map.of(P1, 0L), Map.of(P1, 2L));
        assertThatThrownBy(() -> ba.commit(Map.of(P0, 0L), Map.of(P0, 2L))).isInstanceOf(StaleBatchException.class);
        try (PartitionSink.Batch again = a.begin()) {
            rows(again, 0, 2);
            again.commit(Map.of(P0, 0L), Map.of(P0, 2L));
        }
        assertThat(ids()).containsExactly(0, 1, 100, 101);
    }
}
