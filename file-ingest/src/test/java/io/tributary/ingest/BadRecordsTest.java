package io.tributary.ingest;

import static io.tributary.ingest.IngestKit.readCommitted;
import static io.tributary.ingest.IngestKit.text;
import static io.tributary.ingest.IngestKit.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.BrokerExtension;
import io.tributary.schema.Progress;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Spark's PERMISSIVE / DROPMALFORMED / FAILFAST as onBadRecord deadLetter / drop / fail. */
@Tag("integration")
@Timeout(180)
class BadRecordsTest {
    static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");
    static final ObjectMapper JSON = new ObjectMapper();
    /** Line 1 good, 2 a type violation on amt, 3 blank, 4 not JSON, 5 good, 6 cut short (no line end). */
    static final String MIXED = "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}\r\n"
            + "{\"id\": 2, \"user\": \"b\", \"amt\": \"lots\", \"ts\": \"2026-01-01T10:02:00Z\"}\r\n"
            + "\r\n"
            + "this is not json\n"
            + "{\"id\": 5, \"user\": \"c\"}\n"
            + "{\"id\": 6, \"user\": \"d\", \"am";

    @TempDir
    static Path tmp;
    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    private IngestConfig config(String name, BadRecordPolicy policy) {
        IngestConfig c = IngestConfig.builder(IngestKit.uniquePipeline(name), tmp.resolve(name + "/in"), SCHEMA)
                .onBadRecord(policy).build();
        IngestKit.createTopics(KAFKA.broker(), c, 2);
        return c;
    }

    @Test
    void deadLetterKeepsBadLinesWithFileLineAndReasonAndGoodRowsGoOn() throws Exception {
        IngestConfig config = config("deadletter", BadRecordPolicy.DEAD_LETTER);
        write(config.inputDir(), "mixed.json", MIXED, 1_000);
        Progress p;
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            p = ingest.runBatch().orElseThrow();
        }
        assertThat(p.numInputRows()).isEqualTo(2);
        assertThat(p.sources().get(0).metrics()).containsEntry("numBadRows", 3L);
        assertThat(p.sink().metrics()).containsEntry("numDeadLetterRows", 3L).containsEntry("numDroppedRows", 0L);
        assertThat(readCommitted(KAFKA.broker(), config.eventsTopic())).extracting(r -> text(r.value())).containsExactlyInAnyOrder(
                "{\"id\":1,\"user\":\"a\",\"amt\":5.0,\"ts\":\"2026-01-01T10:01:00Z\"}",
                "{\"id\":5,\"user\":\"c\",\"amt\":null,\"ts\":null}");

