package io.tributary.ingest;

import static io.tributary.ingest.IngestKit.readCommitted;
import static io.tributary.ingest.IngestKit.readRecords;
import static io.tributary.ingest.IngestKit.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.BrokerExtension;
import io.tributary.ingest.internal.FileNames;
import io.tributary.ingest.internal.FilePublisher;
import io.tributary.ingest.internal.IngestLogCodec;
import io.tributary.schema.Progress;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Latin-1 file names (from a zip file or an SMB share), which the JDK decodes alike: each file is
 * ingested once, by its exact bytes, and named escaped ({@code caf\xE9.json}) where it is printed.
 * Linux only: other file systems refuse names that are not UTF-8.
 */
@Tag("integration")
@Timeout(180)
@EnabledOnOs(OS.LINUX)
class ByteNamesTest {
    static final Schema SCHEMA = Schema.parse("id INT, user STRING");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path tmp;
    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    /** A file named by the bytes {@code percentEncoded} spells ({@code caf%E9.json}), with its modification time. */
    private static Path byBytes(Path dir, String percentEncoded, String content, long mtimeMs) throws IOException {
        Files.createDirectories(dir);
        Path p = Path.of(URI.create(dir.toAbsolutePath().toUri() + percentEncoded));
        Files.writeString(p, content, StandardCharsets.UTF_8);
        Files.setLastModifiedTime(p, FileTime.fromMillis(mtimeMs));
        return p;
    }

