package io.tributary.tests;

import org.junit.jupiter.api.Tag;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;

/**
 * The quickstart scenarios against Kafka in a container, where a container engine serves the
 * Docker API ({@code -Pcontainers}, which {@code .ci/run} enables once it runs Podman); skipped,
 * saying so, where none does.
 */
@Tag("containers")
@Testcontainers(disabledWithoutDocker = true)
class QuickstartTestcontainersTest extends QuickstartScenarios {
    @Container
    final KafkaContainer kafka = ContainerImages.onLoopback(new KafkaContainer(ContainerImages.kafka()));

    @Override
    String kafka() {
        return "kafka:\n  bootstrap.servers: \"" + kafka.getBootstrapServers() + "\"\n";
    }
}
