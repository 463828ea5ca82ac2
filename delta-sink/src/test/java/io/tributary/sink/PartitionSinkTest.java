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

    private PartitionSink upsertSink(String writer) {
        return new PartitionSink(dir.resolve("t").toString(), SCHEMA, List.of(), SinkConfig.DEFAULT_TARGET_FILE_SIZE, Map.of(), writer,
                io.tributary.storage.Storage.NONE, new PartitionSink.Keys(List.of("id"), null, 1000), false);
    }

    private List<String> idUsers() {
        return DeltaTables.readRows(dir.resolve("t").toString()).stream().map(r -> r[0] + ":" + r[1]).sorted().toList();
    }

    @Test
    void upsertWritersReplaceTheirKeysAndAStaleUpsertIsRefused() {
        PartitionSink a = upsertSink("task-0");
        PartitionSink b = upsertSink("task-1");
        try (PartitionSink.Batch first = a.begin()) {
            first.add(new Object[] {1, "a"});
            first.add(new Object[] {1, "a2"}); // the later row of a key wins within a batch
            first.add(new Object[] {3, "c"});
            first.commit(Map.of(P0, 0L), Map.of(P0, 3L));
        }
        try (PartitionSink.Batch second = b.begin()) {
            second.add(new Object[] {2, "b"});
            second.commit(Map.of(P1, 0L), Map.of(P1, 1L));
        }
        PartitionSink.Batch stale = b.begin();
        stale.add(new Object[] {1, "stale"});
        try (PartitionSink.Batch update = a.begin()) {
            update.add(new Object[] {1, "a3"});
            update.delete(P0, 4, "[3]".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            update.commit(Map.of(P0, 3L), Map.of(P0, 5L));
        }
        assertThatThrownBy(() -> stale.commit(Map.of(P0, 3L), Map.of(P0, 4L))).isInstanceOf(StaleBatchException.class)
                .hasMessageContaining("holds offsets {orders-0=5}");
        assertThat(idUsers()).containsExactly("1:a3", "2:b");
        assertThat(PartitionSink.allOffsets(dir.resolve("t").toString())).containsExactly(Map.entry(P0, 5L), Map.entry(P1, 1L));
    }

    @Test
    void aFolderOfOtherFilesIsRefusedNamingTheConnectorsKeys() throws Exception {
        Path t = java.nio.file.Files.createDirectories(dir.resolve("t"));
        java.nio.file.Files.writeString(t.resolve("notes.txt"), "someone's");
        assertThatThrownBy(() -> sink("task-0")).hasMessageContaining("delta.path " + t).hasMessageContaining("notes.txt")
                .hasMessageContaining("allowNonEmptyPath: true");
        PartitionSink allowed = new PartitionSink(t.toString(), SCHEMA, List.of(), SinkConfig.DEFAULT_TARGET_FILE_SIZE, Map.of(),
                "task-0", io.tributary.storage.Storage.NONE, null, true);
        try (PartitionSink.Batch b = allowed.begin()) {
            rows(b, 0, 2);
            b.commit(Map.of(P0, 0L), Map.of(P0, 2L));
        }
        assertThat(ids()).containsExactly(0, 1);
        assertThat(t.resolve("notes.txt")).exists();
        sink("task-1"); // the table exists now: the folder is the table's
    }

    @Test
    void writersRacingToCreateTheTableDoNotRefuseOneAnother() {
        PartitionSink a = sink("task-0");
        PartitionSink.Batch ba = a.begin();
        rows(ba, 0, 2);
        ba.add(new Object[] {2, "x"});
        // task-0's Parquet files are in the folder, its first commit not yet: task-1 starts now
        PartitionSink b = sink("task-1");
        ba.commit(Map.of(P0, 0L), Map.of(P0, 3L));
        sink("task-2"); // and after it
        try (PartitionSink.Batch bb = b.begin()) {
            rows(bb, 100, 101);
            bb.commit(Map.of(P1, 0L), Map.of(P1, 1L));
        }
        assertThat(ids()).containsExactly(0, 1, 2, 100);
    }

    @Test
    void upsertIntoAPartitionedTableMovesARowWhosePartitionColumnChanged() {
        PartitionSink a = new PartitionSink(dir.resolve("t").toString(), SCHEMA, List.of("user"), SinkConfig.DEFAULT_TARGET_FILE_SIZE,
                Map.of(), "task-0", io.tributary.storage.Storage.NONE, new PartitionSink.Keys(List.of("id"), null, 1000), false);
        try (PartitionSink.Batch b = a.begin()) {
            b.add(new Object[] {1, "a"});
            b.add(new Object[] {2, "b"});
            b.commit(Map.of(P0, 0L), Map.of(P0, 2L));
        }
        try (PartitionSink.Batch b = a.begin()) {
            b.add(new Object[] {1, "b"});
            b.commit(Map.of(P0, 2L), Map.of(P0, 3L));
        }
        assertThat(idUsers()).containsExactly("1:b", "2:b");
        assertThatThrownBy(() -> new PartitionSink(dir.resolve("t2").toString(), Schema.parse("id INT, ts TIMESTAMP"),
                List.of("date(ts) as day"), SinkConfig.DEFAULT_TARGET_FILE_SIZE, Map.of(), "task-0", io.tributary.storage.Storage.NONE,
                new PartitionSink.Keys(List.of("id"), null, 1000), false)).hasMessageContaining("partitionBy [date(ts) as day] derives a column");
    }

    @Test
    void aRowBreakingTheTablesCheckConstraintIsNamedForTheCallerToSetAsideAndTheOthersCommit() throws Exception {
        Path t = SparkCreatedTables.create(dir.resolve("t"), List.of("id integer", "user string"), List.of(SparkCreatedTables.CHECK_CONSTRAINTS),
                Map.of("delta.constraints.short_user", "length(user) < 3"));
        for (PartitionSink.Keys keys : java.util.Arrays.asList(null, new PartitionSink.Keys(List.of("id"), null, 1000))) {
            PartitionSink sink = new PartitionSink(t.toString(), SCHEMA, List.of(), SinkConfig.DEFAULT_TARGET_FILE_SIZE, Map.of(), "task-0",
                    io.tributary.storage.Storage.NONE, keys, false);
            long from = sink.tableOffsets(List.of(P0)).get(P0);
            try (PartitionSink.Batch b = sink.begin()) {
                for (Object[] row : List.of(new Object[] {(int) from, "ab"}, new Object[] {(int) from + 1, "abcd"})) {
                    io.tributary.schema.BadRecordException broken = b.violation(row);
                    if (broken == null) {
                        b.add(row);
                    } else {
                        assertThat(broken.field()).isEqualTo("short_user");
                        assertThat(broken.reason()).isEqualTo("violates CHECK constraint short_user (length(user) < 3): the expression is false"
                                + " for user = abcd");
                    }
                }
                b.commit(Map.of(P0, from), Map.of(P0, from + 2)); // Kernel alone refuses to write a table with CHECK constraints
            }
        }
        assertThat(ids()).containsExactly(0, 2);
        assertThat(DeltaTables.rowRules(t.toString(), io.tributary.storage.Storage.NONE).orElseThrow().constraints())
                .containsExactly(Map.entry("short_user", "length(user) < 3"));
    }
}