    @Test
    void twoLatin1NamesAreTwoFilesEachIngestedOnceOverTwoRuns() throws Exception {
        IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline("latin1"), tmp.resolve("latin1/in"), SCHEMA).build();
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        byBytes(config.inputDir(), "caf%E9.json", "{\"id\": 1}\n{\"id\": 2}\nnot json\n", 1_000);
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            Progress p = ingest.runBatch().orElseThrow();
            assertThat(p.numInputRows()).isEqualTo(2);
            assertThat(p.sources().get(0).metrics()).containsEntry("files", List.of("caf\\xE9.json"));
            assertThat(ingest.runBatch()).isEmpty();
        }
        byBytes(config.inputDir(), "caf%E8.json", "{\"id\": 3}\n", 2_000); // its name decodes as the first one's

        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            Progress p = ingest.runBatch().orElseThrow();
            assertThat(p.batchId()).isEqualTo(1);
            assertThat(p.numInputRows()).isEqualTo(1);
            assertThat(p.sources().get(0).metrics()).containsEntry("files", List.of("caf\\xE8.json"))
                    .containsEntry("numFilesChangedAfterIngest", 0L);
            assertThat(ingest.changedFiles()).isEmpty();
            assertThat(ingest.runBatch()).isEmpty();
            assertThat(ingest.status().files()).hasSize(2);
        }
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            assertThat(ingest.runBatch()).as("a third run finds nothing new").isEmpty();
        }

        assertThat(readCommitted(KAFKA.broker(), config.eventsTopic())).extracting(r -> text(r.value()))
                .containsExactly("{\"id\":1,\"user\":null}", "{\"id\":2,\"user\":null}", "{\"id\":3,\"user\":null}");
        List<String> keys = readRecords(KAFKA.broker(), config.ingestLogTopic()).stream().map(ConsumerRecord::key)
                .map(k -> HexFormat.of().formatHex(k)).distinct().toList();
        assertThat(keys).as("the ingest log's keys: the names' bytes").contains("636166e92e6a736f6e", "636166e82e6a736f6e");
        JsonNode dead = JSON.readTree(readCommitted(KAFKA.broker(), config.deadLetterTopic()).get(0).value());
        assertThat(dead.get("file").asText()).isEqualTo("caf\\xE9.json");
        assertThat(dead.get("line").asLong()).isEqualTo(3);
    }

    /** A name with a line end and a terminal escape code: ingested as named, printed escaped in progress and dead letters. */
    @Test
    void aNameWithALineEndAndAnEscapeCodeIsPrintedEscaped() throws Exception {
        IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline("controls"), tmp.resolve("controls/in"), SCHEMA).build();
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        byBytes(config.inputDir(), "a%0A12:00:00.000%20INFO%20forged%1B%5B31m.json", "{\"id\": 1}\nnot json\n", 1_000);
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            Progress p = ingest.runBatch().orElseThrow();
            assertThat(p.numInputRows()).isEqualTo(1);
            assertThat(p.sources().get(0).metrics()).containsEntry("files", List.of("a\\n12:00:00.000 INFO forged\\x1B[31m.json"));
            assertThat(ingest.status().files()).extracting(IngestedFile::path).containsExactly("a\n12:00:00.000 INFO forged\u001B[31m.json");
        }
        JsonNode dead = JSON.readTree(readCommitted(KAFKA.broker(), config.deadLetterTopic()).get(0).value());
        assertThat(dead.get("file").asText()).isEqualTo("a\\n12:00:00.000 INFO forged\\x1B[31m.json");
    }

    /** cleanSource archive moves each Latin-1 file to a name of the same bytes: two files stay two files. */
    @Test
    void archivedLatin1FilesKeepTheirNames() throws Exception {
        Path archive = tmp.resolve("archive/done");
        IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline("archive"), tmp.resolve("archive/in"), SCHEMA)
                .cleanSource(CleanSource.archiveTo(archive)).build();
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        byBytes(config.inputDir(), "caf%E9.json", "{\"id\": 1}\n", 1_000);
        byBytes(config.inputDir(), "caf%E8.json", "{\"id\": 2}\n", 2_000);
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            assertThat(ingest.runBatch().orElseThrow().numInputRows()).isEqualTo(2);
        }
        try (var in = Files.list(config.inputDir()); var done = Files.list(archive)) {
            assertThat(in).isEmpty();
            assertThat(done.map(p -> HexFormat.of().formatHex(FileNames.bytes(FileNames.of(p)))))
                    .containsExactlyInAnyOrder("636166e92e6a736f6e", "636166e82e6a736f6e");
        }
    }

    /**
     * An ingest log an earlier version wrote holds the first Latin-1 file under its lossy name
     * ({@code caf\uFFFD.json}): that file stays ingested (its size and modification time match the
     * record), the one it was mistaken for is ingested now.
     */
    @Test
    void anIngestLogOfAnEarlierVersionKeepsItsFileAndTheOtherIsIngested() throws Exception {
        IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline("legacy"), tmp.resolve("legacy/in"), SCHEMA).build();
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        Path first = byBytes(config.inputDir(), "caf%E9.json", "{\"id\": 1}\n", 1_000);
        byBytes(config.inputDir(), "caf%E8.json", "{\"id\": 2}\n{\"id\": 3}\n", 2_000);
        String lossy = "caf\uFFFD.json";
        IngestedFile earlier = new IngestedFile(lossy, Files.size(first), 1_000, FilePublisher.sha256(first), 1, 0, 0);
        try (KafkaProducer<byte[], byte[]> old = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers",
                KAFKA.broker().bootstrapServers()), new ByteArraySerializer(), new ByteArraySerializer())) {
            old.send(new ProducerRecord<>(config.ingestLogTopic(), lossy.getBytes(StandardCharsets.UTF_8),
                    IngestLogCodec.file(earlier, "2026-01-01T00:00:00Z")));
            old.send(new ProducerRecord<>(config.ingestLogTopic(), "__state__".getBytes(StandardCharsets.UTF_8),
                    IngestLogCodec.state(1, null, 0)));
        }

        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            Progress p = ingest.runBatch().orElseThrow();
            assertThat(p.batchId()).isEqualTo(1);
            assertThat(p.sources().get(0).metrics()).containsEntry("files", List.of("caf\\xE8.json"));
            assertThat(ingest.changedFiles()).isEmpty();
            assertThat(ingest.runBatch()).isEmpty();
        }
        assertThat(readCommitted(KAFKA.broker(), config.eventsTopic())).extracting(r -> text(r.value()))
                .containsExactly("{\"id\":2,\"user\":null}", "{\"id\":3,\"user\":null}");
    }
}
