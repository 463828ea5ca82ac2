package io.tributary.tests;

import io.tributary.broker.LoopbackPorts;
import io.tributary.testing.ChildProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Uuid;

/**
 * A single-node KRaft broker in a process of its own, started from the distribution's jars
 * ({@code service/target/dist/lib} holds {@code kafka.Kafka}) with Kafka's own defaults for its
 * internal topics (50 partitions of the offsets and transaction-state topics), the shape of the
 * compose stack's broker and of a real deployment: a broker the pipeline does not own.
 */
final class StandaloneBroker implements AutoCloseable {
    private static final Path LIB = io.tributary.tests.ChildProcess.LAUNCHER.getParent().getParent().resolve("lib");

    private final ChildProcess process;
    private final int port;

    private StandaloneBroker(ChildProcess process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Formats a new log folder under {@code dir} and starts the broker; returns once it answers. */
    static StandaloneBroker start(Path dir) throws IOException, InterruptedException {
        return start(dir, false);
    }

    /** As {@link #start(Path)}; {@code autoCreate}: the broker creates a topic a client asks about (auto.create.topics.enable). */
    static StandaloneBroker start(Path dir, boolean autoCreate) throws IOException, InterruptedException {
        int[] ports = LoopbackPorts.stable(2);
        int port = ports[0];
        int controller = ports[1];
        Path logs = dir.resolve("logs");
        Path config = dir.resolve("server.properties");
        Files.createDirectories(dir);
        Files.writeString(config, String.join("\n",
                "process.roles=broker,controller",
                "node.id=1",
                "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controller,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                "controller.listener.names=CONTROLLER",
                "controller.quorum.voters=1@127.0.0.1:" + controller,
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "log.dirs=" + logs,
                "offsets.topic.replication.factor=1",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                "auto.create.topics.enable=" + autoCreate) + "\n");
        Path out = dir.resolve("broker.log");
        ChildProcess format = java(List.of("kafka.tools.StorageTool", "format", "-t", Uuid.randomUuid().toString(), "-c", config.toString()), out);
        if (format.waitFor(120) != 0) {
            throw new IllegalStateException("formatting the broker's log failed:\n" + Files.readString(out));
        }
        StandaloneBroker broker = new StandaloneBroker(java(List.of("-Xmx512m", "kafka.Kafka", config.toString()), out), port);
        try {
            broker.awaitAnswer();
        } catch (RuntimeException | AssertionError e) {
            broker.close();
            throw e;
        }
        return broker;
    }

    String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    private void awaitAnswer() {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers()))) {
            // each try waits up to 2 s for an answer
            process.awaitWhileAlive("the broker to answer on " + bootstrapServers(), Duration.ofSeconds(180), Duration.ZERO, () -> {
                try {
                    admin.describeCluster(new DescribeClusterOptions().timeoutMs(2_000)).nodes().get();
                    return true;
                } catch (java.util.concurrent.ExecutionException e) {
                    return false;
                }
            });
        }
    }

    /** A java process of the distribution's jars; C1 only, as for the tests' own JVMs (pom.xml's tests.jvm). */
    private static ChildProcess java(List<String> args, Path out) throws IOException {
        List<String> cmd = new java.util.ArrayList<>(List.of(ChildProcess.java(), "-XX:TieredStopAtLevel=1", "-cp", LIB + "/*"));
        cmd.addAll(args);
        return ChildProcess.command(cmd).log(out).start();
    }

    @Override
    public void close() throws InterruptedException {
        process.stop(60);
    }
}
