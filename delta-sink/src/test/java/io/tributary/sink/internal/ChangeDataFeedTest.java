package io.tributary.sink.internal;

import static io.tributary.sink.internal.UpsertTables.batch;
import static io.tributary.sink.internal.UpsertTables.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.tributary.delta.KernelEngines;
import io.tributary.delta.kernel.KernelInternals;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upserts of change data into a table with {@code delta.enableChangeDataFeed=true}: each commit that rewrites
 * files carries {@code cdc} actions for {@code _change_data/cdc-*.snappy.parquet} files holding the rows it
 * changed with their {@code _change_type}, beside its removes and adds (both {@code dataChange=true}, as
 * Spark's MERGE writes them); a commit that only inserts carries none (its adds are the inserts).
 */
class ChangeDataFeedTest {
    static final Map<String, String> CDF = Map.of("delta.enableChangeDataFeed", "true");
    private static final StructType CHANGE_SCHEMA = new StructType().add("id", IntegerType.INTEGER).add("name", StringType.STRING)
            .add("lsn", LongType.LONG).add("_change_type", StringType.STRING);

    @TempDir
    Path dir;

    private final Engine engine = KernelEngines.create();

    private Path table() {
        return dir.resolve("t");
    }

    private WriteMode mode(Map<String, String> settings) {
        SinkConfig c = ChangeUpsertTest.config(table(), settings);
        return WriteMode.forConfig(c, new DeltaTableWriter(engine, c.tablePath(), c.tableSchema(), CDF));
    }

    private static Object[] c(int id, String name, String op, long lsn) {
        return ChangeUpsertTest.c(id, name, op, lsn);
    }

    @Test
    void upsertsWriteInsertsUpdatesAndDeletesAsChangeDataFiles() throws Exception {
        WriteMode cdc = mode(ChangeUpsertTest.CDC);
        write(cdc, 0, batch(c(1, "a", "i", 10), c(2, "b", "i", 11), c(3, "c", "i", 12)));
        write(cdc, 1, batch(c(4, "d", "i", 13)));
        assertThat(cdcPaths(0)).isEmpty();
        assertThat(cdcPaths(1)).as("an insert-only commit: its adds are the inserts").isEmpty();

        CommitResult b2 = write(cdc, 2, batch(c(1, "a2", "u", 20), c(2, null, "d", 21), c(5, "e", "i", 22), c(3, "c-old", "u", 5)));
        assertThat(b2.metrics()).containsEntry("numTargetChangeFilesAdded", 1L).containsEntry("numTargetRowsUpdated", 1L)
                .containsEntry("numTargetRowsDeleted", 1L).containsEntry("numTargetRowsInserted", 1L);
        String log = Files.readString(table().resolve("_delta_log/00000000000000000002.json"));
        assertThat(log).containsPattern("\"remove\":\\{[^\\n]*\"dataChange\":true").containsPattern("\"add\":\\{[^\\n]*\"dataChange\":true")
                .doesNotContain("\"dataChange\":false,\"extendedFileMetadata\"");
        List<String> paths = cdcPaths(2);
        assertThat(paths).hasSize(1).allMatch(p -> p.matches("_change_data/cdc-00000-[0-9a-f-]{36}\\.c000\\.snappy\\.parquet"));
        assertThat(changes(paths)).containsExactlyInAnyOrder(
                "1:a:10:update_preimage", "1:a2:20:update_postimage", "2:b:11:delete", "5:e:22:insert");
        assertThat(DeltaTables.readRows(table().toString())).hasSize(4);

        CommitResult b3 = write(cdc, 3, batch(c(4, null, "d", 30), c(5, null, "d", 31), c(1, null, "d", 32), c(3, null, "d", 33)));
        assertThat(b3.metrics()).containsEntry("numTargetRowsDeleted", 4L);
        assertThat(changes(cdcPaths(3))).containsExactlyInAnyOrder("1:a2:20:delete", "3:c:12:delete", "4:d:13:delete", "5:e:22:delete");
        assertThat(DeltaTables.readRows(table().toString())).isEmpty();
    }

    @Test
    void onATableWithDeletionVectorsTheChangesAreWrittenBesideTheMarks() throws Exception {
        SinkConfig config = ChangeUpsertTest.config(table(), ChangeUpsertTest.CDC);
        Map<String, String> properties = Map.of("delta.enableChangeDataFeed", "true", "delta.enableDeletionVectors", "true");
        WriteMode cdc = WriteMode.forConfig(config, new DeltaTableWriter(engine, config.tablePath(), config.tableSchema(), properties));
        write(cdc, 0, batch(c(1, "a", "i", 10), c(2, "b", "i", 11), c(3, "c", "i", 12)));
        CommitResult b1 = write(cdc, 1, batch(c(1, "a2", "u", 20), c(2, null, "d", 21)));
        assertThat(b1.metrics()).containsEntry("numTargetDeletionVectorsAdded", 1L).containsEntry("numTargetRowsCopied", 0L)
                .containsEntry("numTargetChangeFilesAdded", 1L);
        assertThat(changes(cdcPaths(1))).containsExactlyInAnyOrder("1:a:10:update_preimage", "1:a2:20:update_postimage", "2:b:11:delete");
        assertThat(Files.readString(table().resolve("_delta_log/00000000000000000001.json")))
                .containsPattern("\"add\":\\{[^\\n]*\"dataChange\":true[^\\n]*\"deletionVector\":\\{\"storageType\":\"u\"");
        assertThat(DeltaTables.readRows(table().toString())).extracting(r -> r[0] + ":" + r[1]).containsExactlyInAnyOrder("1:a2", "3:c");
    }

    @Test
    void plainUpsertsWriteTheirChangesToo() throws Exception {
        WriteMode upsert = mode(Map.of("mode", "upsert", "keys", "id"));
        write(upsert, 0, batch(c(1, "a", "i", 1), c(2, "b", "i", 2)));
        write(upsert, 1, batch(c(2, "b2", "u", 3), c(3, "c", "i", 4)));
        assertThat(changes(cdcPaths(1))).containsExactlyInAnyOrder("2:b:2:update_preimage", "2:b2:3:update_postimage", "3:c:4:insert");
    }

    @Test
    void aPartitionedTableWithTheFeedIsRefusedForUpserts() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SinkTableFeatures.checkWritable("/t", CDF,
                        io.tributary.sink.SinkMode.UPSERT, true))
                .hasMessageContaining("delta table /t is partitioned").hasMessageContaining("delta.enableChangeDataFeed=true");
        SinkTableFeatures.checkWritable("/t", CDF, io.tributary.sink.SinkMode.UPSERT, false);
        SinkTableFeatures.checkWritable("/t", CDF, io.tributary.sink.SinkMode.APPEND, true);
    }

    private WriteMode changeUpsert(RewriteCommitter.BeforeCommit beforeCommit) {
        SinkConfig c = ChangeUpsertTest.config(table(), ChangeUpsertTest.CDC);
        DeltaTableWriter w = new DeltaTableWriter(engine, c.tablePath(), c.tableSchema(), CDF);
        return new ChangeUpsert(w, new RewriteCommitter(w, beforeCommit), c);
    }

    @Test
    void aCrashBeforeTheCommitLeavesOrphanChangeFilesAndTheBatchRedoneWritesItsChangesOnce() throws Exception {
        write(changeUpsert(a -> { }), 0, batch(c(1, "a", "i", 1), c(2, "b", "i", 2)));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> write(changeUpsert(a -> {
            throw new IllegalStateException("crash");
        }), 1, batch(c(1, "a2", "u", 3), c(2, null, "d", 4)))).hasMessage("crash");
        assertThat(DeltaTables.latestVersion(table().toString())).isZero();

        write(changeUpsert(a -> { }), 1, batch(c(1, "a2", "u", 3), c(2, null, "d", 4)));
        assertThat(changes(cdcPaths(1))).containsExactlyInAnyOrder("1:a:1:update_preimage", "1:a2:3:update_postimage", "2:b:2:delete");
        try (var files = Files.list(table().resolve("_change_data"))) {
            assertThat(files.filter(f -> f.toString().endsWith(".parquet"))).as("the crashed attempt's file is an orphan").hasSize(2);
        }
    }

    @Test
    void aConcurrentAppendOfOtherKeysCommitsTheSameChangeDataOnTheNewVersion() throws Exception {
        write(changeUpsert(a -> { }), 0, batch(c(1, "a", "i", 1), c(2, "b", "i", 2)));
        CommitResult r = write(changeUpsert(attempt -> {
            if (attempt == 1) { // another writer appends key 9 between the plan and the commit
                DeltaTableWriter other = new DeltaTableWriter(engine, table().toString(),
                        ChangeUpsertTest.config(table(), ChangeUpsertTest.CDC).tableSchema(), Map.of());
                io.delta.kernel.Transaction txn = other.latestSnapshot().orElseThrow()
                        .buildUpdateTableTransaction("other-app", io.delta.kernel.Operation.WRITE).build(engine);
                txn.commit(engine, Iterators.iterable(other.writeFiles(txn, List.<Object[]>of(new Object[] {9, "z", 0L}))));
            }
        }), 1, batch(c(1, "a2", "u", 3)));
        assertThat(r.metrics()).containsEntry("commitAttempts", 2).containsEntry("replans", 0);
        assertThat(r.version()).isEqualTo(2);
        assertThat(changes(cdcPaths(2))).containsExactlyInAnyOrder("1:a:1:update_preimage", "1:a2:3:update_postimage");
        assertThat(Files.readString(table().resolve("_delta_log/00000000000000000002.json")))
                .containsPattern("\"remove\":\\{[^\\n]*\"dataChange\":true");
        assertThat(DeltaTables.readRows(table().toString())).hasSize(3);
    }

    /** The {@code cdc} paths of a version's commit. */
    List<String> cdcPaths(long version) throws Exception {
        String log = Files.readString(table().resolve(String.format("_delta_log/%020d.json", version)));
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("\\{\"cdc\":\\{\"path\":\"([^\"]+)\"[^\\n]*\"dataChange\":false").matcher(log);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** The rows of change files as id:name:lsn:_change_type. */
    List<String> changes(List<String> paths) throws Exception {
        List<String> out = new ArrayList<>();
        for (String p : paths) {
            Path file = table().resolve(p);
            FileStatus fs = FileStatus.of(file.toUri().toString(), Files.size(file), 0);
            try (CloseableIterator<ColumnarBatch> batches = engine.getParquetHandler()
                    .readParquetFiles(KernelInternals.single(fs), CHANGE_SCHEMA, Optional.empty()).map(r -> r.getData())) {
                while (batches.hasNext()) {
                    try (CloseableIterator<Row> rows = batches.next().getRows()) {
                        while (rows.hasNext()) {
                            Row r = rows.next();
                            out.add(r.getInt(0) + ":" + (r.isNullAt(1) ? null : r.getString(1)) + ":" + r.getLong(2) + ":" + r.getString(3));
                        }
                    }
                }
            }
        }
        return out;
    }
}
