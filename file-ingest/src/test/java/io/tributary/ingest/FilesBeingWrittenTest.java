package io.tributary.ingest;

import static io.tributary.ingest.IngestKit.readCommitted;
import static io.tributary.ingest.IngestKit.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.BrokerExtension;
import io.tributary.schema.Progress;
import io.tributary.schema.Schema;
import io.tributary.testing.FilesInProgress;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files written in place while the ingest lists the folder (a {@code cp} of a big file, a logger, a
 * shell redirect): with {@code fileSettleTime}, each is published whole, once, after it held still;
 * a bounded run looks again once, holds back a file still growing, and a later run takes it.
 */
@Tag("integration")
@Timeout(180)
class FilesBeingWrittenTest {
    static final Schema SCHEMA = Schema.parse("id INT");

    @TempDir
    static Path tmp;
    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    @Test
    void aFileWrittenInChunksIsPublishedWholeOnceItHeldStill() throws Exception {
        Path dir = tmp.resolve("chunks/in");
        Files.createDirectories(dir);
        IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline("chunks"), dir, SCHEMA)
                .fileSettleTime(Duration.ofSeconds(1)).build();
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        // the writer of the issue: 20,000 rows in 8 chunks over 4 seconds; and a file created empty, filled a moment later
        Thread writer = FilesInProgress.chunkedWriter(dir);
        List<Progress> progress = new ArrayList<>();
        AtomicInteger rows = new AtomicInteger();
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            writer.start();
            // a continuous trigger: a batch whenever the folder has a file ready
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).until(() -> {
                ingest.runBatch().ifPresent(p -> {
                    progress.add(p);
                    rows.addAndGet((int) p.numInputRows());
                });
                return !writer.isAlive() && rows.get() >= 20_010;
            });
            writer.join();
            assertThat(ingest.runBatch()).as("nothing left").isEmpty();
            assertThat(ingest.changedFiles()).as("no file changed after it was ingested").isEmpty();
            assertThat(ingest.endRun().changedAfterIngest()).isEmpty();
        }
        List<Object> published = new ArrayList<>();
        progress.forEach(p -> published.addAll((List<?>) p.sources().get(0).metrics().get("files")));
        assertThat(published).as("each file once").containsExactlyInAnyOrder("big.json", "late.json");
        List<String> expected = new ArrayList<>(IntStream.range(0, 20_000).mapToObj(i -> "{\"id\":" + i + "}").toList());
        IntStream.range(100_000, 100_010).mapToObj(i -> "{\"id\":" + i + "}").forEach(expected::add);
        assertThat(readCommitted(KAFKA.broker(), config.eventsTopic())).extracting(r -> text(r.value()))
                .containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void aBoundedRunHoldsBackAFileStillGrowingAndALaterRunTakesItWhole() throws Exception {
        Path dir = tmp.resolve("bounded/in");
        IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline("bounded"), dir, SCHEMA)
                .fileSettleTime(Duration.ofMillis(500)).build();
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        IngestKit.write(dir, "whole.json", "{\"id\": -1}\n", System.currentTimeMillis());
        Path growing = dir.resolve("growing.json");
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger written = new AtomicInteger();
        CountDownLatch started = new CountDownLatch(1);
        Thread logger = new Thread(() -> {
            try (OutputStream out = Files.newOutputStream(growing)) {
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
        try {
            started.await();
            try (FileIngest run = FileIngest.builder(config, IngestKit.props(KAFKA.broker())).boundedRun(true).build()) {
                Progress p = run.runBatch().orElseThrow();
                assertThat(p.numInputRows()).isEqualTo(1);
                assertThat(p.sources().get(0).metrics()).containsEntry("files", List.of("whole.json"))
                        .containsEntry("numFilesHeldBackSettling", 1L);
                assertThat(run.runBatch()).as("the run does not wait for it again: it ends").isEmpty();
                assertThat(run.endRun().settling()).containsExactly("in/growing.json");
            }
        } finally {
            writing.set(false);
            logger.join();
        }
        try (FileIngest later = FileIngest.builder(config, IngestKit.props(KAFKA.broker())).boundedRun(true).build()) {
            Progress p = later.runBatch().orElseThrow();
            assertThat(p.numInputRows()).isEqualTo(written.get());
            assertThat(p.sources().get(0).metrics()).containsEntry("numFilesHeldBackSettling", 0L);
            assertThat(later.runBatch()).isEmpty();
            assertThat(later.endRun().settling()).isEmpty();
        }
        assertThat(readCommitted(KAFKA.broker(), config.eventsTopic())).hasSize(written.get() + 1);
    }
}
