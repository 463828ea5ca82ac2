package io.tributary.sink.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.delta.KernelEngines;
import io.tributary.schema.Timestamps;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkOffsets;
import io.tributary.sink.TableCommit;
import io.tributary.sink.internal.DeltaTableWriter;
import io.tributary.sink.internal.Partitioning;
import io.tributary.storage.S3ServerExtension;
import io.tributary.storage.Storage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A table on a real S3 server (S3Proxy) through Kernel: commits, a checkpoint, history, optimize and vacuum. */
@Tag("integration")
class TableOnObjectStorageTest {
    @RegisterExtension
    static final S3ServerExtension S3 = new S3ServerExtension();

    private static void commit(DeltaTableWriter writer, String app, long batch, int firstId, int rows) {
        List<Object[]> out = new ArrayList<>();
        for (int i = firstId; i < firstId + rows; i++) {
            out.add(new Object[] {i, "u" + i % 3, i * 1.5, Timestamps.parseMicros("2024-05-01T10:00:00Z", true)});
        }
        writer.append(app, batch, out, firstId == 0 ? Map.of() : Map.of(0, (long) firstId),
                new SinkOffsets(app, "events", "topic-id", Map.of(0, (long) firstId + rows)));
    }

    private static List<Integer> ids(String table, Storage storage) {
        return DeltaTables.readRows(table, storage).stream().map(r -> (Integer) r[0]).sorted().toList();
    }

    @Test
    void commitsCheckpointsOptimizeAndVacuumWorkOnObjectStorage() throws Exception {
        Path bucket = S3.createBucket("lake");
        Storage storage = S3.storage();
        String table = "s3a://lake/bronze/orders";
        DeltaTableWriter writer = new DeltaTableWriter(KernelEngines.create(storage), table, Map.of(), Partitioning.none(TestTables.SCHEMA));
        for (int b = 0; b < 12; b++) {
            commit(writer, TestTables.APP, b, b * 5, 5);
        }

        assertThat(ids(table, storage)).hasSize(60).startsWith(0, 1, 2).endsWith(59);
        assertThat(DeltaTables.latestVersion(table, storage)).isEqualTo(11);
        assertThat(DeltaTables.history(table, storage)).extracting(TableCommit::txnVersion).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L,
                8L, 9L, 10L, 11L);
        assertThat(DeltaTables.sinkStatus(table, TestTables.APP, "events", storage).nextBatchId()).isEqualTo(12);
        Path log = bucket.resolve("bronze/orders/_delta_log");
        assertThat(log.resolve("00000000000000000010.checkpoint.parquet")).exists();
        assertThat(Files.readString(log.resolve("_last_checkpoint"))).contains("\"version\":10");
        // a replayed batch is found in the table and writes nothing
        commit(writer, TestTables.APP, 11, 55, 5);
        assertThat(DeltaTables.latestVersion(table, storage)).isEqualTo(11);

        OptimizeResult optimized = Optimize.run(table, OptimizeOptions.defaults().withStorage(storage));
        assertThat(optimized.filesRemoved()).isEqualTo(12);
        assertThat(ids(table, storage)).hasSize(60);
        assertThat(TableDescription.of(table, OptimizeOptions.DEFAULT_TARGET_FILE_SIZE, storage).files()).isEqualTo(1);

        VacuumResult vacuumed = new Vacuum(table, storage).run(Duration.ZERO, false, true);
        assertThat(vacuumed.files()).hasSize(12);
        assertThat(parquetOnDisk(bucket.resolve("bronze/orders"))).hasSize(1);
        assertThat(ids(table, storage)).hasSize(60);
    }

    @Test
    void aCommitRacingAnotherForTheSameVersionIsRebasedNotOverwritten() {
        S3.createBucketQuietly("shared");
        Storage storage = S3.storage();
        String table = "s3a://shared/t";
        DeltaTableWriter sink = new DeltaTableWriter(KernelEngines.create(storage), table, Map.of(), Partitioning.none(TestTables.SCHEMA));
        for (int b = 0; b < 3; b++) {
            commit(sink, TestTables.APP, b, b * 4, 4);
        }
        // optimize plans at version 2; the sink commits version 3 before optimize writes its commit
        OptimizeResult r = new Optimize(table, OptimizeOptions.defaults().withStorage(storage))
                .beforeCommit(attempt -> {
                    if (attempt == 1) {
                        commit(sink, TestTables.APP, 3, 12, 4);
                    }
                })
                .run();

        assertThat(r.version()).isEqualTo(4);
        assertThat(ids(table, storage)).hasSize(16).startsWith(0).endsWith(15);
        assertThat(DeltaTables.history(table, storage)).extracting(TableCommit::version).containsExactly(0L, 1L, 2L, 3L, 4L);
    }

    private static List<Path> parquetOnDisk(Path table) throws java.io.IOException {
        try (Stream<Path> s = Files.walk(table)) {
            return s.filter(p -> p.toString().endsWith(".parquet") && !p.toString().contains("_delta_log")).toList();
        }
    }
}
