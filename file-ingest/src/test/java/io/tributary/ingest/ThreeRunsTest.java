package io.tributary.ingest;

import static io.tributary.ingest.IngestKit.readCommitted;
import static io.tributary.ingest.IngestKit.readRecords;
import static io.tributary.ingest.IngestKit.text;
import static io.tributary.ingest.IngestKit.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.BrokerExtension;
import io.tributary.schema.Progress;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Spark's "checkpoints give you exactly-once" at the ingest level, a new ingest for every run. */
@Tag("integration")
@Timeout(180)
class ThreeRunsTest {
    static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");

    @TempDir
    static Path tmp;
    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    @Test
    void threeRunsPickUpOnlyNewFiles() throws Exception {
        Path in = tmp.resolve("three-runs/in");
        IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline("quickstart"), in, SCHEMA).build();
        IngestKit.createTopics(KAFKA.broker(), config, 2);
        write(in, "a.json", "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}\n"
                + "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}\n", 1_000_000);

        Progress run1;
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            run1 = ingest.runBatch().orElseThrow();
            assertThat(ingest.runBatch()).isEmpty();
        }
        assertThat(run1.batchId()).isZero();
        assertThat(run1.numInputRows()).isEqualTo(2);
        assertThat(run1.name()).isEqualTo(config.pipeline() + "/ingest");
        assertThat(run1.sources().get(0).description()).isEqualTo("FileSource[" + in + "]");
        assertThat(run1.sources().get(0).metrics()).containsEntry("numFiles", 1L).containsEntry("numBadRows", 0L);
        assertThat(run1.sink().description()).isEqualTo("KafkaSink[" + config.eventsTopic() + "]");
        assertThat(run1.sink().numOutputRows()).isEqualTo(2);
        assertThat(run1.durationMs()).containsKey("triggerExecution");
        assertThat(run1.eventTime()).isNull();

        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            assertThat(ingest.runBatch()).isEmpty();
            Progress idle = ingest.idleProgress().orElseThrow();
            assertThat(idle.batchId()).isEqualTo(1);
            assertThat(idle.numInputRows()).isZero();
            assertThat(idle.sources().get(0).endOffset()).isEqualTo(Map.of("logOffset", 0L));
        }

        write(in, "b.json", "{\"id\": 3, \"user\": \"a\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:04:00Z\"}", 2_000_000);
        Optional<Progress> run3;
        IngestStatus status;
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            run3 = ingest.runBatch();
            status = ingest.status();
        }
        assertThat(run3.orElseThrow().batchId()).isEqualTo(1);
        assertThat(run3.orElseThrow().numInputRows()).isEqualTo(1);
        assertThat(run3.orElseThrow().sources().get(0).startOffset()).isEqualTo(Map.of("logOffset", 0L));

        List<ConsumerRecord<byte[], byte[]>> events = readCommitted(KAFKA.broker(), config.eventsTopic());
        assertThat(events).extracting(r -> text(r.value())).containsExactlyInAnyOrder(
                "{\"id\":1,\"user\":\"a\",\"amt\":5.0,\"ts\":\"2026-01-01T10:01:00Z\"}",
                "{\"id\":2,\"user\":\"b\",\"amt\":7.0,\"ts\":\"2026-01-01T10:05:00Z\"}",
                "{\"id\":3,\"user\":\"a\",\"amt\":1.0,\"ts\":\"2026-01-01T10:04:00Z\"}");
        assertThat(events).allSatisfy(r -> assertThat(r.key()).isNull());
        // a file's rows share a record (rowsPerRecord 1000): run 1's two rows, then run 3's one
        assertThat(readRecords(KAFKA.broker(), config.eventsTopic())).extracting(r -> text(r.value()).split("\n").length)
                .containsExactly(2, 1);

        assertThat(status.nextBatchId()).isEqualTo(2);
        assertThat(status.watermarkMs()).isNull();
        assertThat(status.changedFiles()).isEmpty();
        assertThat(status.files()).extracting(IngestedFile::path, IngestedFile::rows, IngestedFile::batchId)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("a.json", 2L, 0L), org.assertj.core.groups.Tuple.tuple("b.json", 1L, 1L));
        assertThat(status.files().get(0).sha256()).hasSize(64);
        assertThat(FileIngest.readStatus(config, IngestKit.props(KAFKA.broker())).files()).hasSize(2);

        List<ConsumerRecord<byte[], byte[]>> log = readCommitted(KAFKA.broker(), config.ingestLogTopic());
        assertThat(log).extracting(r -> text(r.key())).containsExactly("a.json", "__state__", "b.json", "__state__");
        assertThat(text(log.get(2).value())).contains("\"path\":\"b.json\"", "\"rows\":1", "\"badRows\":0", "\"batchId\":1",
                "\"sha256\":\"", "\"size\":", "\"mtime\":2000000");
        assertThat(text(log.get(3).value())).contains("\"nextBatchId\":2");
    }

    @Test
    void aSecondIngestOfThePipelineFencesTheFirst() throws Exception {
        Path in = tmp.resolve("fence/in");
        IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline("fence"), in, SCHEMA).build();
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        write(in, "a.json", "{\"id\": 1}\n", 1_000);
        try (FileIngest first = new FileIngest(config, IngestKit.props(KAFKA.broker()));
             FileIngest second = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            assertThatThrownBy(first::runBatch).isInstanceOf(TributaryException.class)
                    .hasMessageContaining("took over").hasMessageContaining(config.transactionalId());
            assertThat(second.runBatch().orElseThrow().numInputRows()).isEqualTo(1);
            assertThatThrownBy(first::runBatch).isInstanceOf(TributaryException.class).hasMessageContaining("closed");
        }
        assertThat(readCommitted(KAFKA.broker(), config.eventsTopic())).hasSize(1);
    }

    @Test
    void theEventsTopicNeverDeletesRowsForTheirOldEventTime() throws Exception {
        // the records carry event times (often weeks old) as timestamps: time retention would drop them unread
        IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline("retention"), tmp.resolve("retention/in"), SCHEMA).build();
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        try (Admin admin = Admin.create(IngestKit.props(KAFKA.broker()))) {
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, config.eventsTopic());
            Config described = admin.describeConfigs(List.of(topic)).all().get().get(topic);
            assertThat(described.get("retention.ms").value()).isEqualTo("-1");
        }
    }

    @Test
    void missingTopicsAreNamedAtStart() {
        IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline("no-topics"), tmp.resolve("x"), SCHEMA).build();
        // the wait for the topics is the client's default.api.timeout.ms: 3 s here instead of 60
        Map<String, Object> props = Map.of("bootstrap.servers", KAFKA.broker().bootstrapServers(), "default.api.timeout.ms", "3000",
                "request.timeout.ms", "3000");
        assertThatThrownBy(() -> new FileIngest(config, props)).isInstanceOf(TributaryException.class)
                .hasMessageContaining(config.eventsTopic()).hasMessageContaining("createTopics");
    }
}
