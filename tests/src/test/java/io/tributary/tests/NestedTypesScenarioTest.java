package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.sink.DeltaTables;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Arrays, maps and their nesting end to end: JSON lines in, the events topic, Parquet, the Delta
 * table's schema, and a Delta source reading the table back into a second table.
 */
@Tag("integration")
@Timeout(300)
class NestedTypesScenarioTest {
    static final String SCHEMA = "id INT, tags ARRAY<STRING>, attrs MAP<STRING, INT>, "
            + "items ARRAY<STRUCT<sku: STRING, qty: INT, opts: MAP<STRING, ARRAY<DOUBLE>>>>, ts TIMESTAMP";
    static final String SPEC = """
            name: nested
            source:
              files:
                path: in/
                schema: "%s"
            sink:
              delta:
                path: out/
            trigger: availableNow
            """.formatted(SCHEMA);
    static final String SILVER = """
            name: silver
            source:
              delta:
                path: ../bronze/out/
            sink:
              delta:
                path: out/
            trigger: availableNow
            """;

    @TempDir
    Path dir;

    @Test
    void arraysMapsAndNestingReachTheTableAndFlowOnThroughADeltaSource() throws IOException {
        Workspace bronze = new Workspace(dir.resolve("bronze"), SPEC);
        bronze.addFile("a.json",
                "{\"id\": 1, \"tags\": [\"x\", null, \"y\"], \"attrs\": {\"k\": 1, \"n\": null}, "
                        + "\"items\": [{\"sku\": \"s1\", \"qty\": 2, \"opts\": {\"w\": [1.5, null]}}, null], \"ts\": \"2026-01-01T10:00:00Z\"}",
                "{\"id\": 2, \"tags\": [], \"attrs\": {}, \"items\": []}",
                "{\"id\": 3}",
                "{\"id\": 4, \"tags\": \"not an array\"}");
        Workspace.Result run = bronze.tributary("run").assertOk();
        assertThat(run.summary().get("numInputRows").asLong()).isEqualTo(3);
        String table = dir.resolve("bronze/out").toString();

        assertThat(DeltaTables.schema(table).orElseThrow().toDdl()).isEqualTo(SCHEMA);
        List<Object[]> rows = sorted(DeltaTables.readRows(table));
        assertThat(rows).hasSize(3);
        assertThat(rows.get(0)[1]).isEqualTo(Arrays.asList("x", null, "y"));
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("k", 1);
        attrs.put("n", null);
        assertThat(rows.get(0)[2]).isEqualTo(attrs);
        List<?> items = (List<?>) rows.get(0)[3];
        assertThat(items).hasSize(2);
        Object[] item = (Object[]) items.get(0);
        assertThat(item[0]).isEqualTo("s1");
        assertThat(item[1]).isEqualTo(2);
        assertThat(item[2]).isEqualTo(Map.of("w", Arrays.asList(1.5, null)));
        assertThat(items.get(1)).isNull();
        assertThat(rows.get(1)).containsExactly(2, List.of(), Map.of(), List.of(), null);
        assertThat(rows.get(2)).containsExactly(3, null, null, null, null);

        // the Parquet layout Spark and Kernel write: three-level LIST and MAP groups
        String parquetSchema = footerSchema(dir.resolve("bronze/out"));
        assertThat(parquetSchema).contains("optional group tags (LIST)", "repeated group list", "optional binary element (STRING)",
                "optional group attrs (MAP)", "repeated group key_value", "required binary key (STRING)", "optional int32 value");

        Workspace silver = new Workspace(dir.resolve("silver"), SILVER);
        silver.tributary("run").assertOk();
        String silverTable = dir.resolve("silver/out").toString();
        assertThat(DeltaTables.schema(silverTable).orElseThrow().toDdl()).isEqualTo(SCHEMA);
        List<Object[]> copied = sorted(DeltaTables.readRows(silverTable));
        assertThat(copied).hasSize(3);
        RowJson json = new RowJson(Schema.parse(SCHEMA));
        for (int i = 0; i < rows.size(); i++) {
            assertThat(new String(json.write(copied.get(i)), StandardCharsets.UTF_8))
                    .isEqualTo(new String(json.write(rows.get(i)), StandardCharsets.UTF_8));
        }
    }

    @Test
    void aPartitionedTableWritesNestedColumnsThroughKernelsWriterAlike() {
        Workspace bronze = new Workspace(dir.resolve("bronze"), SPEC.replace("path: out/", "path: out/\n    partitionBy: date(ts) as day"));
        bronze.addFile("a.json",
                "{\"id\": 1, \"tags\": [\"x\"], \"attrs\": {\"k\": 1}, \"items\": [{\"sku\": \"s\", \"opts\": {\"w\": [2.0]}}], "
                        + "\"ts\": \"2026-01-01T10:00:00Z\"}",
                "{\"id\": 2, \"tags\": [], \"ts\": \"2026-01-02T10:00:00Z\"}");
        bronze.tributary("run").assertOk();
        List<Object[]> rows = sorted(DeltaTables.readRows(dir.resolve("bronze/out").toString()));
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0)[1]).isEqualTo(List.of("x"));
        assertThat(rows.get(0)[2]).isEqualTo(Map.of("k", 1));
        assertThat(((Object[]) ((List<?>) rows.get(0)[3]).get(0))[2]).isEqualTo(Map.of("w", List.of(2.0)));
        assertThat(rows.get(1)[1]).isEqualTo(List.of());
        assertThat(rows.get(1)[2]).isNull();
    }

    private static List<Object[]> sorted(List<Object[]> rows) {
        return rows.stream().sorted(Comparator.comparing(r -> (Integer) r[0])).toList();
    }

    private static String footerSchema(Path table) throws IOException {
        try (Stream<Path> files = Files.list(table)) {
            Path file = files.filter(p -> p.toString().endsWith(".parquet")).findFirst().orElseThrow();
            return ParquetFileReader.readFooter(new LocalInputFile(file), ParquetMetadataConverter.NO_FILTER)
                    .getFileMetaData().getSchema().toString();
        }
    }
}
