package io.tributary.ingest.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.IngestedFile;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark's {@code maxFileAge}: a running ingest remembers the files of that span of modification
 * times back from the newest one, not every file it ever read, however many batches it runs; a
 * file older than the span is not new. The batches are planned and recorded as the ingest does
 * after its transaction commits, without Kafka.
 */
@Timeout(120)
class FilesRememberedTest {
    private static final Schema SCHEMA = Schema.parse("id INT");
    private static final long MINUTE = 60_000;

    @TempDir
    Path dir;

    @Test
    void theFilesRememberedStayWithinMaxFileAgeOverManyBatches() throws IOException {
        IngestConfig config = IngestConfig.builder("remembered", dir, SCHEMA).maxFileAge(Duration.ofHours(1)).build();
        BatchPlanner planner = new BatchPlanner(config, new FileDiscovery(dir));
        IngestState state = new IngestState();
        int largest = 0;
        for (int i = 0; i < 5_000; i++) { // a file a minute for three and a half days, archived once read
            Path f = write("f-" + i + ".json", i * MINUTE);
            List<FileStat> batch = planner.plan(state, i * MINUTE + 1).files();
            assertThat(batch).extracting(FileStat::relPath).as("batch %d", i).containsExactly("f-" + i + ".json");
            record(state, batch, i, config);
            Files.delete(f);
            largest = Math.max(largest, state.files().size());
        }
        assertThat(largest).as("files remembered at most: an hour of them, and a 64th more").isBetween(61, 62);
    }

    @Test
    void aListedFileOlderThanTheFilesForgottenIsNotReadAgainNorTakenForNew() throws IOException {
        IngestConfig config = IngestConfig.builder("old", dir, SCHEMA).maxFileAge(Duration.ofMinutes(10)).build();
        BatchPlanner planner = new BatchPlanner(config, new FileDiscovery(dir));
        IngestState state = new IngestState();
        for (int i = 0; i < 30; i++) { // the files stay in the folder
            write("f-" + i + ".json", i * MINUTE);
            record(state, planner.plan(state, i * MINUTE + 1).files(), i, config);
        }
        assertThat(state.files()).hasSizeLessThan(13);
        assertThat(state.file("f-0.json")).as("forgotten").isNull();
        assertThat(planner.plan(state, 30 * MINUTE).files()).as("the forgotten files still listed are not read again").isEmpty();

        write("copied-with-its-old-time.json", 5 * MINUTE);
        write("new.json", 30 * MINUTE);
        assertThat(planner.plan(state, 30 * MINUTE + 1).files()).extracting(FileStat::relPath).containsExactly("new.json");
    }

    @Test
    void withoutFilesNothingIsForgottenAndAnAgeBeyondAnyTimeKeepsEveryFile() throws IOException {
        IngestState state = new IngestState();
        assertThat(state.forget(Duration.ZERO)).isZero();
        IngestConfig config = IngestConfig.builder("forever", dir, SCHEMA).maxFileAge(Duration.ofSeconds(Long.MAX_VALUE)).build();
        BatchPlanner planner = new BatchPlanner(config, new FileDiscovery(dir));
        write("old.json", 0);
        record(state, planner.plan(state, 1).files(), 0, config);
        write("new.json", 4_000_000_000_000L);
        record(state, planner.plan(state, 4_000_000_000_001L).files(), 1, config);
        assertThat(state.files()).extracting(IngestedFile::path).containsExactly("old.json", "new.json");
        assertThat(state.forget(Duration.ofMillis(Long.MAX_VALUE))).isZero();
        assertThat(state.forget(Duration.ofDays(1))).isEqualTo(1);
        assertThat(state.files()).extracting(IngestedFile::path).containsExactly("new.json");
    }

    /** What the ingest records once a batch's transaction committed ({@code BatchRunner}). */
    private static void record(IngestState state, List<FileStat> batch, long batchId, IngestConfig config) {
        for (FileStat f : batch) {
            state.putFile(new IngestedFile(f.relPath(), f.size(), f.mtimeMs(), "0".repeat(64), 1, 0, batchId));
        }
        state.forget(config.maxFileAge());
    }

    private Path write(String name, long mtimeMs) throws IOException {
        Path p = Files.writeString(dir.resolve(name), "{\"id\": 1}\n");
        Files.setLastModifiedTime(p, FileTime.fromMillis(mtimeMs));
        return p;
    }
}
