package io.tributary.ingest;

import io.tributary.broker.EmbeddedBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** The embedded broker a test class shares: {@code @RegisterExtension static final SharedBroker KAFKA = new SharedBroker();}. */
final class SharedBroker implements BeforeAllCallback, AfterAllCallback {
    private Path dir;
    private EmbeddedBroker broker;

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        dir = Files.createTempDirectory("tributary-ingest-it");
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

    EmbeddedBroker broker() {
        return broker;
    }
}
