package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.sink.DeltaTables;
import io.tributary.testing.InputFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** CSV, Parquet, text and compressed files through a whole pipeline, into a Delta table. */
@Tag("integration")
@Timeout(300)
class FormatsScenarioTest {
    @TempDir
    Path dir;

    @Test
    void csvWithAHeaderAndABadRowGoesToTheTableAndTheBadRowAside() throws IOException {
        Workspace w = new Workspace(dir, """
                name: csv
                source:
                  files:
                    path: in/
                    format: csv
                    schema: "id INT, name STRING, amt DOUBLE, ts TIMESTAMP"
                    options: { header: true, sep: ";" }
                    onBadRecord: fail
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """);
        w.addFile("a.csv", "id;name;amt;ts", "1;\"a; b\";5.0;2026-01-01T10:00:00Z", "2;;7.5;2026-01-01 10:05:00");
        Workspace.Result run = w.tributary("run").assertOk();
        assertThat(run.summary().get("numInputRows").asLong()).isEqualTo(2);
        List<Object[]> rows = sorted(DeltaTables.readRows(dir.resolve("out").toString()));
        assertThat(rows.get(0)).containsExactly(1, "a; b", 5.0, 1767261600000000L);
        assertThat(rows.get(1)).containsExactly(2, null, 7.5, 1767261900000000L);

        w.addFile("b.csv", "id;name;amt;ts", "3;c;1.0;2026-01-01T10:10:00Z", "4;d;many;2026-01-01T10:11:00Z");
        Workspace.Result failed = w.tributary("run");
        assertThat(failed.exitCode()).isEqualTo(1);
        assertThat(failed.err()).contains("b.csv:3").contains("amt").contains("expected DOUBLE, found 'many'");
        assertThat(DeltaTables.readRows(dir.resolve("out").toString())).hasSize(2);

        Workspace.Result kept = w.tributary("run", "--set", "source.files.onBadRecord=drop").assertOk();
        assertThat(kept.summary().get("numInputRows").asLong()).isEqualTo(1);
        assertThat(DeltaTables.readRows(dir.resolve("out").toString())).hasSize(3);
    }

    @Test
    void compressedJsonParquetWrittenBySparkAndTextAllReachTheirTables() throws IOException {
        Workspace json = new Workspace(dir.resolve("json"), QuickstartScenarios.SPEC);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(dir.resolve("json/in/a.json.gz")))) {
            out.write(("{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}\n"
                    + "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}\n").getBytes(StandardCharsets.UTF_8));
        }
        InputFiles.settled(dir.resolve("json/in/a.json.gz"));
        json.tributary("run").assertOk();
        assertThat(DeltaTables.readRows(dir.resolve("json/out").toString())).extracting(r -> r[1]).containsExactlyInAnyOrder("a", "b");

        Workspace parquet = new Workspace(dir.resolve("parquet"), """
                name: parquet
                source:
                  files:
                    path: in/
                    format: parquet
                    schema: "ID BIGINT, name STRING, tags ARRAY<STRING>, attrs MAP<STRING, INT>, ts TIMESTAMP"
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """);
        parquet.copyIn(Path.of("..", "golden", "formats", "parquet-spark", "in", "part-00.parquet"));
        Workspace.Result run = parquet.tributary("run").assertOk();
        assertThat(run.summary().get("numInputRows").asLong()).isEqualTo(3);
        List<Object[]> rows = sorted(DeltaTables.readRows(dir.resolve("parquet/out").toString()));
        assertThat(rows.get(0)[0]).isEqualTo(1L);
        assertThat(rows.get(0)[1]).isEqualTo("one");
        assertThat(rows.get(0)[2]).isEqualTo(java.util.Arrays.asList("a", null, "b"));
        assertThat(rows.get(0)[4]).isEqualTo(1767261600123456L);

        Workspace text = new Workspace(dir.resolve("text"), """
                name: logs
                source:
                  files:
                    path: in/
                    format: text
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """);
        text.addFile("app.log", "first", "", "third");
        text.tributary("run").assertOk();
        assertThat(DeltaTables.schema(dir.resolve("text/out").toString()).orElseThrow().toDdl()).isEqualTo("value STRING");
        assertThat(DeltaTables.readRows(dir.resolve("text/out").toString())).extracting(r -> r[0])
                .containsExactlyInAnyOrder("first", "", "third");
    }

    @Test
    void anUnknownOptionIsRefusedNamingTheOptionsThereAre() {
        Workspace w = new Workspace(dir, """
                name: csv
                source:
                  files:
                    path: in/
                    format: csv
                    schema: "id INT"
                    options: { samplingRatio: 0.5 }
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """);
        Workspace.Result run = w.tributary("run");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("source.files.options.samplingRatio").contains("header").contains("nullValue");
    }

    private static List<Object[]> sorted(List<Object[]> rows) {
        return rows.stream().sorted(Comparator.comparing(r -> ((Number) r[0]).longValue())).toList();
    }
}
