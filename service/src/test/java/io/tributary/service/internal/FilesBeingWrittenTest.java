package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.schema.Topics;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.TopicTail;
import io.tributary.testing.FilesInProgress;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pipeline with the defaults on a folder where files are written in place, not renamed into it
 * (a {@code cp} of a big file, a logger, a shell redirect): a continuous run publishes each file
 * whole once it held still, and an availableNow run leaves a file still being written to a later
 * run, counted in its summary, instead of publishing half of it (issue 35, item 2).
 */
@Tag("integration")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class FilesBeingWrittenTest {
    @TempDir
    Path dir;

    private PipelineSpec spec(String trigger) throws IOException {
        Files.createDirectories(dir.resolve("in"));
        Path file = dir.resolve("pipeline.yaml");
        Files.writeString(file, """
                name: growing
                source:
                  files:
                    path: in/
                    schema: "id INT"
                sink:
                  delta:
                    path: out/
                trigger: %s
                """.formatted(trigger));
        return PipelineSpec.load(file, Map.of(), Map.of());
    }

    private List<Integer> table() {
        String table = dir.resolve("out").toString();
        return DeltaTables.exists(table) ? DeltaTables.readRows(table).stream().map(r -> (Integer) r[0]).toList() : List.of();
    }

    @Test
    void aContinuousRunWithTheDefaultsPublishesAFileWrittenInChunksWhole() throws Exception {
        PipelineSpec spec = spec("default");
        Path in = dir.resolve("in");
        // 20,000 rows in 8 chunks over 4 seconds, and a file created empty and filled a moment later
        Thread writer = FilesInProgress.chunkedWriter(in);
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            Future<RunSummary> run = thread.submit(() -> pipeline.run(spec.trigger(), p -> { }));
            writer.start();
            await("every row in the table").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250)).until(() -> {
                if (run.isDone()) {
                    run.get();
                    throw new AssertionError("the pipeline ended");
                }
                return !writer.isAlive() && table().size() >= 20_010;
            });
            await("the sink took all there is").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(250))
                    .until(() -> TopicTail.sinkCaughtUp(pipeline.clientProps(), dir.resolve("out").toString(), Topics.events("growing")));
            assertThat(pipeline.stop(Duration.ofSeconds(60))).isTrue();
            RunSummary summary = run.get();
            assertThat(summary.skipped().changedAfterIngest()).as("no file changed after it was ingested").isEmpty();
        } finally {
            thread.shutdownNow();
        }
        List<Integer> expected = new ArrayList<>(IntStream.range(0, 20_000).boxed().toList());
        IntStream.range(100_000, 100_010).forEach(expected::add);
        assertThat(table()).as("every row once").containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void anAvailableNowRunLeavesAFileStillBeingWrittenToALaterRun() throws Exception {
        PipelineSpec spec = spec("availableNow");
        Path in = dir.resolve("in");
        Files.write(in.resolve("whole.json"), FilesInProgress.lines(-1, 0));
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger written = new AtomicInteger();
        CountDownLatch started = new CountDownLatch(1);
        Thread logger = new Thread(() -> {
            try (OutputStream out = Files.newOutputStream(in.resolve("growing.json"))) {
                while (writing.get()) {
                    out.write(FilesInProgress.lines(written.get(), written.get() + 1));
                    out.flush();
                    written.incrementAndGet();
                    started.countDown();
                    Thread.sleep(5); // a line every few milliseconds
                }
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        logger.start();
        RunSummary first;
        try {
            started.await();
            try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
                first = pipeline.run(spec.trigger(), p -> { });
            }
        } finally {
            writing.set(false);
            logger.join();
        }
        assertThat(first.numInputRows()).isEqualTo(1);
        assertThat(first.skipped().settling()).containsExactly("in/growing.json");
        assertThat(first.toJson()).contains("\"numFilesHeldBack\":1");
        assertThat(table()).containsExactly(-1);

        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            RunSummary second = pipeline.run(spec.trigger(), p -> { });
            assertThat(second.numInputRows()).isEqualTo(written.get());
            assertThat(second.skipped().settling()).isEmpty();
        }
        assertThat(table()).hasSize(written.get() + 1).containsAll(IntStream.range(0, written.get()).boxed().toList());
    }
}
