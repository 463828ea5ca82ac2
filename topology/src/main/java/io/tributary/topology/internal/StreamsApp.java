package io.tributary.topology.internal;

import io.tributary.schema.TributaryException;
import java.time.Duration;
import java.util.Deque;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.MissingSourceTopicException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The aggregation's Kafka Streams application over its life in the process: made, started,
 * started again after Kafka errors killed its stream thread, closed.
 */
public final class StreamsApp implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StreamsApp.class);
    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);
    /** The most restarts after Kafka errors within the restart window. */
    static final int MAX_RESTARTS = 20;

    private final String applicationId;
    private final Supplier<Topology> topology;
    private final Properties props;
    private final Duration restartWindow;
    /** Leave the group on close: one of several instances, whose tasks the others take at once rather than after the session timeout. */
    private final boolean leaveGroupOnClose;
    private volatile KafkaStreams streams;
    /** Set by a stream thread that Kafka errors killed: {@link #restartIfKilled()} starts the application again. */
    private volatile boolean restartAfterKafkaError;
    /** The topology's own error that stopped a stream thread (a HAVING that failed on a group ...), or null. */
    private volatile TributaryException failure;
    /** When the application was started again after Kafka errors (nanoTime), for {@link #MAX_RESTARTS}. */
    private final Deque<Long> restarts = new ConcurrentLinkedDeque<>();
    /** A Kafka source's changelogs, or null. */
    private final SourceChangelogs sourceChangelogs;

    /** The application's state as Kafka Streams names it (RUNNING, REBALANCING ...), for the log. */
    public String stateName() {
        KafkaStreams s = streams;
        return s == null ? "not started" : s.state().name();
    }

    /** Makes the application; it starts with {@link #start()}. */
    public StreamsApp(String applicationId, Supplier<Topology> topology, Properties props, Duration restartWindow) {
        this(applicationId, topology, props, restartWindow, false);
    }

    /**
     * Makes the application; it starts with {@link #start()}.
     *
     * @param leaveGroupOnClose true for a static member that shares the tasks with other instances:
     *     closing leaves the group so that the others take its tasks at once (a static member that
     *     only stops keeps them for the session timeout)
     */
    public StreamsApp(String applicationId, Supplier<Topology> topology, Properties props, Duration restartWindow,
                      boolean leaveGroupOnClose) {
        this(applicationId, topology, props, restartWindow, leaveGroupOnClose, null);
    }

    /**
     * Makes the application over a Kafka source; it starts with {@link #start()}.
     *
     * @param sourceChangelogs the changelogs of the sub-topology that reads the source: a stream thread that stops because
     *     a partition added to the source made more tasks than they have partitions grows them, and the application starts again
     */
    public StreamsApp(String applicationId, Supplier<Topology> topology, Properties props, Duration restartWindow,
                      boolean leaveGroupOnClose, SourceChangelogs sourceChangelogs) {
        this.sourceChangelogs = sourceChangelogs;
        this.applicationId = applicationId;
        this.topology = topology;
        this.props = props;
        this.restartWindow = restartWindow;
        this.leaveGroupOnClose = leaveGroupOnClose;
        this.streams = create();
    }

    private KafkaStreams create() {
        String stateDir = props.getProperty(StreamsConfig.STATE_DIR_CONFIG);
        if (stateDir != null) {
            // two stages of one pipeline (deduplication, then an aggregation) share the folder and open at once;
            // Kafka Streams' own mkdirs fails for the one that loses the race to create it
            try {
                java.nio.file.Files.createDirectories(java.nio.file.Path.of(stateDir));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        // a Kafka source's partition that parks too many records past its batch's bounds, or that no batch knows yet, is
        // paused (ParkedBacklog, UnknownPartitions); a thread whose commit timed out stops instead of reviving its tasks
        // with the same producer (CommitTimeouts)
        KafkaStreams s = new KafkaStreams(topology.get(), props, new ParkingClientSupplier(applicationId));
        s.setUncaughtExceptionHandler(this::onThreadError);
        return s;
    }

    /**
     * Starts the application and waits until it has joined its group. After a crash that can take a
     * while: under exactly-once, Kafka Streams wipes the local state and restores it from the
     * changelogs; the batches then wait for it to catch up.
     */
    public void start() {
        streams.start();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (streams.state() != KafkaStreams.State.RUNNING && System.nanoTime() < deadline) {
            if (streams.state() == KafkaStreams.State.ERROR || streams.state() == KafkaStreams.State.NOT_RUNNING
                    || streams.state() == KafkaStreams.State.PENDING_ERROR) {
                // the topology's own error (a HAVING failing on the first group it closes) before RUNNING: that error
                throw failure != null ? TopologyErrors.stopped(applicationId, streams.state(), failure)
                        : TopologyErrors.didNotStart(applicationId, streams.state());
            }
            sleep(50);
        }
    }

    /**
     * Starts the application again if Kafka errors killed its stream thread. The new instance keeps
     * the process id (Kafka Streams stores it in the state directory) and so the thread's
     * transactional id: its producer's {@code initTransactions()} aborts the transaction the dead
     * thread left open at once (a replaced thread would take a new id and leave that transaction
     * to the broker's timeout, 60 s, blocking the group's committed offsets meanwhile).
     *
     * @return true when it started again: its counters are the new instance's, from zero (those the
     *     dead thread's tasks held went with them)
     */
    public boolean restartIfKilled() {
        if (restartAfterKafkaError && (streams.state() == KafkaStreams.State.ERROR || streams.state() == KafkaStreams.State.NOT_RUNNING)) {
            restart("its stream thread stopped (see above)");
            return true;
        }
        return false;
    }

    /**
     * Closes the application and starts a new instance of it, which keeps the process id and so the
     * transactional ids, as {@link #restartIfKilled()} does. Also for a stream thread that is still
     * alive after Kafka did not answer for a while: one whose commit timed out gives its tasks up as
     * corrupted and restores them from the changelogs, which its own open transaction holds back (a
     * read_committed reader stops at it), until the broker aborts that transaction at its timeout
     * (60 s). The new instance's producer aborts it at once.
     *
     * @param why for the log: why the application starts again
     */
    public void restart(String why) {
        streams.close(Duration.ofSeconds(30));
        restartAfterKafkaError = false; // a thread that failed is gone with the instance closed
        LOG.info("the aggregation (Kafka Streams application {}) starts again: {}", applicationId, why);
        KafkaStreams s = create();
        s.start();
        streams = s;
    }

    /** Throws when the application stopped for good (not running, rebalancing, being made or about to start again). */
    public void requireAlive() {
        KafkaStreams.State state = streams.state();
        if (state != KafkaStreams.State.RUNNING && state != KafkaStreams.State.REBALANCING
                && !restartAfterKafkaError && state != KafkaStreams.State.CREATED) {
            throw TopologyErrors.stopped(applicationId, state, failure);
        }
    }

    /** The application's metrics, those of the topology ({@code AggregateMetrics}) among them. */
    public Map<MetricName, ? extends Metric> metrics() {
        return streams.metrics();
    }

    /** This instance's tasks, with the partitions of {@code topic} its active tasks read. */
    public LocalTasks localTasks(String topic) {
        return LocalTasks.of(streams.metadataForLocalThreads(), topic);
    }

    /** This instance's tasks, with the partitions of the topics {@code topics} accepts that its active tasks read. */
    public LocalTasks localTasks(Predicate<String> topics) {
        return LocalTasks.of(streams.metadataForLocalThreads(), topics);
    }

    /**
     * A stream thread died. When Kafka was the trouble (the broker unreachable long enough for a
     * send, a commit or an abort to time out, which leaves the thread's transactional producer in
     * an error state that Kafka Streams 4.4 does not recover from), the application stops and
     * {@link #restartIfKilled()} starts it again: its open transaction is aborted and its tasks
     * restored from the changelogs, so exactly-once holds. At most {@link #MAX_RESTARTS} times in
     * the restart window, and never for an error of the topology itself: those stop the
     * aggregation for good.
     */
    private StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse onThreadError(Throwable e) {
        long now = System.nanoTime();
        restarts.removeIf(t -> now - t > restartWindow.toNanos());
        if (restarts.size() < MAX_RESTARTS && sourceChangelogs != null && sourceChangelogs.refusedBy(e) && grownSourceChangelogs(e)) {
            restarts.add(now);
            restartAfterKafkaError = true;
            LOG.info("the aggregation's stream thread stopped at the tasks of partitions added to its source ({}): it starts"
                    + " again with them", rootMessage(e));
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        }
        if (kafkaTrouble(e) && restarts.size() < MAX_RESTARTS) {
            restarts.add(now);
            restartAfterKafkaError = true;
            LOG.warn("the aggregation's stream thread failed ({}); Kafka may be unreachable: the aggregation starts again"
                    + " (its transaction is aborted, its tasks restored from the changelogs)", rootMessage(e));
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        }
        for (Throwable c = e; c != null && failure == null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof TributaryException t) {
                failure = t;
            }
        }
        LOG.error("the aggregation stopped: {}", failure != null ? failure.getMessage() : e.toString(), e);
        return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
    }

    /**
     * True when the deepest cause is a Kafka client error that may pass (a timeout, a lost
     * connection, a transaction left to abort, a producer whose abort timed out, a rebalance that
     * did not yet see the events topic), not a failure of the topology's own code nor a
     * refusal (authorization, serialization, an unsupported version, a bad configuration).
     */
    /** Grows the source's changelogs (the batches may have grown them already); false when that failed. */
    private boolean grownSourceChangelogs(Throwable e) {
        try {
            sourceChangelogs.grow();
            return true;
        } catch (RuntimeException grow) {
            LOG.warn("could not grow the changelog topics of the source's tasks after {}: {}", rootMessage(e), grow.getMessage());
            return false;
        }
    }

    public static boolean kafkaTrouble(Throwable e) {
        Throwable root = root(e);
        if (root instanceof org.apache.kafka.common.errors.RetriableException || root instanceof MissingSourceTopicException) {
            // the second: a rebalance on metadata older than the events topic, which the stage saw before it started
            return true;
        }
        StackTraceElement[] at = root.getStackTrace();
        if (root instanceof IllegalStateException && at.length > 0 && at[0].getClassName().startsWith("org.apache.kafka.clients.producer.")) {
            // the thread's producer refuses to go on: "the previous call to abortTransaction timed out and must be retried"
            return true;
        }
        return root instanceof KafkaException && !(root instanceof org.apache.kafka.streams.errors.StreamsException)
                && !(root instanceof org.apache.kafka.common.errors.AuthenticationException)
                && !(root instanceof org.apache.kafka.common.errors.AuthorizationException)
                && !(root instanceof org.apache.kafka.common.errors.SerializationException)
                && !(root instanceof org.apache.kafka.common.errors.UnsupportedVersionException)
                && !(root instanceof org.apache.kafka.common.config.ConfigException);
    }

    private static Throwable root(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    private static String rootMessage(Throwable e) {
        Throwable root = root(e);
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw TopologyErrors.interrupted(e);
        }
    }

    /** Closes the application, waiting up to {@code timeout} for its threads. */
    public void close(Duration timeout) {
        if (leaveGroupOnClose) {
            streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP).withTimeout(timeout));
        } else {
            streams.close(timeout);
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(30));
    }
}
