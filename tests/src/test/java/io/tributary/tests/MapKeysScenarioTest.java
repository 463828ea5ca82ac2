package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.sink.DeltaTables;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
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
 * Maps whose keys are not text end to end: JSON object keys cast to the schema's key type, a select
 * item that makes such a map, the events topic, Parquet MAP groups with typed keys, the Delta table's
 * schema, and a Delta source reading the table back into a second table. With
 * {@code -Dtributary.mapkeys.keep=FOLDER} the bronze table is copied to FOLDER/mapkeys with
 * FOLDER/mapkeys.args, the arguments of compat/spark's SparkRead that check Spark reads the same rows.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(300)
class MapKeysScenarioTest {
    static final String SCHEMA = "id INT, ik MAP<INT, STRING>, dk MAP<DATE, DOUBLE>, xk MAP<DECIMAL(5,2), ARRAY<BIGINT>>, "
            + "tk MAP<TIMESTAMP, BOOLEAN>";
    static final String TABLE = SCHEMA + ", m MAP<INT, STRING>";
    static final String SPEC = """
            name: mapkeys
            source:
              files:
                path: in/
                schema: "%s"
                options: { typedMapKeys: "true" }
                onBadRecord: fail
            transform:
              select:
                - "*"
                - "map(id, ik[1]) AS m"
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
    void typedMapKeysReachTheTableAndFlowOnThroughADeltaSource() throws IOException {
        Workspace bronze = new Workspace(dir.resolve("bronze"), SPEC);
        bronze.addFile("a.json",
                "{\"id\": 1, \"ik\": {\"1\": \"a\", \" -3 \": \"c\"}, \"dk\": {\"2024-02-29\": 1.5}, \"xk\": {\"1.555\": [1, 2]}, "
                        + "\"tk\": {\"2026-01-01T10:00:00Z\": true}}",
                "{\"id\": 2, \"ik\": {}, \"dk\": {\"1969-12-31\": null}}",
                "{\"id\": 3, \"ik\": {\"x\": \"not a number\"}}");
        Workspace.Result failed = bronze.tributary("run");
        assertThat(failed.exitCode()).isEqualTo(1);
        assertThat(failed.err()).contains("a.json:3").contains("'ik'").contains("key 'x' does not cast to INT");

        Workspace.Result run = bronze.tributary("run", "--set", "source.files.onBadRecord=drop").assertOk();
        assertThat(run.summary().get("numInputRows").asLong()).isEqualTo(2);
        String table = dir.resolve("bronze/out").toString();
        assertThat(DeltaTables.schema(table).orElseThrow().toDdl()).isEqualTo(TABLE);
        List<Object[]> rows = sorted(DeltaTables.readRows(table));
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0)[1]).isEqualTo(Map.of(1, "a", -3, "c"));
        assertThat(rows.get(0)[2]).isEqualTo(Map.of(19782, 1.5));
        assertThat(rows.get(0)[3]).isEqualTo(Map.of(new BigDecimal("1.56"), List.of(1L, 2L)));
        assertThat(rows.get(0)[4]).isEqualTo(Map.of(1_767_261_600_000_000L, true));
        assertThat(rows.get(0)[5]).isEqualTo(Map.of(1, "a"));
        Map<Object, Object> nullValue = new HashMap<>();
        nullValue.put(-1, null);
        assertThat(rows.get(1)[2]).isEqualTo(nullValue);
        nullValue.clear();
        nullValue.put(2, null);
        Object[] second = rows.get(1);
        assertThat(Arrays.asList(second[1], second[3], second[4], second[5])).containsExactly(Map.of(), null, null, nullValue);

        // Parquet MAP groups whose key columns have the key's type, as Spark writes them
        assertThat(footerSchema(dir.resolve("bronze/out"))).contains("optional group ik (MAP)", "required int32 key;",
                "required int32 key (DATE)", "required int32 key (DECIMAL(5,2))", "required int64 key (TIMESTAMP(MICROS,true))");

        Workspace silver = new Workspace(dir.resolve("silver"), SILVER);
        silver.tributary("run").assertOk();
        String silverTable = dir.resolve("silver/out").toString();
        assertThat(DeltaTables.schema(silverTable).orElseThrow().toDdl()).isEqualTo(TABLE);
        List<Object[]> copied = sorted(DeltaTables.readRows(silverTable));
        RowJson json = new RowJson(Schema.parse(TABLE));
        assertThat(copied.stream().map(r -> new String(json.write(r), StandardCharsets.UTF_8)))
                .containsExactlyElementsOf(rows.stream().map(r -> new String(json.write(r), StandardCharsets.UTF_8)).toList());
        keepForSpark(dir.resolve("bronze/out"));
    }

    /** Spark's JSON of the rows (to_json writes a DATE key as its days, a TIMESTAMP key as its microseconds). */
    private static void keepForSpark(Path table) throws IOException {
        String keep = System.getProperty("tributary.mapkeys.keep");
        if (keep == null) {
            return;
        }
        Path target = Path.of(keep).resolve("mapkeys");
        try (Stream<Path> files = Files.walk(table)) {
            for (Path p : files.toList()) {
                Path to = target.resolve(table.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
        }
        Files.write(Path.of(keep).resolve("mapkeys.args"), List.of("--table", target.toString(), "--count", "2", "--schema", TABLE,
                "--row", "{\"id\":1,\"ik\":{\"1\":\"a\",\"-3\":\"c\"},\"dk\":{\"19782\":1.5},\"xk\":{\"1.56\":[1,2]},"
                        + "\"tk\":{\"1767261600000000\":true},\"m\":{\"1\":\"a\"}}",
                "--row", "{\"id\":2,\"ik\":{},\"dk\":{\"-1\":null},\"m\":{\"2\":null}}"));
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