        List<JsonNode> dead = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : readCommitted(KAFKA.broker(), config.deadLetterTopic())) {
            assertThat(text(r.key())).isEqualTo("mixed.json");
            dead.add(JSON.readTree(r.value()));
        }
        assertThat(dead).extracting(n -> n.get("line").asLong()).containsExactly(2L, 4L, 6L);
        assertThat(dead).extracting(n -> n.get("file").asText()).containsOnly("mixed.json");
        assertThat(dead.get(0).get("field").asText()).isEqualTo("amt");
        assertThat(dead.get(0).get("reason").asText()).contains("expected DOUBLE");
        assertThat(dead.get(0).get("text").asText()).isEqualTo("{\"id\": 2, \"user\": \"b\", \"amt\": \"lots\", \"ts\": \"2026-01-01T10:02:00Z\"}");
        assertThat(dead.get(1).get("field").isNull()).isTrue();
        assertThat(dead.get(1).get("reason").asText()).contains("malformed JSON");
        assertThat(dead.get(2).get("reason").asText()).contains("no line end");
        assertThat(dead.get(2).get("batchId").asLong()).isZero();
    }

    @Test
    void dropCountsBadLinesAndPublishesTheRest() throws Exception {
        IngestConfig config = config("drop", BadRecordPolicy.forName("DROPMALFORMED"));
        write(config.inputDir(), "mixed.json", MIXED, 1_000);
        Progress p;
        IngestStatus status;
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            p = ingest.runBatch().orElseThrow();
            status = ingest.status();
        }
        assertThat(p.numInputRows()).isEqualTo(2);
        assertThat(p.sources().get(0).metrics()).containsEntry("numBadRows", 3L);
        assertThat(p.sink().metrics()).containsEntry("numDroppedRows", 3L).containsEntry("numDeadLetterRows", 0L);
        assertThat(readCommitted(KAFKA.broker(), config.eventsTopic())).hasSize(2);
        assertThat(readCommitted(KAFKA.broker(), config.deadLetterTopic())).isEmpty();
        assertThat(status.files()).singleElement().satisfies(f -> {
            assertThat(f.rows()).isEqualTo(2);
            assertThat(f.badRows()).isEqualTo(3);
        });
    }

    @Test
    void failStopsTheRunNamingFileLineAndFieldAndPublishesNothingOfTheBatch() throws Exception {
        IngestConfig config = config("fail", BadRecordPolicy.FAIL);
        write(config.inputDir(), "a.json", "{\"id\": 1, \"amt\": 1.0}\n{\"id\": 2, \"amt\": 2.0}\n", 1_000);
        Path b = write(config.inputDir(), "b.json", "{\"id\": 3, \"amt\": 3.0}\n{\"id\": 4, \"amt\": \"four\"}\n", 2_000);
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            assertThatThrownBy(ingest::runBatch).isInstanceOf(TributaryException.class)
                    .hasMessageContaining("b.json:2").hasMessageContaining("field 'amt'")
                    .hasMessageContaining("nothing of this batch was published");
            assertThat(readCommitted(KAFKA.broker(), config.eventsTopic())).isEmpty();
            assertThat(readCommitted(KAFKA.broker(), config.ingestLogTopic())).isEmpty();
            assertThat(readCommitted(KAFKA.broker(), config.deadLetterTopic())).isEmpty();

            Files.writeString(b, "{\"id\": 3, \"amt\": 3.0}\n{\"id\": 4, \"amt\": 4.0}\n", StandardCharsets.UTF_8);
            Progress fixed = ingest.runBatch().orElseThrow();
            assertThat(fixed.batchId()).isZero();
            assertThat(fixed.numInputRows()).isEqualTo(4);
        }
        assertThat(readCommitted(KAFKA.broker(), config.eventsTopic())).hasSize(4);
    }

    @Test
    void invalidUtf8AndOverLongLinesAreBadRecordsWithTheirLine() throws Exception {
        IngestConfig c = IngestConfig.builder(IngestKit.uniquePipeline("bytes"), tmp.resolve("bytes/in"), SCHEMA)
                .maxLineBytes(64).build();
        IngestKit.createTopics(KAFKA.broker(), c, 1);
        Files.createDirectories(c.inputDir());
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        byte[] good = "{\"id\": 1}\n".getBytes(StandardCharsets.UTF_8);
        byte[] badUtf8 = {'{', '"', 'u', 's', 'e', 'r', '"', ':', '"', (byte) 0xFF, '"', '}', '\n'};
        byte[] tooLong = ("{\"user\": \"" + "x".repeat(100) + "\"}\n").getBytes(StandardCharsets.UTF_8);
        byte[] last = "{\"id\": 4}".getBytes(StandardCharsets.UTF_8);
        Path f = c.inputDir().resolve("bytes.json");
        try (var out = Files.newOutputStream(f)) {
            out.write(bom);
            out.write(good);
            out.write(badUtf8);
            out.write(tooLong);
            out.write(last);
        }
        Progress p;
        try (FileIngest ingest = new FileIngest(c, IngestKit.props(KAFKA.broker()))) {
            p = ingest.runBatch().orElseThrow();
        }
        assertThat(p.numInputRows()).isEqualTo(2);
        List<JsonNode> dead = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : readCommitted(KAFKA.broker(), c.deadLetterTopic())) {
            dead.add(JSON.readTree(r.value()));
        }
        assertThat(dead).extracting(n -> n.get("line").asLong()).containsExactly(2L, 3L);
        assertThat(dead.get(0).get("reason").asText()).contains("invalid UTF-8");
        assertThat(dead.get(1).get("reason").asText()).contains("longer than maxLineBytes (64)");
        assertThat(dead.get(1).get("textTruncated").asBoolean()).isTrue();
    }

    @Test
    void anEmptyFileIsIngestedWithNoRows() throws Exception {
        IngestConfig config = config("empty", BadRecordPolicy.FAIL);
        write(config.inputDir(), "empty.json", "", 1_000);
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            Progress p = ingest.runBatch().orElseThrow();
            assertThat(p.numInputRows()).isZero();
            assertThat(p.sources().get(0).metrics()).containsEntry("numFiles", 1L);
            assertThat(ingest.runBatch()).isEmpty();
        }
    }
}
