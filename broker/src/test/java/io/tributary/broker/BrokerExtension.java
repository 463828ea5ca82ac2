package io.tributary.broker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The embedded broker a test class shares, in a temporary folder deleted afterwards:
 * {@code @RegisterExtension static final BrokerExtension KAFKA = new BrokerExtension();}. Shared with
 * the other modules' tests through this module's test-jar.
 */
public class BrokerExtension implements BeforeAllCallback, AfterAllCallback {
    private Path dir;
    private EmbeddedBroker broker;

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        dir = Files.createTempDirectory("tributary-it-broker");
        broker = EmbeddedBroker.start(dir.resolve("kafka"));
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (broker != null) {
            broker.close();
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    public EmbeddedBroker broker() {
        return broker;
    }

    /** Client settings that reach the broker. */
    public Map<String, Object> client() {
        return Map.of("bootstrap.servers", broker.bootstrapServers());
    }
}
