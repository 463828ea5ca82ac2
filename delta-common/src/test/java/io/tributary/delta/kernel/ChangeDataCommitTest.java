package io.tributary.delta.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.Operation;
import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.Transaction;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.KernelException;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterable;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.DataFileStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The door's way past Kernel's refusal of data-changing adds and removes in one commit on a table with
 * the change data feed on: Kernel still refuses them ({@link #kernelStillRefusesAddsAndRemovesOnACdfTable}: when a
 * Kernel upgrade lets them through, {@code KernelChangeData.changeDataCommit} can hand the removes over as they
 * are), and with the door's commit the log holds the removes with {@code dataChange=true} and the {@code cdc}
 * actions, as Spark's MERGE writes them.
 */
class ChangeDataCommitTest {
    private static final StructType SCHEMA = new StructType().add("id", IntegerType.INTEGER);

    @TempDir
    Path dir;

    private final Engine engine = DefaultEngine.create(new Configuration());

    @Test
    void kernelStillRefusesAddsAndRemovesOnACdfTable() throws Exception {
        String path = cdfTableWithOneFile();
        Snapshot snap = TableManager.loadSnapshot(path).build(engine);
        Transaction txn = snap.buildUpdateTableTransaction("test", Operation.WRITE).build(engine);
        List<Row> actions = new ArrayList<>(removesOfAll(snap));
        actions.addAll(adds(txn, "b.parquet"));
        assertThatThrownBy(() -> txn.commit(engine, iterable(actions)))
                .as("Kernel now commits adds and removes that change data on a table with the change data feed: "
                        + "KernelChangeData.changeDataCommit need not hide the removes' dataChange any more")
                .isInstanceOf(KernelException.class).hasMessageContaining("Change Data Feed");
    }

    @Test
    void theDoorCommitsRemovesAddsAndCdcActions() throws Exception {
        String path = cdfTableWithOneFile();
        Snapshot snap = TableManager.loadSnapshot(path).withCommitter(KernelChangeData.committer()).build(engine);
        Transaction txn = snap.buildUpdateTableTransaction("test", Operation.WRITE).build(engine);
        List<Row> commit = KernelChangeData.changeDataCommit(removesOfAll(snap), adds(txn, "b.parquet"),
                List.of(KernelChangeData.cdcAction("_change_data/cdc-00000-x.c000.snappy.parquet", Map.of(), 123)));
        assertThat(txn.commit(engine, iterable(commit)).getVersion()).isEqualTo(2);

        String json = Files.readString(dir.resolve("t/_delta_log/00000000000000000002.json"));
        assertThat(json).contains("\"remove\":{\"path\":\"a.parquet\"").containsPattern("\"remove\":\\{[^\\n]*\"dataChange\":true");
        assertThat(json).containsPattern("\"add\":\\{\"path\":\"b.parquet\"[^\\n]*\"dataChange\":true");
        assertThat(json).contains("{\"cdc\":{\"path\":\"_change_data/cdc-00000-x.c000.snappy.parquet\",\"partitionValues\":{},"
                + "\"size\":123,\"dataChange\":false}}");
        Snapshot after = TableManager.loadSnapshot(path).build(engine);
        assertThat(after.getVersion()).isEqualTo(2);
    }

    @Test
    void withoutCdcActionsTheRemovesAreHandedOverAsTheyAre() {
        Row remove = KernelChangeData.cdcAction("x", Map.of(), 1);
        assertThat(KernelChangeData.changeDataCommit(List.of(remove), List.of(), List.of())).containsExactly(remove);
        assertThat(KernelChangeData.isCdcAction(remove)).isTrue();
    }

    private String cdfTableWithOneFile() throws Exception {
        String path = dir.resolve("t").toString();
        TableManager.buildCreateTableTransaction(path, SCHEMA, "test")
                .withTableProperties(Map.of("delta.enableChangeDataFeed", "true")).build(engine)
                .commit(engine, CloseableIterable.emptyIterable());
        Snapshot snap = TableManager.loadSnapshot(path).build(engine);
        Transaction txn = snap.buildUpdateTableTransaction("test", Operation.WRITE).build(engine);
        txn.commit(engine, iterable(adds(txn, "a.parquet")));
        return path;
    }

    private List<Row> removesOfAll(Snapshot snap) throws Exception {
        List<Row> removes = new ArrayList<>();
        try (CloseableIterator<FilteredColumnarBatch> files = snap.getScanBuilder().build().getScanFiles(engine)) {
            while (files.hasNext()) {
                try (CloseableIterator<Row> rows = files.next().getRows()) {
                    rows.forEachRemaining(r -> removes.add(KernelInternals.removeAction(r)));
                }
            }
        }
        return removes;
    }

    private List<Row> adds(Transaction txn, String name) throws Exception {
        Row state = txn.getTransactionState(engine);
        var ctx = Transaction.getWriteContext(engine, state, Map.of());
        String file = ctx.getTargetDirectory() + (ctx.getTargetDirectory().endsWith("/") ? "" : "/") + name;
        List<Row> out = new ArrayList<>();
        try (CloseableIterator<Row> adds = Transaction.generateAppendActions(engine, state,
                KernelInternals.closeable(List.of(new DataFileStatus(file, 10, 1, Optional.empty())).iterator()), ctx)) {
            adds.forEachRemaining(out::add);
        }
        return out;
    }

    private static CloseableIterable<Row> iterable(List<Row> rows) {
        return CloseableIterable.inMemoryIterable(KernelInternals.closeable(rows.iterator()));
    }
}
