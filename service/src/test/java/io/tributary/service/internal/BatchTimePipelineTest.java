package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Progress;
import io.tributary.schema.Schema;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkTables;
import io.tributary.sink.TableCommit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code current_timestamp()} over a Delta source, run as a user runs it (availableNow, a real broker, real tables):
 * the rows of one batch carry one value, between the batch's start (its progress line) and the table version that
 * holds them; the next run's batch a later one.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class BatchTimePipelineTest {
    @TempDir
    Path dir;

    private PipelineSpec spec() throws Exception {
        Path f = dir.resolve("pipeline.yaml");
        Files.writeString(f, """
                name: batchtime
                source:
                  delta:
                    path: bronze/
                transform:
                  where: "ts > current_timestamp() - INTERVAL 1 DAY"
                  select: [id, "current_timestamp() AS at", "current_date() AS day"]
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """);
        return PipelineSpec.load(f, Map.of(), Map.of());
    }

    /** Runs the pipeline once; the earliest start of a batch that read rows. */
    private Instant run() throws Exception {
        PipelineSpec spec = spec();
        List<Progress> progress = new ArrayList<>();
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            pipeline.run(spec.trigger(), progress::add);
        }
        return progress.stream().filter(p -> p.numInputRows() > 0).map(p -> Instant.parse(p.timestamp())).min(Instant::compareTo)
                .orElseThrow();
    }

    private Set<Long> at(int fromId, int toId) {
        Set<Long> values = new TreeSet<>();
        for (Object[] r : DeltaTables.readRows(dir.resolve("out").toString())) {
            int id = (Integer) r[0];
            if (id >= fromId && id <= toId) {
                values.add((Long) r[1]);
            }
        }
        return values;
    }

    private long lastCommitMs() {
        List<TableCommit> history = DeltaTables.history(dir.resolve("out").toString());
        return history.stream().mapToLong(TableCommit::timestamp).max().orElseThrow();
    }

    @Test
    void eachBatchsRowsCarryItsStartAndTheNextRunsALaterOne() throws Exception {
        SinkTables bronze = new SinkTables(dir.resolve("bronze").toString(), Schema.parse("id INT, ts TIMESTAMP"), List.of(), "bronze");
        long recent = (System.currentTimeMillis() - 3_600_000L) * 1000L;
        bronze.commit(List.of(new Object[] {1, recent}, new Object[] {2, recent}, new Object[] {9, 0L}));
        Instant start1 = run();
        long commit1 = lastCommitMs();
        bronze.commit(List.of(new Object[] {3, recent}, new Object[] {4, recent}));
        Instant start2 = run();
        long commit2 = lastCommitMs();

        assertThat(DeltaTables.schema(dir.resolve("out").toString()).orElseThrow().toDdl()).isEqualTo("id INT, at TIMESTAMP, day DATE");
        assertThat(DeltaTables.readRows(dir.resolve("out").toString())).as("the row of 1970 is older than a day").hasSize(4);
        Set<Long> first = at(1, 2);
        Set<Long> second = at(3, 4);
        assertThat(first).as("one value for the first batch's rows").hasSize(1);
        assertThat(second).as("one value for the second batch's rows").hasSize(1);
        long at1 = first.iterator().next() / 1000L;
        long at2 = second.iterator().next() / 1000L;
        assertThat(at1).isBetween(start1.toEpochMilli(), commit1);
        assertThat(at2).isBetween(start2.toEpochMilli(), commit2).isGreaterThan(at1);
    }
}
