package io.tributary.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.BrokerExtension;
import io.tributary.kafka.TopicCreation;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ingest's topics are there for the next stage as soon as {@link FileIngest#createTopics}
 * returns: the sink opens right after it and describes its topic with a client of its own.
 * ({@code createTopics} of Kafka returns before the broker serves the topic: on a loaded machine
 * about one describe in six right after it answered "unknown topic", and the sink's start failed.)
 */
@Tag("integration")
@Timeout(300)
class TopicCreationTest {
    static final Schema SCHEMA = Schema.parse("id INT, user STRING");

    @TempDir
    static Path tmp;
    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    @Test
    void anotherClientDescribesTheTopicsRightAfterTheyAreCreated() throws Exception {
        List<String> unknown = new ArrayList<>();
        try (Admin creator = Admin.create(KAFKA.client()); Admin next = Admin.create(KAFKA.client())) {
            for (int i = 0; i < 30; i++) {
                IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline("visible"), tmp.resolve("in"), SCHEMA).build();
                FileIngest.createTopics(creator, config, 2);
                List<String> topics = List.of(config.eventsTopic(), config.ingestLogTopic(), config.deadLetterTopic());
                try {
                    Map<String, TopicDescription> d = next.describeTopics(topics).allTopicNames().get();
                    assertThat(d.get(config.eventsTopic()).partitions()).hasSize(2);
                } catch (ExecutionException e) {
                    unknown.add(topics + ": " + e.getCause());
                }
            }
        }
        assertThat(unknown).as("topics another client was told do not exist right after createTopics returned").isEmpty();
    }

    @Test
    void aTopicTheBrokerNeverServesFailsWithItsNameAfterTheBound() {
        try (Admin admin = Admin.create(KAFKA.client())) {
            assertThatThrownBy(() -> TopicCreation.awaitVisible(admin, List.of("never-created"), Duration.ofMillis(300)))
                    .isInstanceOf(TributaryException.class)
                    .hasMessageContaining("does not serve topics [never-created]")
                    .hasMessageContaining("after they were created");
        }
    }
}
