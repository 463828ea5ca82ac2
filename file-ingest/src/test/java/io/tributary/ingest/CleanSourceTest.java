package io.tributary.ingest;

import static io.tributary.ingest.IngestKit.readCommitted;
import static io.tributary.ingest.IngestKit.text;
import static io.tributary.ingest.IngestKit.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.BrokerExtension;
import io.tributary.schema.Progress;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Spark's cleanSource: a file is archived or deleted once its batch committed, never before, and a restart finishes the job. */
@Tag("integration")
@Timeout(180)
class CleanSourceTest {
    static final Schema SCHEMA = Schema.parse("id INT");

    @TempDir
    static Path tmp;
    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    @Test
    void archiveMovesCommittedFilesKeepingTheirNames() throws Exception {
        Path in = tmp.resolve("archive/in");
        Path archive = tmp.resolve("archive/done");
        write(in, "a.json", "{\"id\": 1}\n{\"id\": 2}\n", 1_000);
        write(in, "b.json", "{\"id\": 3}\n", 2_000);
        IngestConfig config = config("archive", in, CleanSource.archiveTo(archive));

        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            Progress batch = ingest.runBatch().orElseThrow();
            assertThat(batch.numInputRows()).isEqualTo(3);
            assertThat(batch.sources().get(0).metrics()).containsEntry("numFilesArchived", 2L).doesNotContainKey("numFilesDeleted");
            assertThat(ingest.runBatch()).isEmpty();
        }
        IngestStatus status = FileIngest.readStatus(config, IngestKit.props(KAFKA.broker()));
        assertThat(status.cleanSource()).isEqualTo("archive");
        assertThat(status.filesCleaned()).isEqualTo(2);
        assertThat(status.filesToClean()).isZero();
        assertThat(names(in)).isEmpty();
        assertThat(names(archive)).containsExactly("a.json", "b.json");
        assertThat(Files.readString(archive.resolve("a.json"))).isEqualTo("{\"id\": 1}\n{\"id\": 2}\n");
        assertThat(Files.getLastModifiedTime(archive.resolve("b.json")).toMillis()).isEqualTo(2_000);
        assertThat(values(config)).containsExactlyInAnyOrder("{\"id\":1}", "{\"id\":2}", "{\"id\":3}");
    }

    @Test
    void deleteRemovesCommittedFiles() throws Exception {
        Path in = tmp.resolve("delete/in");
        write(in, "a.json", "{\"id\": 1}\n", 1_000);
        IngestConfig config = config("delete", in, CleanSource.DELETE);
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            Progress batch = ingest.runBatch().orElseThrow();
            assertThat(batch.numInputRows()).isEqualTo(1);
            assertThat(batch.sources().get(0).metrics()).containsEntry("numFilesDeleted", 1L).doesNotContainKey("numFilesArchived");
        }
        assertThat(FileIngest.readStatus(config, IngestKit.props(KAFKA.broker())).filesCleaned()).isEqualTo(1);
        assertThat(names(in)).isEmpty();
        assertThat(values(config)).containsExactly("{\"id\":1}");
    }

    @Test
    void aBatchThatDoesNotCommitCleansNothing() throws Exception {
        Path in = tmp.resolve("failed/in");
        Path archive = tmp.resolve("failed/done");
        write(in, "a.json", "{\"id\": 1}\nnot json\n", 1_000);
        IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline("failed"), in, SCHEMA)
                .onBadRecord(BadRecordPolicy.FAIL).cleanSource(CleanSource.archiveTo(archive)).build();
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            assertThatThrownBy(ingest::runBatch).isInstanceOf(TributaryException.class).hasMessageContaining("a.json");
        }
        assertThat(names(in)).containsExactly("a.json");
        assertThat(Files.exists(archive)).as("nothing archived").isFalse();
        assertThat(values(config)).isEmpty();
    }

    /**
     * A run that died after the commit and before cleaning (crash point ingest.beforeClean) left
     * its files in place: here, a run with cleanSource off leaves the same state. The next start
     * publishes nothing again and cleans them; a file rewritten since it was ingested stays.
     */
    @Test
    void aRestartCleansTheFilesADeadRunLeftWithoutPublishingThemAgain() throws Exception {
        Path in = tmp.resolve("leftover/in");
        Path archive = tmp.resolve("leftover/done");
        write(in, "a.json", "{\"id\": 1}\n", 1_000);
        write(in, "b.json", "{\"id\": 2}\n", 2_000);
        String pipeline = IngestKit.uniquePipeline("leftover");
        IngestConfig off = IngestConfig.builder(pipeline, in, SCHEMA).build();
        IngestKit.createTopics(KAFKA.broker(), off, 1);
        try (FileIngest ingest = new FileIngest(off, IngestKit.props(KAFKA.broker()))) {
            Progress batch = ingest.runBatch().orElseThrow();
            assertThat(batch.numInputRows()).isEqualTo(2);
            assertThat(batch.sources().get(0).metrics()).as("cleanSource off: no such metric")
                    .doesNotContainKeys("numFilesArchived", "numFilesDeleted");
        }
        write(in, "b.json", "{\"id\": 2}\n{\"id\": 22}\n", 3_000); // rewritten after it was ingested

        IngestConfig archiving = IngestConfig.builder(pipeline, in, SCHEMA).cleanSource(CleanSource.archiveTo(archive)).build();
        write(in, "c.json", "{\"id\": 3}\n", 4_000); // not ingested yet: neither cleaned nor waiting
        IngestStatus before = FileIngest.readStatus(archiving, IngestKit.props(KAFKA.broker()));
        assertThat(before.filesCleaned()).isZero();
        assertThat(before.filesToClean()).as("a.json; b.json changed, it stays").isEqualTo(1);
        Files.delete(in.resolve("c.json"));
        try (FileIngest ingest = new FileIngest(archiving, IngestKit.props(KAFKA.broker()))) {
            assertThat(ingest.runBatch()).as("no new batch").isEmpty();
            assertThat(ingest.changedFiles()).extracting(ChangedFile::path).containsExactly("b.json");
            assertThat(ingest.idleProgress().orElseThrow().sources().get(0).metrics()).as("the idle line counts the file archived at start")
                    .containsEntry("numFilesArchived", 1L);
        }
        IngestStatus after = FileIngest.readStatus(archiving, IngestKit.props(KAFKA.broker()));
        assertThat(after.filesCleaned()).isEqualTo(1);
        assertThat(after.filesToClean()).isZero();
        assertThat(names(archive)).containsExactly("a.json");
        assertThat(names(in)).as("the rewritten file is reported, not cleaned").containsExactly("b.json");
        assertThat(values(archiving)).containsExactlyInAnyOrder("{\"id\":1}", "{\"id\":2}");
    }

    @Test
    void aNameTakenInTheArchiveGetsASuffix() throws Exception {
        Path in = tmp.resolve("taken/in");
        Path archive = tmp.resolve("taken/done");
        write(archive, "a.json", "older\n", 500);
        write(in, "a.json", "{\"id\": 1}\n", 1_000);
        try (FileIngest ingest = new FileIngest(config("taken", in, CleanSource.archiveTo(archive)), IngestKit.props(KAFKA.broker()))) {
            ingest.runBatch().orElseThrow();
        }
        assertThat(names(archive)).containsExactly("a.json", "a.json.1");
        assertThat(Files.readString(archive.resolve("a.json"))).isEqualTo("older\n");
        assertThat(Files.readString(archive.resolve("a.json.1"))).isEqualTo("{\"id\": 1}\n");
    }

    private static IngestConfig config(String base, Path in, CleanSource clean) {
        IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline(base), in, SCHEMA).cleanSource(clean).build();
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        return config;
    }

    private static List<String> values(IngestConfig config) {
        return readCommitted(KAFKA.broker(), config.eventsTopic()).stream().map(r -> text(r.value()).replace(" ", "")).toList();
    }

    private static List<String> names(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
