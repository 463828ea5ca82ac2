package io.tributary.ingest;

import static io.tributary.ingest.IngestKit.readCommitted;
import static io.tributary.ingest.IngestKit.text;
import static io.tributary.ingest.IngestKit.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.BrokerExtension;
import io.tributary.schema.Progress;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Files rewritten after ingest, written while read, too new, or hidden: none is published half or twice. */
@Tag("integration")
@Timeout(180)
class MisbehavingFilesTest {
    static final Schema SCHEMA = Schema.parse("id INT, user STRING");

    @TempDir
    static Path tmp;
    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    private IngestConfigBuilder builder(String name) {
        return IngestConfig.builder(IngestKit.uniquePipeline(name), tmp.resolve(name + "/in"), SCHEMA);
    }

    @Test
    void aFileChangedAfterIngestIsReportedNotReingested() throws Exception {
        IngestConfig config = builder("rewritten").build();
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        Path a = write(config.inputDir(), "a.json", "{\"id\": 1}\n{\"id\": 2}\n", 1_000);
        Path t = write(config.inputDir(), "touched.json", "{\"id\": 3}\n", 1_500);
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            assertThat(ingest.runBatch().orElseThrow().numInputRows()).isEqualTo(3);
        }
        Files.writeString(a, "{\"id\": 100}\n", StandardOpenOption.APPEND);
        Files.setLastModifiedTime(t, FileTime.fromMillis(9_000)); // touched, same content: no change
        write(config.inputDir(), "c.json", "{\"id\": 4}\n", 2_000);

        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            Progress p = ingest.runBatch().orElseThrow();
            assertThat(p.batchId()).isEqualTo(1);
            assertThat(p.numInputRows()).isEqualTo(1);
            assertThat(p.sources().get(0).metrics()).containsEntry("numFilesChangedAfterIngest", 1L);
            assertThat(ingest.changedFiles()).singleElement().satisfies(c -> {
                assertThat(c.path()).isEqualTo("a.json");
                assertThat(c.ingested().rows()).isEqualTo(2);
                assertThat(c.reason()).contains("size");
            });
            assertThat(ingest.runBatch()).isEmpty();
            assertThat(ingest.status().changedFiles()).extracting(ChangedFile::path).containsExactly("a.json");
        }
        assertThat(FileIngest.readStatus(config, IngestKit.props(KAFKA.broker())).changedFiles()).extracting(ChangedFile::path)
                .containsExactly("a.json");
        assertThat(readCommitted(KAFKA.broker(), config.eventsTopic())).extracting(r -> text(r.value()))
                .containsExactly("{\"id\":1,\"user\":null}", "{\"id\":2,\"user\":null}", "{\"id\":3,\"user\":null}",
                        "{\"id\":4,\"user\":null}");

        // same size, new content
        Files.writeString(t, "{\"id\": 7}\n");
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            assertThat(ingest.runBatch()).isEmpty();
            assertThat(ingest.changedFiles()).extracting(ChangedFile::path).containsExactlyInAnyOrder("a.json", "touched.json");
        }
    }

    /**
     * Files read ahead while Kafka was not there yet ({@link FileIngest#readAhead}): what the ingest
     * publishes is what the folder holds when it publishes. A file ingested by an earlier run is not
     * published again, and a file appended to after it was read ahead is published as it is now.
     */
    @Test
    void filesReadAheadArePublishedAsTheFolderHoldsThem() throws Exception {
        IngestConfig config = builder("read-ahead").build();
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        write(config.inputDir(), "a.json", "{\"id\": 1}\n", 1_000);
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            assertThat(ingest.runBatch().orElseThrow().numInputRows()).isEqualTo(1);
        }
        Path b = write(config.inputDir(), "b.json", "{\"id\": 2}\n{\"id\": 3, \"user\": 4}\n{\"id\": 5}\n", 2_000);
        write(config.inputDir(), "c.json", "{\"id\": 6}\nnot json\n", 3_000);
        FilesReadAhead readAhead = FileIngest.readAhead(config, 1);
        assertThat(readAhead.reading().finished(10_000)).as("b.json and c.json read ahead").isTrue();
        Files.writeString(b, "{\"id\": 7}\n", StandardOpenOption.APPEND);
        Files.setLastModifiedTime(b, FileTime.fromMillis(2_000 + 1)); // still before c.json
        try (FileIngest ingest = FileIngest.builder(config, IngestKit.props(KAFKA.broker())).readAhead(readAhead).build()) {
            Progress p = ingest.runBatch().orElseThrow();
            assertThat(p.batchId()).isEqualTo(1);
            assertThat(p.numInputRows()).isEqualTo(5);
            assertThat(p.sources().get(0).metrics()).containsEntry("numBadRows", 1L);
        }
        assertThat(readCommitted(KAFKA.broker(), config.eventsTopic())).extracting(r -> text(r.value()))
                .containsExactly("{\"id\":1,\"user\":null}", "{\"id\":2,\"user\":null}", "{\"id\":3,\"user\":\"4\"}",
                        "{\"id\":5,\"user\":null}", "{\"id\":7,\"user\":null}", "{\"id\":6,\"user\":null}");
        assertThat(readCommitted(KAFKA.broker(), config.deadLetterTopic())).singleElement()
                .satisfies(r -> assertThat(text(r.value())).contains("\"batchId\":1", "c.json", "not json"));

        // a file read ahead and deleted before its batch: once a batch took every new file, nothing is held for it
        write(config.inputDir(), "d.json", "{\"id\": 8}\n", 4_000);
        Path e = write(config.inputDir(), "e.json", "{\"id\": 9}\n", 5_000);
        FilesReadAhead second = FileIngest.readAhead(config, 1);
        assertThat(second.reading().finished(10_000)).isTrue();
        Files.delete(e);
        try (FileIngest ingest = FileIngest.builder(config, IngestKit.props(KAFKA.broker())).readAhead(second).build()) {
            assertThat(second.reading().heldBytes()).as("e.json's rows").isGreaterThan(0);
            assertThat(ingest.runBatch().orElseThrow().numInputRows()).isEqualTo(1);
            assertThat(second.reading().heldBytes()).isZero();
        }
    }

    /** A writer that finishes the file's last line while the ingest reads it (a bad record is the moment it notices). */
    @Test
    void aFileWrittenWhileReadIsLeftOutAndTakenWholeLater() throws Exception {
        Path dir = tmp.resolve("growing/in");
        Path growing = dir.resolve("b.json");
        BadRecordPolicy writerFinishes = new BadRecordPolicy() {
            private boolean done;

            @Override
            public String name() {
                return "drop";
            }

            @Override
            public Action onBadRecord(BadRecord bad) {
                if (!done && bad.file().equals("b.json")) {
                    done = true;
                    try {
                        Files.writeString(growing, "er\": \"c\"}\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
                        Files.setLastModifiedTime(growing, FileTime.fromMillis(5_000));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
                return Action.DROP;
            }
        };
        IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline("growing"), dir, SCHEMA).onBadRecord(writerFinishes).build();
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        write(dir, "a.json", "{\"id\": 1}\n{\"id\": 2}\n", 1_000);
        write(dir, "b.json", "{\"id\": 3}\n{\"id\": 4, \"us", 2_000);
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            Progress first = ingest.runBatch().orElseThrow();
            assertThat(first.batchId()).isZero();
            assertThat(first.numInputRows()).isEqualTo(2);
            assertThat(first.sources().get(0).metrics()).containsEntry("numFilesChangedWhileReading", 1L)
                    .containsEntry("numBadRows", 0L);
            Progress second = ingest.runBatch().orElseThrow();
            assertThat(second.batchId()).isEqualTo(1);
            assertThat(second.numInputRows()).isEqualTo(2);
            assertThat(second.sources().get(0).metrics()).containsEntry("numBadRows", 0L);
            assertThat(ingest.runBatch()).isEmpty();
        }
        assertThat(readCommitted(KAFKA.broker(), config.eventsTopic())).extracting(r -> text(r.value()))
                .containsExactly("{\"id\":1,\"user\":null}", "{\"id\":2,\"user\":null}", "{\"id\":3,\"user\":null}",
                        "{\"id\":4,\"user\":\"c\"}");
    }

    @Test
    void fileMinAgeHoldsBackRecentFilesAndHiddenNamesAreNeverRead() throws Exception {
        IngestConfig config = builder("minage").fileMinAge(Duration.ofHours(1)).build();
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        long now = System.currentTimeMillis();
        write(config.inputDir(), "old.json", "{\"id\": 1}\n", now - Duration.ofHours(2).toMillis());
        write(config.inputDir(), "new.json", "{\"id\": 2}\n", now);
        write(config.inputDir(), "_tmp.json", "{\"id\": 3}\n", 1_000);
        write(config.inputDir(), ".part.json", "{\"id\": 4}\n", 1_000);
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            Progress p = ingest.runBatch().orElseThrow();
            assertThat(p.numInputRows()).isEqualTo(1);
            assertThat(p.sources().get(0).metrics()).containsEntry("numFilesHeldBackByMinAge", 1L)
                    .containsEntry("files", java.util.List.of("old.json"));
            assertThat(ingest.runBatch()).isEmpty();
        }
    }

    @Test
    void maxFilesAndMaxBytesPerTriggerSplitTheBacklogIntoBatches() throws Exception {
        IngestConfig config = builder("limits").maxFilesPerTrigger(2).maxBytesPerTrigger(25).build();
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        for (int i = 0; i < 5; i++) {
            write(config.inputDir(), "f" + i + ".json", "{\"id\": " + i + "}\n", 1_000 + i); // 10 bytes each
        }
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            // numFilesPending: the files the limits leave for later batches (a progress bar's "planned" = done + pending)
            assertThat(ingest.runBatch().orElseThrow().sources().get(0).metrics()).containsEntry("files", java.util.List.of("f0.json", "f1.json"))
                    .containsEntry("numFilesPending", 3L);
            assertThat(ingest.runBatch().orElseThrow().sources().get(0).metrics()).containsEntry("files", java.util.List.of("f2.json", "f3.json"))
                    .containsEntry("numFilesPending", 1L);
            Progress last = ingest.runBatch().orElseThrow();
            assertThat(last.batchId()).isEqualTo(2);
            assertThat(last.sources().get(0).metrics()).containsEntry("files", java.util.List.of("f4.json")).containsEntry("numFilesPending", 0L);
            assertThat(ingest.runBatch()).isEmpty();
        }
    }
}
