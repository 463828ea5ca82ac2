package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.schema.Progress;
import io.tributary.schema.Topics;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.service.spec.Settings;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.TopicTail;
import io.tributary.testing.InputFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;
import org.apache.kafka.clients.admin.Admin;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pipeline's own embedded broker stopped and started again (same folder, same port) under a
 * running continuous service, with batches in flight and files arriving while it is down: the
 * stages wait, go on, and the table holds every expected row exactly once.
 */
@Tag("integration")
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class EmbeddedBrokerRestartTest {
    private static final String SOURCE = """
            source:
              files:
                path: in/
                format: json
                schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
            """;
    private static final int FILES = 24;
    /** How long the broker stays down: twice the longest of {@link #SHORT_TIMEOUTS}. */
    private static final long DOWN_MS = 8_000;
    /** Client settings (passed through to every client) that make each request give up well within the outage. */
    private static final String SHORT_TIMEOUTS = """
            kafka:
              max.block.ms: 3000
              request.timeout.ms: 2000
              delivery.timeout.ms: 4000
              default.api.timeout.ms: 3000
            """;
    private static final Instant BASE = Instant.parse("2026-01-01T10:00:00Z");

    @TempDir
    Path dir;

    @Test
    void theRawPipelineWaitsOutAnEmbeddedBrokerRestartAndTheTableIsExact() throws Exception {
        runRaw("");
    }

    /** The clients' timeouts shorter than the outage: every request fails while the broker is down, and is tried again. */
    @Test
    void theRawPipelineWaitsOutARestartLongerThanItsClientTimeouts() throws Exception {
        runRaw(SHORT_TIMEOUTS);
    }

    @Test
    void theWindowedPipelineWaitsOutARestartLongerThanItsClientTimeoutsAndTheTableIsExact() throws Exception {
        String spec = "name: windowed\n" + SOURCE + """
                aggregate:
                  eventTime: ts
                  watermark: 5 minutes
                  window: 10 minutes
                  groupBy: [user]
                  select: { n: count(*), t: sum(amt) }
                outputMode: append
                sink:
                  delta:
                    path: out/
                topic:
                  partitions: 2
                trigger: default
                """ + SHORT_TIMEOUTS;
        // file f holds window f's events; file f+1 moves the watermark past window f's end: every window but the last closes
        List<String> expected = new ArrayList<>();
        for (int f = 0; f < FILES - 1; f++) {
            long start = BASE.plusSeconds(600L * f).toEpochMilli() * 1000;
            expected.add(start + "|a|30|30.0"); // window start | user | n | t
            expected.add(start + "|b|20|40.0");
        }
        runWithBrokerRestart(spec, this::windowedFile, files -> 2 * (files - 1),
                r -> ((Object[]) r[0])[0] + "|" + r[1] + "|" + r[2] + "|" + r[3], expected);
    }

    private void runRaw(String kafka) throws Exception {
        String spec = "name: raw\n" + SOURCE + "sink:\n  delta:\n    path: out/\ntrigger: default\n" + kafka;
        List<String> expected = new ArrayList<>();
        for (int f = 0; f < FILES; f++) {
            for (int i = 0; i < 50; i++) {
                expected.add(String.valueOf(f * 1000 + i));
            }
        }
        runWithBrokerRestart(spec, this::rawFile, files -> 50 * files, r -> String.valueOf(r[0]), expected);
    }

    private void runWithBrokerRestart(String specYaml, IntFunction<List<String>> file, IntUnaryOperator rowsAfter,
            Function<Object[], String> row, List<String> expected) throws Exception {
        Files.createDirectories(dir.resolve("in"));
        Path specFile = dir.resolve("pipeline.yaml");
        Files.writeString(specFile, specYaml);
        PipelineSpec spec = PipelineSpec.load(specFile, Map.of(), Map.of());
        String table = dir.resolve("out").toString();
        List<Progress> progress = new CopyOnWriteArrayList<>();
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            Future<RunSummary> run = thread.submit(() -> pipeline.run(spec.trigger(), progress::add));
            int third = FILES / 3;
            for (int f = 0; f < third; f++) {
                addFile(f, file.apply(f));
            }
            awaitTable(table, row, rowsAfter.applyAsInt(third), run);

            // the next files arrive just before the stop: once the ingest has published the first of them,
            // the later stages' batches are in flight when the broker goes (and the ingest's, for the rest)
            for (int f = third; f < 2 * third; f++) {
                addFile(f, file.apply(f));
            }
            awaitIngested(progress, third + 1, run);
            pipeline.kafka().stopEmbeddedBroker();
            for (int f = 2 * third; f < FILES - 2; f++) {
                addFile(f, file.apply(f));
            }
            // the outage: longer than the clients' timeouts, and the pipeline runs through all of it
            await("the pipeline runs while the broker is down").during(Duration.ofMillis(DOWN_MS)).atMost(Duration.ofMillis(DOWN_MS * 2))
                    .until(() -> !run.isDone());
            pipeline.kafka().startEmbeddedBroker();
            addFile(FILES - 2, file.apply(FILES - 2));
            awaitIngested(progress, FILES - 1, run); // the last file comes in a later batch
            addFile(FILES - 1, file.apply(FILES - 1));

            try {
                awaitTable(table, row, expected.size(), run);
            } catch (ConditionTimeoutException e) {
                throw new AssertionError(e.getMessage() + "; missing from the table: " + missing(expected, tableRows(table, row))
                        + "; each stage's last progress: " + lastProgress(progress), e);
            }
            // a duplicate would be in the table by now: every stage has committed all there is to take
            await("every stage has taken all there is").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250))
                    .until(() -> {
                        failIfEnded(run);
                        return finished(pipeline.clientProps(), spec.name(), table, spec.has(Settings.WINDOW));
                    });
            assertRunning(run, "after the restart");
            assertThat(pipeline.stop(Duration.ofSeconds(60))).isTrue();
            run.get(); // no error; the run is over, nothing writes to the table any more
            assertThat(tableRows(table, row)).as("the table, as a multiset").containsExactlyInAnyOrderElementsOf(expected);
        } finally {
            thread.shutdownNow();
        }
    }

    /**
     * Whether every stage has committed all there is to take: no record past the aggregation's
     * committed offsets in the events topic, and no row past the table's offsets in the sink's topic.
     */
    private static boolean finished(Map<String, Object> client, String pipeline, String table, boolean windowed) throws Exception {
        String events = Topics.events(pipeline);
        if (windowed) {
            Map<Integer, Long> committed = new HashMap<>();
            try (Admin admin = Admin.create(client)) {
                admin.listConsumerGroupOffsets("tributary-" + pipeline + "-aggregate").partitionsToOffsetAndMetadata().get()
                        .forEach((tp, o) -> {
                            if (tp.topic().equals(events) && o != null) {
                                committed.put(tp.partition(), o.offset());
                            }
                        });
            }
            if (committed.isEmpty() || !TopicTail.records(client, events, committed).isEmpty()) {
                return false;
            }
        }
        return TopicTail.sinkCaughtUp(client, table, windowed ? Topics.results(pipeline) : events);
    }

    /** Waits for the ingest to have published the rows of the first {@code files} files. */
    private static void awaitIngested(List<Progress> progress, int files, Future<?> run) {
        await("the ingest publishes " + files + " files").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    failIfEnded(run);
                    return progress.stream().filter(p -> p.name().endsWith("/ingest")).mapToLong(Progress::numInputRows).sum() >= 50L * files;
                });
    }

    /** Fails the wait at once when the pipeline ended: its error, or that it ended. */
    private static void failIfEnded(Future<?> run) throws Exception {
        if (run.isDone()) {
            run.get();
            throw new AssertionError("the pipeline ended while rows were expected");
        }
    }

    private static void assertRunning(Future<?> run, String when) throws InterruptedException {
        if (run.isDone()) {
            try {
                run.get();
                throw new AssertionError("the pipeline ended " + when);
            } catch (java.util.concurrent.ExecutionException e) {
                throw new AssertionError("the pipeline failed " + when + ": " + e.getCause(), e.getCause());
            }
        }
    }

    private List<String> rawFile(int f) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            lines.add("{\"id\": " + (f * 1000 + i) + ", \"user\": \"u" + i % 7 + "\", \"amt\": " + i + ".5, \"ts\": \""
                    + BASE.plusSeconds(f * 60L + i) + "\"}");
        }
        return lines;
    }

    private List<String> windowedFile(int f) {
        List<String> lines = new ArrayList<>();
        String ts = BASE.plusSeconds(600L * f + 360).toString(); // 6 minutes into window f
        for (int i = 0; i < 50; i++) {
            String user = i % 5 < 3 ? "a" : "b";
            lines.add("{\"id\": " + (f * 1000 + i) + ", \"user\": \"" + user + "\", \"amt\": " + ("a".equals(user) ? "1.0" : "2.0")
                    + ", \"ts\": \"" + ts + "\"}");
        }
        return lines;
    }

    /** Placed whole with a settled modification time: taken at the first listing, so batches are in flight when the broker stops. */
    private void addFile(int f, List<String> lines) {
        InputFiles.place(dir.resolve("in"), String.format("part-%04d.json", f), lines.toArray(String[]::new));
    }

    private static List<String> missing(List<String> expected, List<String> rows) {
        List<String> left = new ArrayList<>(expected);
        rows.forEach(left::remove);
        return left;
    }

    /** Per stage, its last batch: id, time, input rows, event time and watermark. */
    private static Map<String, String> lastProgress(List<Progress> progress) {
        Map<String, String> last = new TreeMap<>();
        progress.forEach(p -> last.put(p.name(),
                "batch " + p.batchId() + " at " + p.timestamp() + ", " + p.numInputRows() + " rows, event time " + p.eventTime()));
        return last;
    }

    private static List<String> tableRows(String table, Function<Object[], String> row) {
        if (!DeltaTables.exists(table)) {
            return List.of();
        }
        return DeltaTables.readRows(table).stream().map(row).toList();
    }

    private static void awaitTable(String table, Function<Object[], String> row, int rows, Future<?> run) {
        await("rows in the table").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250)).until(() -> {
            failIfEnded(run);
            return tableRows(table, row).size() >= rows;
        });
    }
}
