package io.tributary.tests;

import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;

/**
 * The quickstart scenarios against Apache Kafka in a container, where a Docker engine runs;
 * skipped where none does (as on this project's CI machines, which run the embedded path).
 */
@Testcontainers(disabledWithoutDocker = true)
class QuickstartTestcontainersTest extends QuickstartScenarios {
    @Container
    final KafkaContainer kafka = new KafkaContainer("apache/kafka:4.1.0");

    @Override
    String kafka() {
        return "kafka:\n  bootstrap.servers: \"" + kafka.getBootstrapServers() + "\"\n";
    }
}
