package io.tributary.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.utils.Time;

/** One node of a {@link BrokerCluster}: in this JVM, or a process of its own. */
abstract class ClusterNode {
    private static final long START_TIMEOUT_MS = 180_000;

    final int id;
    private final int port;
    final Map<String, Object> config;

    ClusterNode(int id, int port, Map<String, Object> config) {
        this.id = id;
        this.port = port;
        this.config = config;
    }

    int port() {
        return port;
    }

    abstract void start();

    abstract void stop();

    abstract boolean running();

    void kill() {
        throw new UnsupportedOperationException("node " + id + " runs inside this JVM: only a cluster of processes can be killed");
    }

    /**
     * The first half of the whole cluster's stop, run on every node at once: the broker part stops,
     * giving up its controlled shutdown after a few seconds (the last nodes' would wait minutes for
     * a quorum that is gone). {@link #stop()} then stops the rest.
     */
    void stopBroker() {
    }

    /** A node in this JVM. */
    static final class InJvm extends ClusterNode {
        private KafkaRaftServer server;

        InJvm(int id, int port, Map<String, Object> config) {
            super(id, port, config);
        }

        @Override
        synchronized void start() {
            if (server != null) {
                throw new IllegalStateException("node " + id + " runs already");
            }
            KafkaRaftServer s = new KafkaRaftServer(new KafkaConfig(config, false), Time.SYSTEM);
            try {
                s.startup(); // returns once the broker is registered and unfenced
            } catch (RuntimeException e) {
                s.shutdown();
                s.awaitShutdown();
                throw e;
            }
            server = s;
        }

        @Override
        synchronized void stop() {
            if (server != null) {
                server.shutdown();
                server.awaitShutdown();
                server = null;
            }
        }

        @Override
        synchronized void stopBroker() {
            if (server == null) {
                return;
            }
            try {
                java.lang.reflect.Field f = KafkaRaftServer.class.getDeclaredField("broker"); // KafkaRaftServer keeps it private
                f.setAccessible(true);
                scala.Option<?> broker = (scala.Option<?>) f.get(server);
                if (broker.isDefined()) {
                    ((kafka.server.BrokerServer) broker.get()).shutdown(java.time.Duration.ofSeconds(5));
                }
            } catch (ReflectiveOperationException | ClassCastException e) {
                // the whole stop below does it, with Kafka's own wait
            }
        }

        @Override
        synchronized boolean running() {
            return server != null;
        }
    }

    /** A node in a {@code java} process of its own ({@code kafka.Kafka}, the broker's own main). */
    static final class Child extends ClusterNode {
        private final Path log;
        private final String classpath;
        private Process process;

        Child(int id, int port, Map<String, Object> config, Path log, String classpath) {
            super(id, port, config);
            this.log = log;
            this.classpath = classpath;
        }

        @Override
        synchronized void start() {
            if (process != null && process.isAlive()) {
                throw new IllegalStateException("node " + id + " runs already");
            }
            try {
                Path props = log.resolveSibling("node-" + id + ".properties");
                List<String> lines = new ArrayList<>();
                config.forEach((k, v) -> lines.add(k + "=" + v));
                Files.write(props, lines);
                List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        // a test's node lives for minutes: C1 only, as C2 would spend more CPU compiling than it saves
                        "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", classpath, "kafka.Kafka", props.toString());
                process = new ProcessBuilder(cmd).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start node " + id + " of the Kafka cluster", e);
            }
            awaitUnfenced();
        }

        /** Waits until the node itself says it is a live (registered, unfenced) broker of the cluster. */
        private void awaitUnfenced() {
            long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", "127.0.0.1:" + port()))) {
                while (true) {
                    if (!process.isAlive()) {
                        throw new IllegalStateException("node " + id + " of the Kafka cluster ended at start; its log: " + log);
                    }
                    try {
                        List<Node> live = new ArrayList<>(admin.describeCluster(new DescribeClusterOptions().timeoutMs(2_000)).nodes()
                                .get(3, TimeUnit.SECONDS));
                        if (live.stream().anyMatch(n -> n.id() == id)) {
                            return;
                        }
                    } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                        // not answering yet
                    }
                    if (System.currentTimeMillis() > deadline) {
                        throw new IllegalStateException("node " + id + " of the Kafka cluster did not start within "
                                + START_TIMEOUT_MS / 1000 + " s; its log: " + log);
                    }
                    Thread.sleep(200);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while node " + id + " started", e);
            }
        }

        @Override
        synchronized void stop() {
            if (process == null) {
                return;
            }
            process.destroy(); // SIGTERM: Kafka's shutdown hook runs a controlled shutdown
            try {
                if (!process.waitFor(120, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process = null;
        }

        /** At the cluster's end its processes are killed: no data of a test's cluster outlives it. */
        @Override
        void stopBroker() {
            kill();
        }

        @Override
        synchronized void kill() {
            if (process == null) {
                return;
            }
            process.destroyForcibly();
            try {
                process.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process = null;
        }

        @Override
        synchronized boolean running() {
            return process != null && process.isAlive();
        }
    }
}
