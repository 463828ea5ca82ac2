package io.tributary.sink.internal;

import static io.tributary.sink.internal.CopyOnWriteUpsertTest.SCHEMA;
import static io.tributary.sink.internal.CopyOnWriteUpsertTest.r;
import static io.tributary.sink.internal.UpsertTables.batch;
import static io.tributary.sink.internal.UpsertTables.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.Operation;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Transaction;
import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.sink.DeltaTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Another process appends to the table while the sink upserts: Kernel would rebase the upsert over it; the sink must not. */
class ConcurrentWriterTest {
    @TempDir
    Path dir;

    private final Engine engine = KernelEngines.create();

    private String table() {
        return dir.resolve("t").toString();
    }

    private DeltaTableWriter writer() {
        return new DeltaTableWriter(engine, table(), SCHEMA, Map.of());
    }

    private CopyOnWriteUpsert upsert(RewriteCommitter.BeforeCommit beforeCommit) {
        DeltaTableWriter w = writer();
        return new CopyOnWriteUpsert(w, new RewriteCommitter(w, beforeCommit), new KeyColumns(SCHEMA, List.of("id")), null, 10);
    }

    /** A plain blind append by another application (no txn, no offsets), as Spark or another Kernel writer would commit. */
    private void otherWriterAppends(Object[]... rows) {
        Snapshot snap = writer().latestSnapshot().orElseThrow();
        Transaction txn = snap.buildUpdateTableTransaction("other-app", Operation.WRITE).build(engine);
        txn.commit(engine, Iterators.iterable(writer().writeFiles(txn, List.of(rows))));
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
    void aConcurrentAppendOfAKeyTheBatchUpdatesMakesTheSinkPlanAgain() {
        write(upsert(a -> { }), 0, batch(r(1, "a", 1), r(2, "b", 2)));
        // while batch 1 (key 3) is between planning and commit, another writer appends key 3
        CommitResult r = write(upsert(attempt -> {
            if (attempt == 1) {
                otherWriterAppends(r(3, "theirs", 0));
            }
        }), 1, batch(r(3, "ours", 3)));
        assertThat(r.metrics()).containsEntry("replans", 1).containsEntry("commitAttempts", 2);
        assertThat(rows()).containsExactly("1:a", "2:b", "3:ours"); // key 3 once: the batch's row replaced theirs
    }

    @Test
    void aConcurrentAppendOfOtherKeysIsKeptAndTheBatchIsNotPlannedAgain() {
        write(upsert(a -> { }), 0, batch(r(1, "a", 1), r(2, "b", 2)));
        CommitResult r = write(upsert(attempt -> {
            if (attempt == 1) {
                otherWriterAppends(r(900, "theirs", 0));
            }
        }), 1, batch(r(2, "ours", 3)));
        assertThat(r.metrics()).containsEntry("replans", 0).containsEntry("commitAttempts", 2);
        assertThat(rows()).containsExactly("1:a", "2:ours", "900:theirs");
    }

    @Test
    void aWriterThatKeepsWinningMakesTheBatchFailClearlyWithNothingCommitted() {
        write(upsert(a -> { }), 0, batch(r(1, "a", 1)));
        assertThatThrownBy(() -> write(upsert(attempt -> otherWriterAppends(r(1, "theirs" + attempt, 0))), 1, batch(r(1, "ours", 3))))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("lost " + RewriteCommitter.MAX_ATTEMPTS + " commit attempts")
                .hasMessageContaining("Stop the other writers");
        assertThat(DeltaTables.transactionVersion(table(), UpsertTables.APP)).contains(0L);
        assertThat(rows()).doesNotContain("1:ours");
    }

    @Test
    void aStructKeyComparesWholeWindowsAndSkipsFilesByTheWindowStart() {
        Schema agg = Schema.parse("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, n BIGINT");
        Path t = dir.resolve("agg");
        DeltaTableWriter w = new DeltaTableWriter(engine, t.toString(), agg, Map.of());
        CopyOnWriteUpsert byWindow = new CopyOnWriteUpsert(w, new RewriteCommitter(w), new KeyColumns(agg, List.of("window", "user")), null, 2);
        long h = 3_600_000_000L;
        Object[] w0 = {0L, h};
        Object[] w1 = {h, 2 * h};
        Object[] w2 = {2 * h, 3 * h};
        write(byWindow, 0, batch(new Object[] {w0, "a", 1L}, new Object[] {w0, "b", 1L}, new Object[] {w1, "a", 1L},
                new Object[] {w1, "b", 1L}, new Object[] {w2, "a", 1L}));
        assertThat(UpsertTables.addsAndRemoves(t, 0)).containsExactly(3, 0); // sorted by window: 2 rows per file

        // an equal window built anew (another Object[]) matches; (w1, a) updates, (w2, b) is new
        CommitResult r = write(byWindow, 1, batch(new Object[] {new Object[] {h, 2 * h}, "a", 5L}, new Object[] {w2.clone(), "b", 7L}));
        assertThat(r.metrics()).containsEntry("numTargetRowsUpdated", 1L).containsEntry("numTargetRowsInserted", 1L)
                .containsEntry("numTargetFilesScanned", 1L).containsEntry("numTargetFilesRemoved", 1L); // (w2, b): user b is outside file 3's min/max
        List<String> rows = new ArrayList<>();
        for (Object[] row : DeltaTables.readRows(t.toString())) {
            rows.add(((Object[]) row[0])[0] + "/" + row[1] + "=" + row[2]);
        }
        assertThat(rows).containsExactlyInAnyOrder("0/a=1", "0/b=1", h + "/a=5", h + "/b=1", 2 * h + "/a=1", 2 * h + "/b=7");

        write(byWindow, 2, batch(UpsertTables.tombstone("[{\"start\":\"1970-01-01T01:00:00Z\",\"end\":\"1970-01-01T02:00:00Z\"}, \"b\"]")));
        assertThat(DeltaTables.readRows(t.toString())).hasSize(5);
    }
}
