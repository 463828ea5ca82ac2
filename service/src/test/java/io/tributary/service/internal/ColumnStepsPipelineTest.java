package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkTables;
import io.tributary.testing.InputFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bronze to silver job written with {@code transform.withColumns}, {@code withColumnsRenamed} and {@code drop}, run
 * as a user runs it (availableNow, a real broker, real Delta tables): from files, and from a Delta table; the table gets Spark's
 * columns in Spark's order; a bad expression is refused before anything starts, naming its key and line.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ColumnStepsPipelineTest {
    /** {@code .withColumns({"user": lower(trim(user)), "day": to_date(ts)}).filter(...).withColumnsRenamed({"amt": "amount"}).drop("note")}. */
    private static final String STEPS = """
            transform:
              where: "amt > 0 AND user IS NOT NULL"
              withColumns: { user: "lower(trim(user))", day: "to_date(ts)" }
              withColumnsRenamed: { amt: amount, nothing: here }
              drop: [note, absent]
            sink:
              delta:
                path: out/
            trigger: availableNow
            """;
    private static final String SILVER = "id INT, user STRING, amount DOUBLE, ts TIMESTAMP, day DATE";

    @TempDir
    Path dir;

    private PipelineSpec spec(String yaml) throws Exception {
        Path f = dir.resolve("pipeline.yaml");
        Files.writeString(f, yaml);
        return PipelineSpec.load(f, Map.of(), Map.of());
    }

    private void run(PipelineSpec spec) throws Exception {
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            pipeline.run(spec.trigger(), p -> { });
        }
    }

    private List<String> out() {
        return DeltaTables.readRows(dir.resolve("out").toString()).stream()
                .map(r -> Arrays.stream(r).map(Objects::toString).collect(Collectors.joining("|"))).toList();
    }

    @Test
    void filesGetTheirColumnsReplacedInPlaceAddedRenamedAndDropped() throws Exception {
        Files.createDirectories(dir.resolve("in"));
        InputFiles.place(dir.resolve("in"), "a.json",
                "{\"id\": 1, \"user\": \"  Ann \", \"amt\": 5.0, \"note\": \"x\", \"ts\": \"2026-03-01T23:30:00Z\"}",
                "{\"id\": 2, \"user\": \"BOB\", \"amt\": -1.0, \"note\": \"y\", \"ts\": \"2026-03-02T10:00:00Z\"}",
                "{\"id\": 3, \"user\": null, \"amt\": 2.0, \"note\": \"z\", \"ts\": \"2026-03-02T10:00:00Z\"}",
                "{\"id\": 4, \"user\": \"Cy\", \"amt\": 2.5, \"note\": null, \"ts\": \"2024-02-29T00:00:00Z\"}");
        PipelineSpec spec = spec("""
                name: silver
                source:
                  files:
                    path: in/
                    schema: "id INT, user STRING, amt DOUBLE, note STRING, ts TIMESTAMP"
                """ + STEPS);
        run(spec);

        assertThat(DeltaTables.schema(dir.resolve("out").toString()).orElseThrow().toDdl()).isEqualTo(SILVER);
        long ts1 = java.time.Instant.parse("2026-03-01T23:30:00Z").getEpochSecond() * 1_000_000L;
        long ts4 = java.time.Instant.parse("2024-02-29T00:00:00Z").getEpochSecond() * 1_000_000L;
        int day1 = (int) java.time.LocalDate.parse("2026-03-01").toEpochDay();
        int day4 = (int) java.time.LocalDate.parse("2024-02-29").toEpochDay();
        assertThat(out()).containsExactlyInAnyOrder("1|ann|5.0|" + ts1 + "|" + day1, "4|cy|2.5|" + ts4 + "|" + day4);
    }

    @Test
    void aDeltaSourcesRowsTakeTheSameSteps() throws Exception {
        long ts = java.time.Instant.parse("2026-03-01T23:30:00Z").getEpochSecond() * 1_000_000L;
        new SinkTables(dir.resolve("bronze").toString(), Schema.parse("id INT, user STRING, amt DOUBLE, note STRING, ts TIMESTAMP"),
                List.of(), "bronze").commit(List.of(new Object[] {1, " Ann", 5.0, "x", ts}, new Object[] {2, "bob", 0.0, "y", ts}));
        run(spec("name: dsilver\nsource:\n  delta:\n    path: bronze/\n" + STEPS));

        assertThat(DeltaTables.schema(dir.resolve("out").toString()).orElseThrow().toDdl()).isEqualTo(SILVER);
        assertThat(out()).containsExactly("1|ann|5.0|" + ts + "|" + java.time.LocalDate.parse("2026-03-01").toEpochDay());
    }

    @Test
    void aBadExpressionIsRefusedAtStartNamingItsKeyAndLine() throws Exception {
        PipelineSpec spec = spec("""
                name: bad
                source:
                  files:
                    path: in/
                    schema: "id INT, user STRING, ts TIMESTAMP"
                transform:
                  withColumns:
                    user: "lower(user)"
                    day: "to_date(tss)"
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """);
        assertThatThrownBy(() -> Pipeline.open(spec, RunOptions.DEFAULT)).isInstanceOf(TributaryException.class)
                .hasMessageContaining("line 9").hasMessageContaining("transform.withColumns.day: ").hasMessageContaining("tss");
        assertThat(spec.stateDir()).as("no broker started").doesNotExist();
    }
}
