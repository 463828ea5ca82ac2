package io.tributary.tests;

import io.tributary.broker.EmbeddedBroker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** The quickstart scenarios against a Kafka cluster named by {@code kafka.bootstrap.servers}. */
class QuickstartExternalKafkaTest extends QuickstartScenarios {
    private EmbeddedBroker broker;

    @BeforeEach
    void startBroker() {
        broker = EmbeddedBroker.start(dir.resolve("external-kafka"));
    }

    @AfterEach
    void stopBroker() {
        broker.close();
    }

    @Override
    String kafka() {
        return "kafka:\n  bootstrap.servers: \"" + broker.bootstrapServers() + "\"\n";
    }
}
