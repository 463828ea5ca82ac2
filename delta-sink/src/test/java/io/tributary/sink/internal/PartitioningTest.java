package io.tributary.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.delta.KernelEngines;
import io.tributary.schema.Schema;
import io.tributary.schema.Timestamps;
import io.tributary.schema.TributaryException;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkOffsets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitioningTest {
    private static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");
    private static final String APP = "tributary-test-sink";

    @TempDir
    Path dir;

    private static Object[] row(int id, String user, String ts) {
        return new Object[] {id, user, id * 1.0, ts == null ? null : Timestamps.parseMicros(ts, true)};
    }

    private DeltaTableWriter writer(List<String> partitionBy) {
        return new DeltaTableWriter(KernelEngines.create(), dir.resolve("t").toString(), Map.of(), Partitioning.parse(partitionBy, SCHEMA));
    }

    private static SinkOffsets offsets(long n) {
        return new SinkOffsets(APP, "events", "id", Map.of(0, n));
    }

    @Test
    void aDayDerivedFromTheEventTimeMakesHiveFoldersWithoutTheColumnInTheFiles() throws IOException {
        writer(List.of("date(ts) as day")).append(APP, 0, List.of(row(1, "a", "2024-05-01T23:59:59.999999Z"),
                row(2, "b", "2024-05-02T00:00:00Z"), row(3, "c", "2024-05-02T10:00:00Z"), row(4, "d", null)), Map.of(), offsets(4));

        assertThat(DeltaTables.schema(dir.resolve("t").toString()).orElseThrow().toDdl()).endsWith("day DATE");
        List<Object[]> rows = DeltaTables.readRows(dir.resolve("t").toString());
        assertThat(rows).hasSize(4);
        for (Object[] r : rows) {
            Object expected = r[3] == null ? null : (int) LocalDate.of(2024, 5, (Integer) r[0] == 1 ? 1 : 2).toEpochDay();
            assertThat(r[4]).as("day of row %s", r[0]).isEqualTo(expected);
        }
        try (Stream<Path> s = Files.walk(dir.resolve("t"))) {
            List<Path> files = s.filter(p -> p.toString().endsWith(".parquet") && !p.toString().contains("_delta_log")).toList();
            assertThat(files).extracting(p -> p.getParent().getFileName().toString())
                    .containsExactlyInAnyOrder("day=2024-05-01", "day=2024-05-02", "day=__HIVE_DEFAULT_PARTITION__");
            for (Path f : files) {
                try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(f.toUri()), new Configuration()))) {
                    assertThat(r.getFooter().getFileMetaData().getSchema().getFields()).extracting(t -> t.getName())
                            .containsExactly("id", "user", "amt", "ts");
                }
            }
        }
        String commit = Files.readString(dir.resolve("t/_delta_log/00000000000000000000.json"));
        assertThat(commit).contains("\"partitionColumns\":[\"day\"]").contains("\"partitionValues\":{\"day\":\"2024-05-02\"}");
    }

    @Test
    void aPlainColumnPartitionsAsIs() {
        writer(List.of("user")).append(APP, 0, List.of(row(1, "a", "2024-05-01T00:00:00Z"), row(2, "b", "2024-05-01T00:00:00Z"),
                row(3, "a", "2024-05-01T00:00:00Z")), Map.of(), offsets(3));

        assertThat(Files.isDirectory(dir.resolve("t/user=a"))).isTrue();
        assertThat(Files.isDirectory(dir.resolve("t/user=b"))).isTrue();
        assertThat(DeltaTables.readRows(dir.resolve("t").toString())).hasSize(3);
    }

    @Test
    void anotherPartitioningThanTheTablesIsRefused() {
        writer(List.of("user")).append(APP, 0, List.<Object[]>of(row(1, "a", "2024-05-01T00:00:00Z")), Map.of(), offsets(1));

        assertThatThrownBy(() -> writer(List.of()).append(APP, 1, List.<Object[]>of(row(2, "a", "2024-05-01T00:00:00Z")), Map.of(0, 1L), offsets(2)))
                .isInstanceOf(TributaryException.class).hasMessageContaining("is partitioned by [user], but the sink partitions by []");
    }

    @Test
    void malformedEntriesNameTheSetting() {
        assertThatThrownBy(() -> Partitioning.parse(List.of("date(user) as day"), SCHEMA))
                .hasMessageContaining("sink.delta.partitionBy entry 'date(user) as day'").hasMessageContaining("TIMESTAMP or DATE");
        assertThatThrownBy(() -> Partitioning.parse(List.of("nope"), SCHEMA)).hasMessageContaining("column 'nope' is not in the sink's schema");
        assertThatThrownBy(() -> Partitioning.parse(List.of("amt"), SCHEMA)).hasMessageContaining("date(amt) as day");
        assertThatThrownBy(() -> Partitioning.parse(List.of("date(ts) as user"), SCHEMA)).hasMessageContaining("already a column");
        assertThatThrownBy(() -> Partitioning.parse(List.of("user", "USER"), SCHEMA)).hasMessageContaining("listed twice");
    }
}
