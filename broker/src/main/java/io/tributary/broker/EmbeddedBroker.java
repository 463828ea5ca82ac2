package io.tributary.broker;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Apache Kafka broker in KRaft mode (broker and controller in one), running
 * inside this JVM with its log under a folder of ours. Used when a pipeline names no
 * {@code bootstrap.servers}, and by the tests. The folder is formatted once; later starts reuse
 * its topics, transactions and committed offsets. Ports are chosen anew at every start (static
 * voters allow it), on 127.0.0.1 only.
 */
public final class EmbeddedBroker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedBroker.class);
    /** Written by the broker's log manager at a clean stop, removed at start: absent, the last run died. */
    static final String CLEAN_SHUTDOWN_FILE = ".kafka_cleanshutdown";

    static {
        // Kafka calls the Log4j API in a few places; without log4j-core it complains once at start.
        // Its own simple logger (errors only, to stderr) keeps that quiet; everything else goes to SLF4J.
        if (System.getProperty("log4j2.loggerContextFactory") == null) {
            System.setProperty("log4j2.loggerContextFactory", "org.apache.logging.log4j.simple.SimpleLoggerContextFactory");
        }
    }

    private final Path logDir;
    private final KafkaRaftServer server;
    private final String bootstrapServers;

    private EmbeddedBroker(Path logDir, KafkaRaftServer server, String bootstrapServers) {
        this.logDir = logDir;
        this.server = server;
        this.bootstrapServers = bootstrapServers;
    }

    /** Formats {@code logDir} if it is new, starts the broker and returns once it takes clients. */
    public static EmbeddedBroker start(Path logDir) {
        return start(logDir, 0);
    }

    /** As {@link #start(Path)}, on a fixed client port (0 for any free one). */
    public static EmbeddedBroker start(Path logDir, int port) {
        long t0 = System.nanoTime();
        try {
            Files.createDirectories(logDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the embedded broker's folder " + logDir, e);
        }
        if (!Files.exists(logDir.resolve("meta.properties"))) {
            format(logDir);
        } else {
            // the node stops without a controlled shutdown (see config), so every later start, as one
            // after a crash, must not let the coordinator act on the last run's leadership
            AfterCrash.fenceTheDeadBroker(logDir);
        }
        // free ports are picked before the broker binds them: another process may take one in between
        for (int attempt = 1; ; attempt++) {
            int brokerPort = port > 0 ? port : LoopbackPorts.stable(1)[0]; // kept when it starts again
            int controllerPort = freePort();
            while (controllerPort == brokerPort) { // each free port is released before the next is asked for: the same may come back
                controllerPort = freePort();
            }
            KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(config(logDir, brokerPort, controllerPort), false), Time.SYSTEM);
            try {
                server.startup();
            } catch (RuntimeException e) {
                server.shutdown();
                server.awaitShutdown();
                if (attempt < 3 && portTaken(e)) {
                    LOG.info("embedded Kafka broker: a port was taken meanwhile; trying other ports");
                    continue;
                }
                throw e;
            }
            String bootstrap = "127.0.0.1:" + brokerPort;
            LOG.info("embedded Kafka broker ready on {} (log {}) in {} ms", bootstrap, logDir, (System.nanoTime() - t0) / 1_000_000);
            return new EmbeddedBroker(logDir, server, bootstrap);
        }
    }

    static boolean portTaken(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.net.BindException || String.valueOf(t.getMessage()).contains("Address already in use")) {
                return true;
            }
        }
        return false;
    }

    static Map<String, Object> config(Path logDir, int brokerPort, int controllerPort) {
        Map<String, Object> p = new HashMap<>();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("log.dirs", logDir.toString());
        p.put("metadata.log.dir", logDir.toString());
        // a single node: every internal topic with one replica, or transactions and groups time out
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "1");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("default.replication.factor", "1");
        p.put("min.insync.replicas", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("num.partitions", "1");
        p.put("auto.create.topics.enable", "false");
        p.put("log.cleaner.dedupe.buffer.size", String.valueOf(2 * 1024 * 1024));
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "2");
        p.put("background.threads", "2");
        p.put("log.flush.interval.messages", String.valueOf(Long.MAX_VALUE));
        // broker.session.timeout.ms stays Kafka's 9 s: a restart does not wait for it (AfterCrash
        // fences the dead registration with a controller of its own), and a shorter one can fence this live broker
        // when a loaded machine delays a heartbeat: its partitions go leaderless, and the transaction coordinator then
        // drops the commit markers it is writing (a transaction left open for good, see AfterCrash)
        // transactions of a crashed producer are aborted sooner than the 60 s default
        p.put("transaction.abort.timed.out.transaction.cleanup.interval.ms", "2000");
        // a single node has no one to hand its partitions to: a controlled shutdown only leaves them leaderless while
        // the transaction coordinator still runs, and Kafka 4.4's coordinator takes a leaderless partition for a
        // deleted one and drops the commit or abort markers it owes it (a transaction then left open for good, its
        // coordinator's decision lost). Stopped without one, the next start fences the registration first (AfterCrash)
        p.put("controlled.shutdown.enable", "false");
        withoutJmx(p);
        return p;
    }

    /**
     * The broker's metrics stay out of JMX: nothing reads them there, and registering an MBean for
     * each of the hundreds of request metrics was a tenth of the broker's start.
     */
    static void withoutJmx(Map<String, Object> p) {
        p.put("metrics.jmx.exclude", ".*");
        p.put("metric.reporters", "");
    }

    private static void format(Path logDir) {
        try {
            new Formatter()
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                    .setClusterId(Uuid.randomUuid().toString())
                    .setNodeId(1)
                    .setDirectories(Set.of(logDir.toString()))
                    .setMetadataLogDirectory(logDir.toString())
                    .setControllerListenerName("CONTROLLER")
                    .setReleaseVersion(MetadataVersion.latestProduction())
                    .run();
        } catch (Exception e) {
            throw new IllegalStateException("cannot format the embedded broker's folder " + logDir + ": " + e.getMessage(), e);
        }
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1", e);
        }
    }

    /** {@code 127.0.0.1:port}, for the clients' {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** The client port on 127.0.0.1. */
    public int port() {
        return Integer.parseInt(bootstrapServers.substring(bootstrapServers.lastIndexOf(':') + 1));
    }

    public Path logDir() {
        return logDir;
    }

    /**
     * Stops the broker, transactions open or not (their markers are written after the next start),
     * and waits until it has. The folder stays for the next start.
     */
    @Override
    public void close() {
        try (ShutdownNudge nudge = ShutdownNudge.start()) {
            server.shutdown();
            server.awaitShutdown();
        }
        LOG.info("embedded Kafka broker stopped ({})", logDir);
    }
}
