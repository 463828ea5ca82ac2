package io.tributary.ingest;

import static io.tributary.ingest.IngestKit.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.BrokerExtension;
import io.tributary.schema.Schema;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark's {@code maxFileAge} through real batches on the embedded broker: the ingest remembers the
 * files of that span back from the newest, not all it ever read, and neither it nor a restart reads
 * again a forgotten file still in the folder.
 */
@Tag("integration")
@Timeout(180)
class MaxFileAgeTest {
    private static final Schema SCHEMA = Schema.parse("id INT");
    private static final long MINUTE = 60_000;

    @TempDir
    static Path tmp;
    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    @Test
    void aLongRunningIngestRemembersOnlyTheFilesOfMaxFileAge() throws Exception {
        Path in = tmp.resolve("in");
        IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline("max-file-age"), in, SCHEMA)
                .maxFileAge(Duration.ofMinutes(10)).build();
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        int files = 25;
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            for (int i = 0; i < files; i++) { // a file a minute by their modification times
                write(in, "f-" + i + ".json", "{\"id\": " + i + "}\n", i * MINUTE);
                assertThat(ingest.runBatch().orElseThrow().numInputRows()).as("batch %d", i).isEqualTo(1);
            }
            assertThat(ingest.status().files()).as("ten minutes of files, not all %d", files).hasSizeBetween(11, 12);
            assertThat(ingest.runBatch()).as("the forgotten files still listed are not read again").isEmpty();
            write(in, "copied-with-an-old-time.json", "{\"id\": -1}\n", MINUTE);
            assertThat(ingest.runBatch()).as("older than the files forgotten").isEmpty();
        }
        try (FileIngest restarted = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            assertThat(restarted.status().files()).hasSizeBetween(11, 12);
            assertThat(restarted.runBatch()).as("after a restart too").isEmpty();
        }
        assertThat(IngestKit.readCommitted(KAFKA.broker(), config.eventsTopic())).hasSize(files);
        assertThat(FileIngest.readStatus(config, IngestKit.props(KAFKA.broker())).files())
                .as("the ingest log keeps every file's record").hasSize(files);
    }
}
