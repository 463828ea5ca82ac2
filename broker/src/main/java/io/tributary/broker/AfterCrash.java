package io.tributary.broker;

import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import kafka.server.ControllerServer;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.BrokerRegistration;
import org.apache.kafka.metadata.KRaftMetadataCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every start on an existing folder: before the broker starts, the controller alone runs until
 * it has fenced the last run's broker registration (the node stops without a controlled
 * shutdown, as a run that died does: see {@link EmbeddedBroker}'s config).
 *
 * <p>Why: the metadata log of such a run still names this node the live leader of every
 * partition. Started as is, the broker first acts on that stale leadership: its transaction
 * coordinator loads {@code __transaction_state} and starts sending the commit markers of a
 * transaction the dead run had prepared (its {@code commitTransaction()} returned). Moments later
 * the controller fences the old registration and every partition is briefly leaderless; the
 * coordinator's marker sender takes "no leader" for "partition deleted", drops the markers and,
 * when it still leads the transaction log at that instant, writes the transaction complete. The
 * transaction then stays open on the data partitions for good (a hanging transaction: the
 * read_committed end never moves again), although the coordinator committed it. Seen in 3 of 4
 * restarts after {@code ingest.afterCommit} (Kafka 4.4.0, transaction.version 2).
 *
 * <p>Fenced first, the node starts with no leadership: the coordinator loads the transaction log
 * only once the controller has made the new broker leader again, when every marker finds its
 * partition. This costs the controller's start plus its broker session timeout (100 ms), under a
 * second; started without it, the broker would wait out the old registration's session (9 s).
 */
final class AfterCrash {
    private static final Logger LOG = LoggerFactory.getLogger(AfterCrash.class);
    private static final int NODE_ID = 1;
    private static final long MAX_WAIT_MS = 30_000;

    private AfterCrash() {
    }

    static void fenceTheDeadBroker(Path logDir) {
        long t0 = System.nanoTime();
        KafkaRaftServer controller = startController(logDir);
        try {
            KRaftMetadataCache metadata = metadataOf(controller);
            long deadline = System.nanoTime() + MAX_WAIT_MS * 1_000_000;
            while (!deadBrokerFenced(metadata)) {
                if (System.nanoTime() > deadline) {
                    LOG.warn("embedded Kafka broker: the controller did not fence the crashed run's broker within {} s;"
                            + " starting anyway", MAX_WAIT_MS / 1000);
                    return;
                }
                Thread.sleep(10);
            }
            LOG.info("embedded Kafka broker: the last run's broker registration fenced in {} ms",
                    (System.nanoTime() - t0) / 1_000_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the embedded controller fenced the crashed broker", e);
        } finally {
            try (ShutdownNudge nudge = ShutdownNudge.start()) {
                controller.shutdown();
                controller.awaitShutdown();
            }
        }
    }

    private static boolean deadBrokerFenced(KRaftMetadataCache metadata) {
        if (metadata.currentImage().isEmpty()) {
            return false; // the controller has not loaded its log yet
        }
        BrokerRegistration broker = metadata.currentImage().cluster().broker(NODE_ID);
        return broker == null || broker.fenced();
    }

    private static KafkaRaftServer startController(Path logDir) {
        for (int attempt = 1; ; attempt++) {
            KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(config(logDir, EmbeddedBroker.freePort()), false), Time.SYSTEM);
            try {
                server.startup();
                return server;
            } catch (RuntimeException e) {
                server.shutdown();
                server.awaitShutdown();
                if (attempt < 3 && EmbeddedBroker.portTaken(e)) {
                    continue;
                }
                throw e;
            }
        }
    }

    static Map<String, Object> config(Path logDir, int controllerPort) {
        Map<String, Object> p = new HashMap<>();
        p.put("process.roles", "controller");
        p.put("node.id", String.valueOf(NODE_ID));
        p.put("controller.quorum.voters", NODE_ID + "@127.0.0.1:" + controllerPort);
        p.put("listeners", "CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("listener.security.protocol.map", "CONTROLLER:PLAINTEXT");
        p.put("log.dirs", logDir.toString());
        p.put("metadata.log.dir", logDir.toString());
        p.put("num.network.threads", "1");
        p.put("num.io.threads", "1");
        p.put("background.threads", "1");
        // no broker runs now, so none can heartbeat: the dead run's registration is fenced once this passes after the
        // controller's activation, and nothing live can be fenced by a short one (500 ms made a restart 0.4 to 0.8 s longer)
        p.put("broker.session.timeout.ms", "100");
        p.put("broker.heartbeat.interval.ms", "20");
        EmbeddedBroker.withoutJmx(p);
        return p;
    }

    /** The controller's view of the metadata; KafkaRaftServer keeps its ControllerServer private. */
    private static KRaftMetadataCache metadataOf(KafkaRaftServer server) {
        try {
            Field f = KafkaRaftServer.class.getDeclaredField("controller");
            f.setAccessible(true);
            scala.Option<?> controller = (scala.Option<?>) f.get(server);
            return ((ControllerServer) controller.get()).metadataCache();
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalStateException("cannot read the embedded controller's metadata (Kafka's KafkaRaftServer changed?)", e);
        }
    }
}
