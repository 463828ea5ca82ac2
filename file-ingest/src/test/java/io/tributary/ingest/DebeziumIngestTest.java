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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code format: debezium-json} through the ingest: change events become rows of the events topic
 * with op and lsn, tombstones and truncates are counted in the progress, and malformed events go
 * to onBadRecord's dead letters (or stop the run) naming the file, the line and the field.
 */
@Tag("integration")
@Timeout(180)
class DebeziumIngestTest {
    static final Schema SCHEMA = Schema.parse("id INT, name STRING");
    static final ObjectMapper JSON = new ObjectMapper();
    static final String EVENTS = String.join("\n",
            "{\"before\":null,\"after\":{\"id\":1,\"name\":\"ann\"},\"source\":{\"lsn\":10},\"op\":\"c\",\"ts_ms\":1}",
            "{\"before\":null,\"after\":{\"id\":2,\"name\":\"bob\"},\"source\":{\"lsn\":11},\"op\":\"z\",\"ts_ms\":2}",
            "{\"id\":3,\"name\":\"not an event\"}",
            "{\"before\":{\"id\":1},\"after\":null,\"source\":{\"lsn\":12},\"op\":\"d\",\"ts_ms\":3}",
            "null",
            "{\"before\":null,\"after\":null,\"source\":{\"lsn\":13},\"op\":\"t\",\"ts_ms\":4}",
            "{\"schema\":{\"type\":\"struct\"},\"payload\":{\"before\":null,\"after\":{\"id\":\"four\"},\"source\":{\"lsn\":14},\"op\":\"c\"}}",
            "");

    @TempDir
    static Path tmp;
    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    private IngestConfig config(String name, BadRecordPolicy policy) {
        IngestConfig c = IngestConfig.builder(IngestKit.uniquePipeline(name), tmp.resolve(name + "/in"), SCHEMA)
                .format("debezium-json").onBadRecord(policy).build();
        IngestKit.createTopics(KAFKA.broker(), c, 1);
        return c;
    }

    @Test
    void changeEventsAreRowsWithOpAndLsnAndMalformedOnesDeadLettersNamingFileLineAndField() throws Exception {
        IngestConfig config = config("dbz-dead", BadRecordPolicy.DEAD_LETTER);
        write(config.inputDir(), "changes.json", EVENTS, 1_000);
        Progress p;
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            p = ingest.runBatch().orElseThrow();
        }
        assertThat(p.numInputRows()).isEqualTo(2);
        assertThat(p.sources().get(0).metrics()).containsEntry("numBadRows", 3L).containsEntry("numChangeEventsSkipped", 2L);
        assertThat(readCommitted(KAFKA.broker(), config.eventsTopic())).extracting(r -> text(r.value())).containsExactly(
                "{\"id\":1,\"name\":\"ann\",\"op\":\"c\",\"lsn\":10}",
                "{\"id\":1,\"name\":null,\"op\":\"d\",\"lsn\":12}");
        List<JsonNode> dead = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : readCommitted(KAFKA.broker(), config.deadLetterTopic())) {
            dead.add(JSON.readTree(r.value()));
        }
        assertThat(dead).extracting(n -> n.get("file").asText()).containsOnly("changes.json");
        assertThat(dead).extracting(n -> n.get("line").asLong()).containsExactly(2L, 3L, 7L);
        assertThat(dead).extracting(n -> n.get("field").asText()).containsExactly("op", "op", "after.id");
        assertThat(dead.get(0).get("reason").asText()).contains("'z' is not an operation");
        assertThat(dead.get(1).get("reason").asText()).contains("not a Debezium change event");
        assertThat(dead.get(2).get("reason").asText()).contains("expected INT");
    }

    @Test
    void failStopsAtTheFirstMalformedEventNamingFileAndLine() throws Exception {
        IngestConfig config = config("dbz-fail", BadRecordPolicy.FAIL);
        write(config.inputDir(), "changes.json", EVENTS, 1_000);
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            assertThatThrownBy(ingest::runBatch).isInstanceOf(TributaryException.class)
                    .hasMessageContaining("changes.json:2").hasMessageContaining("field 'op'");
        }
        assertThat(readCommitted(KAFKA.broker(), config.eventsTopic())).isEmpty();
    }
}
