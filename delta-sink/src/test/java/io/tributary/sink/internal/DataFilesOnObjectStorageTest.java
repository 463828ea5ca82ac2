package io.tributary.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.delta.KernelEngines;
import io.tributary.delta.KernelSchemas;
import io.tributary.delta.RemoteFiles;
import io.tributary.schema.Schema;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkOffsets;
import io.tributary.storage.ObjectInfo;
import io.tributary.storage.ObjectLocation;
import io.tributary.storage.ObjectStore;
import io.tributary.storage.S3ServerExtension;
import io.tributary.storage.Storage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Tributary's own Parquet writer for a table on object storage: written locally, uploaded whole (in parts when large), nothing left by an aborted batch. */
@Tag("integration")
class DataFilesOnObjectStorageTest {
    @RegisterExtension
    static final S3ServerExtension S3 = new S3ServerExtension();

    @TempDir
    Path dir;

    private static List<Path> parquet(Path folder) throws IOException {
        if (!Files.exists(folder)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(folder)) {
            return s.filter(p -> p.toString().endsWith(".parquet") && !p.toString().contains("_delta_log")).toList();
        }
    }

    private static String addStats(Path table) throws IOException {
        try (Stream<String> lines = Files.lines(table.resolve("_delta_log/00000000000000000000.json"))) {
            return lines.filter(l -> l.startsWith("{\"add\"")).findFirst().orElseThrow().replaceAll(".*\"stats\":", "");
        }
    }

    @Test
    void aTableOnObjectStorageGetsTheSameFilesAsALocalOne() throws IOException {
        Path bucket = S3.createBucket("direct");
        List<Object[]> rows = DataFileWriterTest.rows();
        SinkOffsets offsets = new SinkOffsets("app", "events", "id", Map.of(0, (long) rows.size()));
        new DeltaTableWriter(KernelEngines.create(S3.storage()), "s3a://direct/t", DataFileWriterTest.SCHEMA, Map.of())
                .append("app", 0, rows, Map.of(), offsets);
        new DeltaTableWriter(KernelEngines.create(), dir.resolve("local").toString(), DataFileWriterTest.SCHEMA, Map.of())
                .append("app", 0, rows, Map.of(), offsets);

        assertThat(parquet(bucket.resolve("t"))).singleElement().satisfies(f ->
                assertThat(f.getFileName().toString()).as("Tributary's writer names its files <uuid>-000.parquet").matches("[0-9a-f-]{36}-000\\.parquet"));
        assertThat(addStats(bucket.resolve("t"))).isEqualTo(addStats(dir.resolve("local")));
        List<Object[]> back = new ArrayList<>(DeltaTables.readRows("s3a://direct/t", S3.storage()));
        back.sort(Comparator.comparingInt(r -> (Integer) r[2]));
        assertThat(back).hasSize(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            assertThat(Arrays.deepEquals(back.get(i), rows.get(i))).as("row %d: %s", i, Arrays.deepToString(back.get(i))).isTrue();
        }
    }

    @Test
    void aFileLargerThanTheMultipartThresholdIsUploadedInParts() throws IOException {
        Path bucket = S3.createBucket("large");
        Map<String, String> settings = new HashMap<>(S3.settings());
        settings.put("fs.s3a.multipart.threshold", "6M");
        settings.put("fs.s3a.multipart.size", "5M");
        Storage storage = Storage.of(settings);
        Schema schema = Schema.parse("id INT, a DOUBLE, b DOUBLE");
        Random random = new Random(7);
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 500_000; i++) {
            rows.add(new Object[] {i, random.nextDouble(), random.nextDouble()});
        }
        new DeltaTableWriter(KernelEngines.create(storage), "s3a://large/t", Map.of(), Partitioning.none(schema), 1L << 30)
                .append("app", 0, rows, Map.of(), new SinkOffsets("app", "events", "id", Map.of(0, (long) rows.size())));

        Path file = parquet(bucket.resolve("t")).get(0);
        assertThat(Files.size(file)).isGreaterThan(6L << 20);
        ObjectInfo object = ObjectStore.of(storage).head(ObjectLocation.parse("s3a://large/t/" + file.getFileName()));
        assertThat(object.etag()).as("uploaded in parts of 5 MiB").endsWith("-" + ((Files.size(file) + (5 << 20) - 1) / (5 << 20)));
        assertThat(DeltaTables.readRows("s3a://large/t", storage)).hasSize(rows.size());
    }

    @Test
    void filesOfABatchThatIsAbortedAreDeletedFromTheBucket() throws IOException {
        Path bucket = S3.createBucket("aborted");
        Schema schema = Schema.parse("i INT");
        String folder = "s3a://aborted/t";
        RemoteFiles remote = RemoteFiles.of(KernelEngines.configuration(S3.storage()), folder);
        // a 1-byte target: a new file at every size check (each 10,000 rows)
        DirectParquetFiles.Rolling files = new DirectParquetFiles.Rolling(DataFileTargets.upload(remote), folder, schema,
                KernelSchemas.toKernel(schema), List.of(), 1);
        for (int i = 0; i < 25_000; i++) {
            files.write(new Object[] {i});
        }
        assertThat(parquet(bucket.resolve("t"))).as("two complete files are uploaded, the third is being written").hasSize(2);

        files.abort();
        assertThat(parquet(bucket.resolve("t"))).isEmpty();
    }
}
