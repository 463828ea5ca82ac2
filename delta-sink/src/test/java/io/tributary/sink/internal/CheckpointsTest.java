package io.tributary.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.Schema;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkOffsets;
import io.tributary.sink.SparkCreatedTables;
import io.tributary.sink.maintenance.SparkTables;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checkpoints the sink's commits leave, as Spark reads them. */
class CheckpointsTest {
    private static final String APP = "checkpoints-test-sink";

    @TempDir
    Path dir;

    private final Engine engine = KernelEngines.create();

    /** Commits batches {@code from..to} of one row each, the offsets following on from the batch numbers. */
    private static void appendBatches(DeltaTableWriter writer, int from, int to) {
        for (int b = from; b <= to; b++) {
            writer.append(APP, b, List.<Object[]>of(new Object[] {b, "n" + b}), b == 0 ? Map.of() : Map.of(0, (long) b),
                    new SinkOffsets(APP, "events", "tid", Map.of(0, b + 1L)));
        }
    }

    /** Spark's file system: Hadoop's local one, which writes a {@code .<name>.crc} beside each file and checks it on reading. */
    private static LocalFileSystem sparksFileSystem() throws IOException {
        Configuration conf = new Configuration();
        conf.setBoolean("fs.file.impl.disable.cache", true);
        return FileSystem.getLocal(conf);
    }

    private static String readAsSpark(Path file) throws IOException {
        try (LocalFileSystem fs = sparksFileSystem(); FSDataInputStream in = fs.open(new org.apache.hadoop.fs.Path(file.toUri()))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void sparkReadsTheLastCheckpointTheSinkRewroteAfterSparksOwnCheckpoint() throws IOException {
        Path table = dir.resolve("t");
        DeltaTableWriter writer = new DeltaTableWriter(engine, table.toString(), Schema.parse("id INT, name STRING"),
                Map.of("delta.checkpointInterval", "2"));
        appendBatches(writer, 0, 2); // checkpoint at 2
        Path last = table.resolve("_delta_log/_last_checkpoint");
        String atTwo = Files.readString(last);
        assertThat(atTwo).contains("\"version\":2");
        // Spark checkpoints version 2 again: its _last_checkpoint goes through Hadoop's checksummed file system
        try (LocalFileSystem fs = sparksFileSystem();
             FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path(last.toUri()), true)) {
            out.write(atTwo.getBytes(StandardCharsets.UTF_8));
        }
        assertThat(last.resolveSibling("._last_checkpoint.crc")).exists();

        appendBatches(writer, 3, 4); // checkpoint at 4

        assertThat(readAsSpark(last)).contains("\"version\":4");
        assertThat(DeltaTables.readRows(table.toString())).hasSize(5);
    }

    @Test
    void aTableWithV2CheckpointsGetsNoClassicCheckpointFromTheSink() throws IOException {
        Path table = SparkTables.copy("dv-v2-checkpoint", dir); // Spark's v2 checkpoint at 5, version 6, checkpointInterval 5
        String sparks = Files.readString(table.resolve("_delta_log/_last_checkpoint"));
        DeltaTableWriter writer = new DeltaTableWriter(engine, table.toString(), Schema.parse("id INT, name STRING"), Map.of());

        appendBatches(writer, 0, 3); // versions 7..10

        assertThat(DeltaTables.latestVersion(table.toString())).isEqualTo(10);
        assertThat(checkpoints(table)).containsExactly("00000000000000000005.checkpoint.be1b49a8-3a82-4038-9ae0-7861fccb9622.json");
        assertThat(Files.readString(table.resolve("_delta_log/_last_checkpoint"))).isEqualTo(sparks);
        assertThat(DeltaTables.readRows(table.toString())).hasSize(12 + 4);
    }

    @Test
    void aNewTableWithV2CheckpointsGetsNoCheckpoint() throws IOException {
        Path table = SparkCreatedTables.create(dir.resolve("t"), List.of("id integer", "name string"),
                List.of(SparkCreatedTables.V2_CHECKPOINT), Map.of("delta.checkpointInterval", "2"));
        DeltaTableWriter writer = new DeltaTableWriter(engine, table.toString(), Schema.parse("id INT, name STRING"), Map.of());

        appendBatches(writer, 0, 3); // versions 1..4

        assertThat(checkpoints(table)).isEmpty();
        assertThat(table.resolve("_delta_log/_last_checkpoint")).doesNotExist();
        assertThat(DeltaTables.readRows(table.toString())).hasSize(4);
    }

    private static List<String> checkpoints(Path table) throws IOException {
        try (Stream<Path> files = Files.list(table.resolve("_delta_log"))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.contains(".checkpoint.")).sorted().toList();
        }
    }
}
