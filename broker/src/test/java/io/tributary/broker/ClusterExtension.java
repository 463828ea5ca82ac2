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
 * A Kafka cluster of three nodes ({@link BrokerCluster}: every topic with 3 replicas,
 * {@code min.insync.replicas} 2) that a test class shares, in a temporary folder deleted afterwards:
 * {@code @RegisterExtension static final ClusterExtension KAFKA = ClusterExtension.inJvm();}. Shared
 * with the other modules' tests through this module's test-jar.
 */
public final class ClusterExtension implements BeforeAllCallback, AfterAllCallback {
    private final boolean processes;
    private Path dir;
    private BrokerCluster cluster;

    private ClusterExtension(boolean processes) {
        this.processes = processes;
    }

    /** Three nodes inside the test's JVM: they can be stopped and started, not killed. */
    public static ClusterExtension inJvm() {
        return new ClusterExtension(false);
    }

    /** Three nodes, each a process of its own started with the test's class path: {@link BrokerCluster#kill} works. */
    public static ClusterExtension processes() {
        return new ClusterExtension(true);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        dir = Files.createTempDirectory("tributary-it-cluster");
        cluster = processes ? BrokerCluster.startProcesses(dir, 3, null) : BrokerCluster.start(dir, 3);
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (cluster != null) {
            cluster.close();
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    public BrokerCluster cluster() {
        return cluster;
    }

    /** Client settings that reach the cluster. */
    public Map<String, Object> client() {
        return Map.of("bootstrap.servers", cluster.bootstrapServers());
    }
}
