package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.sink.DeltaTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A file source without a schema: inferred from the first files, hinted, recorded and kept by later runs. */
@Tag("integration")
@Timeout(300)
class SchemaInferenceScenarioTest {
    @TempDir
    Path dir;

    @Test
    void jsonSchemaIsInferredHintedRecordedAndKeptByTheNextRun() throws IOException {
        Workspace w = new Workspace(dir, """
                name: inferred
                source:
                  files:
                    path: in/
                    schemaHints: "ts TIMESTAMP"
                sink:
                  delta:
                    path: out/
                    mergeSchema: true
                trigger: availableNow
                """);
        String table = dir.resolve("out").toString();
        Path first = w.addFile("a.json", "{\"id\": 1, \"user\": \"a\", \"amt\": 5.5, \"ts\": \"2026-01-01T10:00:00Z\"}",
                "{\"id\": 2, \"user\": \"b\", \"amt\": 7, \"tags\": [\"x\"]}");
        w.tributary("run").assertOk();
        String inferred = "amt DOUBLE, id BIGINT, tags ARRAY<STRING>, ts TIMESTAMP, user STRING";
        assertThat(DeltaTables.schema(table).orElseThrow().toDdl()).isEqualTo(inferred);
        assertThat(w.tributary("checkpoint show").assertOk().out()).contains("schema " + inferred);
        Object[] hinted = DeltaTables.readRows(table).stream().filter(r -> (Long) r[1] == 1L).findFirst().orElseThrow();
        assertThat(hinted).containsExactly(5.5, 1L, null, 1767261600000000L, "a");

        // the first file gone, a new one alone would infer amt BIGINT: the run keeps the recorded DOUBLE
        Files.delete(first);
        w.addFile("b.json", "{\"id\": 3, \"user\": \"c\", \"amt\": 8}");
        w.tributary("run").assertOk();
        assertThat(DeltaTables.schema(table).orElseThrow().toDdl()).isEqualTo(inferred);
        Object[] third = DeltaTables.readRows(table).stream().filter(r -> (Long) r[1] == 3L).findFirst().orElseThrow();
        assertThat(third[0]).isEqualTo(8.0);

        // without a schema, addNewColumns is the default (Auto Loader's)
        w.addFile("c.json", "{\"id\": 4, \"user\": \"d\", \"country\": \"NL\"}");
        w.tributary("run").assertOk();
        assertThat(DeltaTables.schema(table).orElseThrow().toDdl()).isEqualTo(inferred + ", country STRING");
    }

    @Test
    void csvWithAHeaderAndInferSchemaAndSparksParquetGiveTheirSchemas() throws IOException {
        Workspace csv = new Workspace(dir.resolve("csv"), """
                name: csv
                source:
                  files:
                    path: in/
                    format: csv
                    options: { header: true, inferSchema: true }
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """);
        csv.addFile("a.csv", "id,name,amt,when", "1,a,5.5,2026-01-01T10:00:00Z", "2,b,7,2026-01-01 10:05:00", "3,,,");
        csv.tributary("run").assertOk();
        String csvTable = dir.resolve("csv/out").toString();
        assertThat(DeltaTables.schema(csvTable).orElseThrow().toDdl()).isEqualTo("id INT, name STRING, amt DOUBLE, when TIMESTAMP");
        List<Object[]> rows = DeltaTables.readRows(csvTable).stream().sorted(Comparator.comparing(r -> (Integer) r[0])).toList();
        assertThat(rows.get(1)).containsExactly(2, "b", 7.0, 1767261900000000L);
        assertThat(rows.get(2)).containsExactly(3, null, null, null);

        Workspace parquet = new Workspace(dir.resolve("parquet"), """
                name: pq
                source:
                  files:
                    path: in/
                    format: parquet
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """);
        parquet.copyIn(Path.of("..", "golden", "formats", "parquet-spark", "in", "part-00.parquet"));
        parquet.tributary("run").assertOk();
        assertThat(DeltaTables.schema(dir.resolve("parquet/out").toString()).orElseThrow().toDdl()).isEqualTo(
                "id INT, name STRING, amt DOUBLE, price DECIMAL(10,2), ts TIMESTAMP, d DATE, tags ARRAY<STRING>, attrs MAP<STRING, INT>, "
                        + "s STRUCT<a: INT, b: STRING>, ntz TIMESTAMP_NTZ");
        assertThat(DeltaTables.readRows(dir.resolve("parquet/out").toString())).hasSize(3);
    }

    @Test
    void anEmptyFolderWithoutASchemaSaysSo() {
        Workspace w = new Workspace(dir, """
                name: empty
                source:
                  files:
                    path: in/
                    schemaEvolution: none
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """);
        Workspace.Result run = w.tributary("run");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("holds no file to infer it from").contains("source.files.schema");
        w.addFile("a.json", "{\"id\": 1}");
        w.tributary("run").assertOk();
        assertThat(w.tributary("checkpoint show").assertOk().out()).contains("  schema id BIGINT  (recorded");
    }
}
