package io.tributary.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.Schema;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.PartitionSink;
import io.tributary.sink.StaleBatchException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two writers upserting the keys of their own partitions into one table whose files hold keys of
 * both: a commit that another writer's rewrite of the same file overtook reads the file again and
 * applies its changes again; no writer's update is lost.
 */
class PartitionUpsertTest {
    private static final Schema SCHEMA = Schema.parse("id INT, v STRING");
    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final TopicPartition P1 = new TopicPartition("t", 1);

    @TempDir
    Path dir;

    private final Engine engine = KernelEngines.create();

    private String table() {
        return dir.resolve("t").toString();
    }

    private PartitionUpsert upsert(RewriteCommitter.BeforeCommit beforeCommit) {
        DeltaTableWriter w = new DeltaTableWriter(engine, table(), SCHEMA, Map.of());
        return new PartitionUpsert(w, SCHEMA, List.of("id"), null, 1000, io.tributary.sink.SinkChanges.NONE, beforeCommit);
    }

    private static Map<String, String> offset(TopicPartition tp, long offset) {
        return Map.of(PartitionSink.domain(tp), "{\"topic\":\"" + tp.topic() + "\",\"partition\":" + tp.partition() + ",\"offset\":" + offset + "}");
    }

    private CommitResult commit(PartitionUpsert u, TopicPartition tp, long to, Object[]... rows) {
        PartitionUpsert.Changes c = u.begin();
        for (Object[] row : rows) {
            c.upsert(row);
        }
        return u.commit(c, "writer-" + tp.partition(), snapshot -> { }, offset(tp, to));
    }

    private List<String> rows() {
        List<String> out = new ArrayList<>();
        for (Object[] row : DeltaTables.readRows(table())) {
            out.add(row[0] + ":" + row[1]);
        }
        out.sort(null);
        return out;
    }

    @Test
    void aRewriteOfTheSameFileByAnotherWriterMakesTheBatchReadItAgain() {
        // one file holding keys of both partitions (odd ids: partition 0, even ids: partition 1)
        commit(upsert(a -> { }), P0, 4, new Object[] {1, "a"}, new Object[] {2, "b"}, new Object[] {3, "c"}, new Object[] {4, "d"});
        assertThat(DeltaTables.history(table())).hasSize(1);
        // while writer 0's update of key 1 is between planning and commit, writer 1 rewrites the file with key 2
        CommitResult r = commit(upsert(attempt -> {
            if (attempt == 1) {
                commit(upsert(a -> { }), P1, 1, new Object[] {2, "b1"});
            }
        }), P0, 5, new Object[] {1, "a1"});
        assertThat(r.metrics()).containsEntry("replans", 1).containsEntry("commitAttempts", 2);
        assertThat(rows()).containsExactly("1:a1", "2:b1", "3:c", "4:d");
        assertThat(PartitionSink.allOffsets(table())).containsEntry(P0, 5L).containsEntry(P1, 1L);
    }

    @Test
    void aTombstoneDeletesItsKeyAndABadRecordKeyIsNamed() {
        commit(upsert(a -> { }), P0, 2, new Object[] {1, "a"}, new Object[] {3, "c"});
        PartitionUpsert u = upsert(a -> { });
        PartitionUpsert.Changes c = u.begin();
        c.delete(0, 2, "[3]".getBytes(StandardCharsets.UTF_8));
        u.commit(c, "writer-0", snapshot -> { }, offset(P0, 3));
        assertThat(rows()).containsExactly("1:a");
        assertThatThrownBy(() -> u.begin().delete(0, 3, "three".getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("partition 0 offset 3").hasMessageContaining("e.g. [3]");
    }

    @Test
    void aCheckThatFailsCommitsNothing() {
        commit(upsert(a -> { }), P0, 1, new Object[] {1, "a"});
        PartitionUpsert u = upsert(a -> { });
        PartitionUpsert.Changes c = u.begin();
        c.upsert(new Object[] {1, "stale"});
        assertThatThrownBy(() -> u.commit(c, "writer-0", snapshot -> {
            throw new StaleBatchException("moved on");
        }, offset(P0, 2))).isInstanceOf(StaleBatchException.class);
        assertThat(rows()).containsExactly("1:a");
    }
}
