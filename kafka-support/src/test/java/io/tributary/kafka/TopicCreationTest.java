package io.tributary.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.BrokerExtension;
import io.tributary.schema.TributaryException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Topic creation and a stage's log read back to its end, on a real broker. */
@Tag("integration")
class TopicCreationTest {
    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    @Test
    void missingTopicsAreCreatedAndAnExistingOneIsLeftAsItIs() throws Exception {
        try (Admin admin = Admin.create(KAFKA.client())) {
            TopicCreation.create(admin, List.of(new NewTopic("kept", Optional.of(2), Optional.empty())));
            TopicCreation.create(admin, List.of(
                    new NewTopic("kept", Optional.of(5), Optional.empty()),
                    new NewTopic("log", Optional.of(1), Optional.empty()).configs(Map.of("cleanup.policy", "compact"))));
            TopicCreation.awaitVisible(admin, List.of("kept", "log"));

            var described = admin.describeTopics(List.of("kept", "log")).allTopicNames().get();
            assertThat(described.get("kept").partitions()).hasSize(2);
            assertThat(described.get("log").partitions()).hasSize(1);
            ConfigResource log = new ConfigResource(ConfigResource.Type.TOPIC, "log");
            assertThat(admin.describeConfigs(List.of(log)).all().get().get(log).get("cleanup.policy").value()).isEqualTo("compact");
        }
    }

    @Test
    void aLogIsReadToItsEndAndOnlyCommittedRecordsCount() {
        try (Admin admin = Admin.create(KAFKA.client())) {
            TopicCreation.create(admin, List.of(new NewTopic("progress", Optional.of(1), Optional.empty())
                    .configs(Map.of("cleanup.policy", "compact"))));
        }
        Map<String, Object> props = new LinkedHashMap<>(KAFKA.client());
        props.put("transactional.id", "test-writer");
        try (KafkaProducer<String, String> p = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            p.initTransactions();
            p.beginTransaction();
            p.send(new ProducerRecord<>("progress", "a", "1"));
            p.send(new ProducerRecord<>("progress", "b", "1"));
            p.commitTransaction();
            p.beginTransaction();
            p.send(new ProducerRecord<>("progress", "a", "2"));
            p.send(new ProducerRecord<>("progress", "b", null));
            p.commitTransaction();
            p.beginTransaction();
            p.send(new ProducerRecord<>("progress", "a", "aborted"));
            p.flush();
            p.abortTransaction();
        }

        List<String> seen = new ArrayList<>();
        SettledLog.read(KAFKA.client(), "progress", "test-reader", () -> new TributaryException("no progress topic"),
                "reading progress", r -> seen.add(text(r.key()) + "=" + text(r.value())));
        assertThat(seen).containsExactly("a=1", "b=1", "a=2", "b=null");
    }

    @Test
    void aMissingLogIsTheCallersError() {
        Map<String, Object> props = new LinkedHashMap<>(KAFKA.client());
        props.put("default.api.timeout.ms", 500); // how long a stage looks for its topic
        assertThatThrownBy(() -> SettledLog.read(props, "no-such-log", "test-reader",
                () -> new TributaryException("topic no-such-log does not exist; create it first"), "reading", r -> { }))
                .isInstanceOf(TributaryException.class).hasMessage("topic no-such-log does not exist; create it first");
    }

    private static String text(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }
}
