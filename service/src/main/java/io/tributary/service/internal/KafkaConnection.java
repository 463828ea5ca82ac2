package io.tributary.service.internal;

import io.tributary.broker.EmbeddedBroker;
import io.tributary.kafka.TopicWait;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.service.spec.Settings;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka cluster a pipeline talks to: the one its spec names under {@code kafka:}
 * (every client setting passed through untouched), or else an embedded broker whose log lies in
 * the pipeline's state folder, so that successive runs share topics, transactions and offsets.
 */
public final class KafkaConnection implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaConnection.class);

    /** The state lock, if this connection took it (and so releases it); null when the caller holds it. */
    private final StateLock lock;
    private volatile EmbeddedBroker broker;
    private final Map<String, Object> clientProps;

    private KafkaConnection(StateLock lock, EmbeddedBroker broker, Map<String, Object> clientProps) {
        this.lock = lock;
        this.broker = broker;
        this.clientProps = clientProps;
    }

    /**
     * Locks the pipeline's state folder (one process per state), then connects or starts the
     * embedded broker; waits for a named cluster as a bounded command does ({@link ClusterWait}).
     */
    public static KafkaConnection open(PipelineSpec spec) {
        StateLock lock = StateLock.acquire(spec.stateDir(), spec.name());
        try {
            return connect(spec, lock, true, () -> false);
        } catch (RuntimeException e) {
            lock.close();
            throw e;
        }
    }

    /**
     * For a run: takes the state lock unless {@code options} hold it already, then connects; a
     * named cluster is waited for as long as the run's trigger says ({@link ClusterWait}).
     */
    static KafkaConnection open(PipelineSpec spec, RunOptions options) {
        StateLock lock = options.lock() != null ? options.lock() : StateLock.acquire(spec.stateDir(), spec.name());
        try {
            return connect(spec, options.lock() != null ? null : lock, spec.trigger().bounded(), options.stopRequested());
        } catch (RuntimeException e) {
            if (options.lock() == null) {
                lock.close();
            }
            throw e;
        }
    }

    private static KafkaConnection connect(PipelineSpec spec, StateLock owned, boolean bounded, java.util.function.BooleanSupplier stop) {
        NoOpRun.forget(spec.stateDir()); // the pipeline's state may change from here on: its next run may not skip the broker
        Map<String, Object> props = new HashMap<>(spec.map(Settings.KAFKA));
        if (props.containsKey("bootstrap.servers")) {
            BootstrapServers.check(String.valueOf(props.get("bootstrap.servers")));
            LOG.info("using the Kafka cluster at {}", props.get("bootstrap.servers"));
            if (bounded) {
                new ClusterWait().await(props, TopicWait.bound(props), "kafka.default.api.timeout.ms", stop);
            } else {
                new ClusterWait().await(props, Recovery.GIVE_UP_AFTER, null, stop);
            }
            return new KafkaConnection(owned, null, props);
        }
        EmbeddedBroker broker = EmbeddedBroker.start(brokerDir(spec), spec.integer(Settings.BROKER_PORT));
        props.put("bootstrap.servers", broker.bootstrapServers());
        // a new broker creates its transaction and offsets topics at the first clients' requests
        // and answers "not available" until they are loaded, some tens of milliseconds: Kafka's
        // 100 ms backoff, growing to 1 s, kept the ingest's first transaction waiting 0.5 s
        props.putIfAbsent("retry.backoff.ms", 10);
        props.putIfAbsent("retry.backoff.max.ms", 100);
        return new KafkaConnection(owned, broker, props);
    }

    /**
     * True when the pipeline runs on the embedded broker and no run has started it yet (a first run over an empty
     * folder does not): there is no topic, no progress and no offset to read.
     */
    public static boolean noBrokerYet(PipelineSpec spec) {
        return !spec.map(Settings.KAFKA).containsKey("bootstrap.servers") && !java.nio.file.Files.isDirectory(brokerDir(spec));
    }

    /** The embedded broker's log folder, in the pipeline's state folder. */
    static java.nio.file.Path brokerDir(PipelineSpec spec) {
        return spec.stateDir().resolve("kafka");
    }

    /** The client settings every stage starts from: the spec's {@code kafka:} keys plus bootstrap.servers. */
    public Map<String, Object> clientProps() {
        return Map.copyOf(clientProps);
    }

    public boolean embedded() {
        return broker != null;
    }

    /**
     * For the tests of a broker restart under a running pipeline: stops the embedded broker at once
     * (transactions open, as a broker that fails) and leaves the clients without one until {@link #startEmbeddedBroker()}.
     */
    void stopEmbeddedBroker() {
        broker.close();
    }

    /** Starts the embedded broker again on the same folder and port, after {@link #stopEmbeddedBroker()}. */
    void startEmbeddedBroker() {
        broker = EmbeddedBroker.start(broker.logDir(), broker.port());
    }

    @Override
    public void close() {
        try {
            if (broker != null) {
                broker.close();
            }
        } finally {
            if (lock != null) {
                lock.close();
            }
        }
    }
}
