package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.sink.DeltaSink;
import io.tributary.sink.SinkConfig;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sink waits for the topic it reads; on a broker that creates any topic a client asks about
 * (auto.create.topics.enable), its waiting must not create the topic with the broker's defaults
 * (one partition, time retention) before the stage that writes it does.
 */
@Tag("integration")
@Timeout(300)
class TopicNeverCreatedByItsReaderTest {
    @TempDir
    Path dir;

    @Test
    void aSinkWaitingForItsTopicOnAnAutoCreatingBrokerDoesNotCreateIt() throws Exception {
        try (StandaloneBroker broker = StandaloneBroker.start(dir.resolve("broker"), true)) {
            Map<String, Object> client = Map.of("bootstrap.servers", broker.bootstrapServers(),
                    "default.api.timeout.ms", "2000", "request.timeout.ms", "2000");
            String topic = "tributary.nobody.events";
            SinkConfig config = SinkConfig.of(dir.resolve("out").toString(), Schema.parse("id INT"), topic, "tributary-nobody-sink", "nobody/sink");
            assertThatThrownBy(() -> new DeltaSink(config, client))
                    .isInstanceOf(TributaryException.class)
                    .hasMessageStartingWith("delta sink: topic " + topic + " does not exist (looked for it for 2 s");
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
                assertThat(admin.listTopics().names().get()).doesNotContain(topic);
            }
        }
    }
}
