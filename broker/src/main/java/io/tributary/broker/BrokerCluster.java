package io.tributary.broker;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Kafka cluster of several KRaft nodes (each broker and controller in one, a static quorum
 * of all of them) on 127.0.0.1, for the tests of what a production cluster does: every topic with
 * three replicas and {@code min.insync.replicas} 2, so one node may stop (cleanly or killed)
 * while producers with {@code acks=all}, transactions and consumer groups go on.
 *
 * <p>The nodes run inside this JVM ({@link #start}) or each in a process of its own
 * ({@link #startProcesses}), which {@link #kill} can SIGKILL. A node keeps its ports and its
 * folder for the cluster's life, so that it can be stopped and started again.
 */
public final class BrokerCluster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerCluster.class);
    /** Replicas of every topic (and of the offsets and transaction-state topics) when the cluster has at least 3 nodes. */
    public static final int REPLICATION = 3;
    public static final int MIN_IN_SYNC = 2;

    private final List<ClusterNode> nodes;

    private BrokerCluster(List<ClusterNode> nodes) {
        this.nodes = nodes;
    }

    /** Starts {@code size} nodes in this JVM, formatting their folders under {@code dir} if they are new. */
    public static BrokerCluster start(Path dir, int size) {
        return start(dir, size, null);
    }

    /**
     * As {@link #start}, each node in a {@code java} process of its own started with
     * {@code classpath} (Kafka's jars, e.g. the distribution's {@code lib/*}); null: this JVM's class path.
     */
    public static BrokerCluster startProcesses(Path dir, int size, String classpath) {
        return start(dir, size, classpath == null ? System.getProperty("java.class.path") : classpath);
    }

    private static BrokerCluster start(Path dir, int size, String classpath) {
        if (size < 1) {
            throw new IllegalArgumentException("a cluster needs at least one node");
        }
        long t0 = System.nanoTime();
        int[] ports = LoopbackPorts.stable(2 * size); // a node comes back on its ports
        String voters = java.util.stream.IntStream.rangeClosed(1, size)
                .mapToObj(i -> i + "@127.0.0.1:" + ports[size + i - 1]).collect(Collectors.joining(","));
        String clusterId = Uuid.randomUuid().toString();
        List<ClusterNode> nodes = new ArrayList<>();
        for (int id = 1; id <= size; id++) {
            Path logDir = dir.resolve("node-" + id);
            Map<String, Object> config = config(id, size, ports[id - 1], ports[size + id - 1], voters, logDir);
            format(logDir, clusterId, id);
            nodes.add(classpath == null ? new ClusterNode.InJvm(id, ports[id - 1], config)
                    : new ClusterNode.Child(id, ports[id - 1], config, dir.resolve("node-" + id + ".log"), classpath));
        }
        BrokerCluster cluster = new BrokerCluster(nodes);
        try {
            cluster.startAll();
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
        LOG.info("Kafka cluster of {} nodes ready on {} in {} ms", size, cluster.bootstrapServers(), (System.nanoTime() - t0) / 1_000_000);
        return cluster;
    }

    /** A static quorum cannot elect a controller until a majority runs: the nodes start together. */
    private void startAll() {
        ExecutorService threads = Executors.newFixedThreadPool(nodes.size());
        try {
            List<Future<?>> started = new ArrayList<>();
            for (ClusterNode n : nodes) {
                started.add(threads.submit(n::start));
            }
            for (Future<?> f : started) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the cluster started", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } finally {
            threads.shutdown();
        }
    }

    static Map<String, Object> config(int id, int size, int brokerPort, int controllerPort, String voters, Path logDir) {
        int replicas = Math.min(REPLICATION, size);
        int minIsr = Math.min(MIN_IN_SYNC, replicas);
        Map<String, Object> p = new HashMap<>();
        p.put("process.roles", "broker,controller");
        p.put("node.id", String.valueOf(id));
        p.put("controller.quorum.voters", voters);
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("log.dirs", logDir.toString());
        p.put("metadata.log.dir", logDir.toString());
        p.put("offsets.topic.replication.factor", String.valueOf(replicas));
        p.put("transaction.state.log.replication.factor", String.valueOf(replicas));
        p.put("transaction.state.log.min.isr", String.valueOf(minIsr));
        p.put("share.coordinator.state.topic.replication.factor", String.valueOf(replicas));
        p.put("share.coordinator.state.topic.min.isr", String.valueOf(minIsr));
        p.put("default.replication.factor", String.valueOf(replicas));
        p.put("min.insync.replicas", String.valueOf(minIsr));
        // fewer partitions of the internal topics than Kafka's 50: a test machine creates them in a moment
        p.put("offsets.topic.num.partitions", "5");
        p.put("transaction.state.log.num.partitions", "5");
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("num.partitions", "1");
        p.put("auto.create.topics.enable", "false");
        p.put("log.cleaner.dedupe.buffer.size", String.valueOf(2 * 1024 * 1024));
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "2");
        p.put("background.threads", "2");
        p.put("num.replica.fetchers", "1");
        p.put("transaction.abort.timed.out.transaction.cleanup.interval.ms", "2000");
        // a node started again registers only once the controller has fenced its last registration (the session
        // timed out): 4 s instead of Kafka's 9 s, so a restart takes about 4 s, and a killed node's leaderships move as soon
        p.put("broker.session.timeout.ms", "4000");
        p.put("broker.heartbeat.interval.ms", "1000");
        return p;
    }

    private static void format(Path logDir, String clusterId, int id) {
        if (Files.exists(logDir.resolve("meta.properties"))) {
            return;
        }
        try {
            Files.createDirectories(logDir);
            new Formatter()
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                    .setClusterId(clusterId)
                    .setNodeId(id)
                    .setDirectories(Set.of(logDir.toString()))
                    .setMetadataLogDirectory(logDir.toString())
                    .setControllerListenerName("CONTROLLER")
                    .setReleaseVersion(MetadataVersion.latestProduction())
                    .run();
        } catch (Exception e) {
            throw new IllegalStateException("cannot format node " + id + "'s folder " + logDir + ": " + e.getMessage(), e);
        }
    }

    /** Every node's client address, for {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return nodes.stream().map(n -> "127.0.0.1:" + n.port()).collect(Collectors.joining(","));
    }

    public int size() {
        return nodes.size();
    }

    /** Node {@code id}'s client address (ids from 1). */
    public String address(int id) {
        return "127.0.0.1:" + node(id).port();
    }

    /** Stops node {@code id} cleanly (controlled shutdown: its leaderships move first) and waits until it has. */
    public void stop(int id) {
        node(id).stop();
        LOG.info("Kafka cluster: node {} stopped", id);
    }

    /** Kills node {@code id}'s process (SIGKILL), as a crash; only for a cluster of {@link #startProcesses processes}. */
    public void kill(int id) {
        node(id).kill();
        LOG.info("Kafka cluster: node {} killed", id);
    }

    /** Starts node {@code id} again on its folder and ports; returns once it takes clients. */
    public void start(int id) {
        node(id).start();
        LOG.info("Kafka cluster: node {} started again", id);
    }

    public boolean running(int id) {
        return node(id).running();
    }

    private ClusterNode node(int id) {
        if (id < 1 || id > nodes.size()) {
            throw new IllegalArgumentException("no node " + id + " in a cluster of " + nodes.size());
        }
        return nodes.get(id - 1);
    }

    /**
     * Stops every node: the brokers first, all at once, then the controllers (a node stopped alone
     * while a quorum remains waits for it; the last ones would not find one).
     */
    @Override
    public void close() {
        onEveryNode(ClusterNode::stopBroker);
        onEveryNode(n -> {
            if (n.running()) {
                n.stop();
            }
        });
    }

    private void onEveryNode(java.util.function.Consumer<ClusterNode> action) {
        ExecutorService threads = Executors.newFixedThreadPool(nodes.size());
        try {
            List<Future<?>> done = new ArrayList<>();
            for (ClusterNode n : nodes) {
                done.add(threads.submit(() -> action.accept(n)));
            }
            for (Future<?> f : done) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    LOG.warn("Kafka cluster: a node did not stop cleanly: {}", e.getCause().toString());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            threads.shutdownNow();
        }
    }
}
