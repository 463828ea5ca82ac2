package io.tributary.sink.internal;

import static io.tributary.sink.internal.ColumnMappingGoldenTest.SCHEMA;
import static io.tributary.sink.internal.ColumnMappingGoldenTest.rows;
import static io.tributary.sink.internal.UpsertTables.batch;
import static io.tributary.sink.internal.UpsertTables.tombstone;
import static io.tributary.sink.internal.UpsertTables.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.engine.Engine;
import io.delta.kernel.types.StructField;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.TributaryException;
import io.tributary.sink.SinkMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table the sink creates with {@code sink.delta.properties: {delta.columnMapping.mode: name}}: Kernel gives each
 * column a physical name and an id, and the sink's files use them. The table after the test is kept for Spark with
 * {@code -Dtributary.colmap.keep=FOLDER} (compat/spark's {@code SparkColumnMapping read}).
 */
class ColumnMappedTableTest {
    @TempDir
    Path dir;

    private final Engine engine = KernelEngines.create();

    @Test
    void aTableTheSinkCreatesWithColumnMappingGetsPhysicalNamesInItsFilesAndUpsertsReadBack() throws IOException {
        Path table = dir.resolve("created");
        Map<String, String> properties = Map.of("delta.columnMapping.mode", "name");
        DeltaTableWriter w = new DeltaTableWriter(engine, table.toString(), properties,
                Partitioning.parse(List.of("region"), SCHEMA));
        w.append(UpsertTables.APP, 0, List.of(row(1, "a", 1.5, "eu", "x"), row(2, "b", 2.5, "us", null), row(3, "c", 3.5, "eu", "z")),
                Map.of(), UpsertTables.offsets(100));
        CopyOnWriteUpsert upsert = new CopyOnWriteUpsert(w, new RewriteCommitter(w), new KeyColumns(SCHEMA, List.of("id")), null, 100);
        write(upsert, 1, batch(row(2, "b2", 20.5, "us", "upd"), row(4, "d", 4.5, "us", null), tombstone("[3]")));

        assertThat(rows(table)).containsExactly("[1, a, 1.5, eu, x]", "[2, b2, 20.5, us, upd]", "[4, d, 4.5, us, null]");
        List<String> physical = new ArrayList<>();
        for (StructField f : w.latestSnapshot().orElseThrow().getSchema().fields()) {
            assertThat(f.getMetadata().contains("delta.columnMapping.id")).as("column %s has an id", f.getName()).isTrue();
            physical.add(f.getMetadata().getString("delta.columnMapping.physicalName"));
        }
        assertThat(physical).as("Kernel names the columns col-<uuid>").allMatch(p -> p.startsWith("col-"));
        try (Stream<Path> files = Files.walk(table)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".parquet")).toList()) {
                List<String> columns = new ArrayList<>();
                for (Type t : ParquetFileReader.readFooter(new LocalInputFile(f), ParquetMetadataConverter.NO_FILTER)
                        .getFileMetaData().getSchema().getFields()) {
                    assertThat(t.getId()).as("field id of %s in %s", t.getName(), f.getFileName()).isNotNull();
                    columns.add(t.getName());
                }
                assertThat(columns).as("columns of %s: the physical names but region's (a partition column)", f.getFileName())
                        .containsExactlyInAnyOrder(physical.get(0), physical.get(1), physical.get(2), physical.get(4));
                assertThat(table.relativize(f).getName(0).toString()).as("partition folder").startsWith(physical.get(3) + "=");
            }
        }
        ColumnMappingGoldenTest.keep("created-name", table, "[1, a, 1.5, eu, x] [2, b2, 20.5, us, upd] [4, d, 4.5, us, null]");
    }

    @Test
    void aColumnAddedByMergeSchemaGetsTheNextIdAndItsOwnPhysicalName() {
        Path table = dir.resolve("grown");
        io.tributary.schema.Schema four = new io.tributary.schema.Schema(SCHEMA.fields().subList(0, 4));
        new DeltaTableWriter(engine, table.toString(), four, Map.of("delta.columnMapping.mode", "id"))
                .append(UpsertTables.APP, 0, List.<Object[]>of(new Object[] {1, "a", 1.5, "eu"}), Map.of(), UpsertTables.offsets(100));
        DeltaTableWriter grown = new DeltaTableWriter(engine, table.toString(), SCHEMA, Map.of("delta.columnMapping.mode", "id"));
        grown.append(UpsertTables.APP, 1, List.<Object[]>of(row(2, "b", 2.5, "us", "new")), Map.of(0, 100L), UpsertTables.offsets(200));

        assertThat(rows(table)).containsExactly("[1, a, 1.5, eu, null]", "[2, b, 2.5, us, new]");
        var snapshot = grown.latestSnapshot().orElseThrow();
        StructField note = snapshot.getSchema().get("note");
        assertThat(note.getMetadata().get("delta.columnMapping.id")).isEqualTo(5L);
        assertThat(note.getMetadata().getString("delta.columnMapping.physicalName")).startsWith("col-");
        assertThat(snapshot.getTableProperties()).containsEntry("delta.columnMapping.maxColumnId", "5");
    }

    @Test
    void anUpsertIntoAColumnMappedTableWithTheChangeDataFeedIsRefusedInOneLine() {
        assertThatThrownBy(() -> SinkTableFeatures.checkWritable("/t/cm", Map.of("delta.columnMapping.mode", "id",
                "delta.enableChangeDataFeed", "true"), SinkMode.UPSERT))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("/t/cm").hasMessageContaining("delta.columnMapping.mode=id").hasMessageContaining("mode append");
        SinkTableFeatures.checkWritable("/t/cm", Map.of("delta.columnMapping.mode", "id", "delta.enableChangeDataFeed", "true"),
                SinkMode.APPEND);
        SinkTableFeatures.checkWritable("/t/cm", Map.of("delta.columnMapping.mode", "name"), SinkMode.UPSERT);
    }

    private static Object[] row(int id, String customer, double amt, String region, String note) {
        return new Object[] {id, customer, amt, region, note};
    }
}
