package io.tributary.sink.internal;

import static io.tributary.sink.internal.UpsertTables.addsAndRemoves;
import static io.tributary.sink.internal.UpsertTables.batch;
import static io.tributary.sink.internal.UpsertTables.config;
import static io.tributary.sink.internal.UpsertTables.tombstone;
import static io.tributary.sink.internal.UpsertTables.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.Snapshot;
import io.delta.kernel.Transaction;
import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkConfig;
import io.tributary.sink.SinkMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CopyOnWriteUpsertTest {
    static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE");

    @TempDir
    Path dir;

    private final Engine engine = KernelEngines.create();

    private Path table() {
        return dir.resolve("t");
    }

    private WriteMode mode(SinkMode m, int rowsPerFile, String order) {
        SinkConfig c = config(table(), SCHEMA, m, m == SinkMode.APPEND ? List.of() : List.of("id"), order, rowsPerFile);
        return WriteMode.forConfig(c, new DeltaTableWriter(engine, c.tablePath(), c.schema(), Map.of()));
    }

    private WriteMode upsert() {
        return mode(SinkMode.UPSERT, 100_000, null);
    }

    static Object[] r(int id, String user, double amt) {
        return new Object[] {id, user, amt};
    }

    private List<String> rows() {
        List<String> out = new ArrayList<>();
        for (Object[] row : DeltaTables.readRows(table().toString())) {
            out.add(row[0] + ":" + row[1] + ":" + row[2]);
        }
        out.sort(Comparator.comparing((String s) -> Integer.parseInt(s.substring(0, s.indexOf(':')))));
        return out;
    }

    /** The foreachBatch MERGE scenario's input: 6 rows, id 3 twice. */
    static TopicBatch seedInput() {
        return batch(r(1, "a", 10), r(2, "b", 20), r(3, "c", 30), r(4, "d", 40), r(3, "c", 35), r(5, "e", 50));
    }

    @Test
    void seedScenarioGivesFiveRowsAndARerunOverTheSameInputStillFive() {
        write(upsert(), 0, seedInput());
        assertThat(rows()).containsExactly("1:a:10.0", "2:b:20.0", "3:c:35.0", "4:d:40.0", "5:e:50.0");

        CommitResult rerun = write(upsert(), 1, seedInput()); // a new sink instance, the same input again
        assertThat(rerun.committed()).isTrue();
        assertThat(rows()).containsExactly("1:a:10.0", "2:b:20.0", "3:c:35.0", "4:d:40.0", "5:e:50.0");
        assertThat(rerun.metrics()).containsEntry("numTargetRowsUpdated", 5L).containsEntry("numTargetRowsInserted", 0L);
    }

    @Test
    void theSameInputThroughAppendKeepsBothRowsOfId3() {
        write(mode(SinkMode.APPEND, 100_000, null), 0, seedInput());
        assertThat(rows()).hasSize(6).filteredOn(s -> s.startsWith("3:")).hasSize(2);
    }

    @Test
    void aLaterRowUpdatesItsKeyInPlaceAndANewKeyIsInserted() {
        write(upsert(), 0, seedInput());
        CommitResult r = write(upsert(), 1, batch(r(2, "b", 99), r(6, "f", 60)));
        assertThat(rows()).containsExactly("1:a:10.0", "2:b:99.0", "3:c:35.0", "4:d:40.0", "5:e:50.0", "6:f:60.0");
        assertThat(r.metrics()).containsEntry("numTargetRowsUpdated", 1L).containsEntry("numTargetRowsInserted", 1L)
                .containsEntry("numTargetRowsCopied", 4L);
        assertThat(addsAndRemoves(table(), 1)).containsExactly(1, 1);
    }

    @Test
    void aTombstoneDeletesItsKeyAndARowAfterItInTheSameBatchComesBack() {
        write(upsert(), 0, seedInput());
        write(upsert(), 1, batch(tombstone("[2]"), r(4, "d", 1), tombstone("[4]"), tombstone("[5]"), r(5, "e", 55), tombstone("[77]")));
        assertThat(rows()).containsExactly("1:a:10.0", "3:c:35.0", "5:e:55.0");
    }

    @Test
    void aTombstoneWhoseKeyIsNotTheKeyArrayIsRefusedWithTheConvention() {
        write(upsert(), 0, seedInput());
        assertThatThrownBy(() -> write(upsert(), 1, batch(tombstone("3"))))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("offset 0 has record key '3'")
                .hasMessageContaining("JSON array of the key column values, e.g. [3]");
        assertThat(rows()).hasSize(5);
    }

    @Test
    void theOrderColumnChoosesTheWinnerAndTiesGoToTheLaterRecord() {
        WriteMode byAmt = mode(SinkMode.UPSERT, 100_000, "amt");
        write(byAmt, 0, batch(r(1, "late", 5), r(1, "early", 9), r(2, "x", 1), r(2, "y", 1)));
        assertThat(rows()).containsExactly("1:early:9.0", "2:y:1.0");
    }

    @Test
    void rowsOfOneKeyOnTwoPartitionsAreOrderedByRecordTimeThenPartition() {
        List<Object[]> rows = List.of(r(1, "p1-t5", 0), r(1, "p0-t7", 0), r(1, "p0-t3", 0));
        List<RecordOrigin> origins = List.of(new RecordOrigin(1, 0, 5, null), new RecordOrigin(0, 0, 7, null),
                new RecordOrigin(0, 1, 3, null));
        // partition 0 keeps its offset order (t7 then t3); merged with partition 1 by head timestamp: p1-t5, p0-t7, p0-t3
        write(upsert(), 0, new TopicBatch(rows, Map.of(), Map.of(), 0, origins));
        assertThat(rows()).containsExactly("1:p0-t3:0.0");
    }

    @Test
    void onlyFilesThatHoldABatchKeyAreRewritten() {
        WriteMode small = mode(SinkMode.UPSERT, 10, null);
        List<Object[]> fifty = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            fifty.add(r(i, "u", i));
        }
        write(small, 0, new TopicBatch(fifty, Map.of(), Map.of(), 0, null));
        assertThat(addsAndRemoves(table(), 0)).containsExactly(5, 0); // ids 0-9, 10-19, ... in 5 files

        CommitResult one = write(small, 1, batch(r(23, "new", 0)));
        assertThat(addsAndRemoves(table(), 1)).containsExactly(1, 1);
        assertThat(one.metrics()).containsEntry("numTargetFilesScanned", 1L).containsEntry("numTargetFilesRemoved", 1L);

        CommitResult fresh = write(small, 2, batch(r(100, "x", 0), r(101, "y", 0)));
        assertThat(addsAndRemoves(table(), 2)).containsExactly(1, 0);
        assertThat(fresh.metrics()).containsEntry("numTargetFilesScanned", 0L);

        List<Object[]> many = new ArrayList<>(); // more keys than the equality limit: ranges
        for (int i = 0; i < KeyPredicates.EQUALITY_LIMIT + 10; i++) {
            many.add(r(1000 + i, "m", 0));
        }
        many.add(r(45, "upd", 0));
        CommitResult ranged = write(small, 3, UpsertTables.batchOf(many));
        assertThat(ranged.metrics()).containsEntry("numTargetFilesRemoved", 1L).containsEntry("numTargetRowsUpdated", 1L);
        assertThat(DeltaTables.readRows(table().toString())).hasSize(52 + KeyPredicates.EQUALITY_LIMIT + 10);
    }

    @Test
    void aCrashBetweenParquetWriteAndCommitLeavesTheTableAsIfTheBatchRanOnce() {
        write(upsert(), 0, seedInput());
        SinkConfig c = config(table(), SCHEMA, SinkMode.UPSERT, List.of("id"), null, 100_000);
        DeltaTableWriter w = new DeltaTableWriter(engine, c.tablePath(), SCHEMA, Map.of());
        CopyOnWriteUpsert crashed = new CopyOnWriteUpsert(w, new RewriteCommitter(w), new KeyColumns(SCHEMA, List.of("id")), null, 100);
        TopicBatch next = batch(r(2, "b", 99), tombstone("[1]"));
        Optional<Snapshot> snap = w.latestSnapshot();
        Transaction txn = w.build(snap, UpsertTables.APP, 1, 0);
        RewritePlan plan = crashed.plan(snap, txn, crashed.collapse(next), 2); // Parquet written, never committed
        assertThat(plan.actions()).isNotEmpty();
        assertThat(rows()).hasSize(5);

        write(upsert(), 1, next); // the restarted sink replays batch 1
        CommitResult again = write(upsert(), 1, next); // and a replay of a committed batch writes nothing
        assertThat(again.committed()).isFalse();
        assertThat(rows()).containsExactly("2:b:99.0", "3:c:35.0", "4:d:40.0", "5:e:50.0");
        assertThat(DeltaTables.latestVersion(table().toString())).isEqualTo(1);
    }

    @Test
    void upsertCommitsCarryTheTxnAndTheOffsetsAsStreamingUpdate() {
        write(upsert(), 0, seedInput());
        write(upsert(), 1, batch(r(3, "c", 1)));
        assertThat(DeltaTables.transactionVersion(table().toString(), UpsertTables.APP)).contains(1L);
        assertThat(DeltaTables.sinkOffsets(table().toString()).orElseThrow().offsets()).isEqualTo(Map.of(0, 200L));
        assertThat(UpsertTables.commitInfo(table(), 1).path("operation").asText()).isEqualTo("STREAMING UPDATE");
    }

    @Test
    void completeReplaceMakesTheTableEqualTheBatch() {
        WriteMode complete = mode(SinkMode.COMPLETE, 2, null);
        write(complete, 0, batch(r(1, "a", 1), r(2, "b", 2), r(3, "c", 3)));
        write(complete, 1, batch(r(1, "a", 5), r(4, "d", 4), r(1, "a", 6)));
        assertThat(rows()).containsExactly("1:a:6.0", "4:d:4.0");
        assertThat(addsAndRemoves(table(), 1)).containsExactly(1, 2);
    }

    @Test
    void modeSettingsAreValidatedAgainstTheSchemaNamingTheSpecKeys() {
        assertThatThrownBy(() -> config(table(), SCHEMA, SinkMode.UPSERT, List.of(), null, 10))
                .hasMessageContaining("sink.delta.keys is empty");
        assertThatThrownBy(() -> config(table(), SCHEMA, SinkMode.UPSERT, List.of("nope"), null, 10))
                .hasMessageContaining("sink.delta.keys names column 'nope'");
        assertThatThrownBy(() -> config(table(), SCHEMA, SinkMode.UPSERT, List.of("id"), "when", 10))
                .hasMessageContaining("sink.delta.order names column 'when'");
        assertThatThrownBy(() -> config(table(), SCHEMA, SinkMode.APPEND, List.of("id"), null, 10))
                .hasMessageContaining("sink.delta.keys [id] is set, but sink.delta.mode is append");
        assertThatThrownBy(() -> SinkMode.parse("merge")).hasMessageContaining("sink.delta.mode is 'merge'");
    }
}
