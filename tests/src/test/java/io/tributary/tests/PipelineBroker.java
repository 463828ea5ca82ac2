package io.tributary.tests;

import io.tributary.broker.EmbeddedBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A fresh embedded broker for each test of a scenario, in a temporary folder deleted afterwards, and
 * the workspaces whose specs name it: {@code @RegisterExtension final PipelineBroker kafka = new PipelineBroker();}
 * then {@code kafka.workspace(dir, spec)}. It starts before the class's {@code @BeforeEach} methods.
 */
final class PipelineBroker implements BeforeEachCallback, AfterEachCallback {
    private Path dir;
    private EmbeddedBroker broker;

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        dir = Files.createTempDirectory("tributary-scenario-broker");
        broker = EmbeddedBroker.start(dir.resolve("kafka"));
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        if (broker != null) {
            broker.close();
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    String bootstrapServers() {
        return broker.bootstrapServers();
    }

    /** Client settings that reach the broker. */
    Map<String, Object> client() {
        return Map.of("bootstrap.servers", broker.bootstrapServers());
    }

    /** A workspace in {@code folder} whose spec is {@code spec} with this broker's {@code kafka.bootstrap.servers} added. */
    Workspace workspace(Path folder, String spec) {
        return new Workspace(folder, spec + "kafka:\n  bootstrap.servers: " + broker.bootstrapServers() + "\n");
    }
}
