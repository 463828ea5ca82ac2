package io.tributary.service.internal;

import io.tributary.schema.Progress;
import io.tributary.schema.TopicTrim;
import io.tributary.schema.TopicWait;
import io.tributary.schema.Topics;
import io.tributary.schema.TributaryException;
import io.tributary.topology.AggregateMetrics;
import io.tributary.topology.AggregateSpec;
import io.tributary.topology.WindowedAggregation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topology stage: a Kafka Streams application that runs for the whole process. A "batch" of
 * it is waiting until the application has committed everything that is committed on the events
 * topic now (Kafka Streams has no bounded mode, see KIP-95), so that the results topic then holds
 * the output of every ingest batch so far and the sink can take it.
 */
final class StreamsStage implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StreamsStage.class);
    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration CATCH_UP_TIMEOUT = Duration.ofMinutes(10);
    /** The most restarts after Kafka errors within {@link Recovery#GIVE_UP_AFTER}. */
    private static final int MAX_RESTARTS = 20;

    private final String name;
    private final String applicationId;
    /** This process among the instances that share the application's tasks; null when it is the only one. */
    private final String instanceId;
    private final String eventsTopic;
    private final boolean trimEvents;
    private KafkaFuture<Void> trim;
    private final java.util.function.Supplier<org.apache.kafka.streams.Topology> topology;
    private final Properties props;
    private volatile KafkaStreams streams;
    /** Set by a stream thread that Kafka errors killed: {@link #runBatch()} starts the application again. */
    private volatile boolean restartAfterKafkaError;
    private final Admin admin;
    /** Reads the few offsets between committed (or processed) and end offsets. Opened with the stage. */
    private final ControlRecordGap gap;
    /** Whether the last batch on each partition ended: a bounded run fails at once when one cannot. */
    private final LastBatchCheck lastBatches;
    /**
     * The committed and end offsets last found to have only control records between them: the
     * committed offsets stay there until the next commit interval, and the next batch (the end of
     * an availableNow run, every idle poll of the service) need not read the gap again.
     */
    private Map<TopicPartition, Long> settledCommitted = Map.of();
    private Map<TopicPartition, Long> settledEnd = Map.of();
    private final String runId = UUID.randomUUID().toString();
    private Map<TopicPartition, Long> committed = Map.of();
    private Map<TopicPartition, Long> trimmed = Map.of();
    private Map<String, Double> lastCounts = Map.of();
    private long batchId;
    /** When the application was started again after Kafka errors (nanoTime), for {@link #MAX_RESTARTS}. */
    private final java.util.Deque<Long> restarts = new java.util.concurrent.ConcurrentLinkedDeque<>();

    /**
     * How the stage runs.
     *
     * @param trim delete the events the application committed past ({@code topic.trim})
     * @param bounded the run stops once what is there is processed (availableNow, once)
     * @param replicationFactor the replicas of the changelog topics; empty: the broker's default
     * @param instanceId this process among several instances of the pipeline that share the application's tasks; null: the only one
     * @param standbyReplicas Kafka Streams' {@code num.standby.replicas}: warm copies of each task's state on other instances
     */
    record Options(boolean trim, boolean bounded, Optional<Short> replicationFactor, String instanceId, int standbyReplicas) {
        /** One process, the broker's replication, no standby. */
        static Options single(boolean trim, boolean bounded) {
            return new Options(trim, bounded, Optional.empty(), null, 0);
        }
    }

    StreamsStage(String pipeline, AggregateSpec spec, String eventsTopic, String resultsTopic, String lateRowsTopic,
                 Map<String, Object> clientProps, Path stateDir, Options options) {
        this.name = pipeline + "/aggregate";
        this.applicationId = "tributary-" + pipeline + "-aggregate";
        this.eventsTopic = eventsTopic;
        this.trimEvents = options.trim();
        this.instanceId = options.instanceId();
        this.props = new Properties();
        props.putAll(clientProps);
        // static membership: an instance that restarts takes its tasks back at once; each instance has its own member id
        props.putAll(WindowedAggregation.streamsConfig(applicationId, String.valueOf(clientProps.get("bootstrap.servers")),
                stateDir, applicationId + "-" + (instanceId == null ? "1" : instanceId)));
        if (instanceId != null) {
            // a dead instance's tasks move to the others after this (the broker's smallest session timeout by default)
            props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG),
                    (int) io.tributary.schema.PartitionShare.SESSION_TIMEOUT.toMillis());
            props.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 1500);
        }
        props.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, options.standbyReplicas());
        // the changelog topics Kafka Streams creates take the pipeline's replication (its default, -1, is the broker's)
        options.replicationFactor().ifPresent(r -> props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) r));
        if (!clientProps.containsKey(ProducerConfig.COMPRESSION_TYPE_CONFIG)) {
            props.put(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), Topics.ROW_COMPRESSION);
        }
        this.topology = () -> WindowedAggregation.build(spec, eventsTopic, resultsTopic, lateRowsTopic);
        WindowedAggregation.loadNativeLibraryAhead(); // on a thread of its own, while the clients are made and the group found
        this.admin = Admin.create(clientProps);
        // where the application resumes: read before it starts, as the ingest's first batch may be
        // processed and committed while this stage is still opening (the stages open concurrently).
        // On a new broker the answer waits for the offsets topic to be created and loaded; the
        // application's clients are made meanwhile
        KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> resumeAt = askCommittedOffsets();
        this.gap = new ControlRecordGap(clientProps, applicationId + "-catch-up");
        // the events topic may be a moment old, and Kafka Streams stops on a source topic it cannot see
        if (!gap.awaitTopic(eventsTopic, TopicWait.bound(clientProps))) {
            gap.close();
            admin.close(Duration.ZERO);
            throw new TributaryException("the aggregation: topic " + eventsTopic + " does not exist (looked for it for "
                    + TopicWait.bound(clientProps).toSeconds() + " s); start the stage that writes it first, or check the pipeline's kafka settings");
        }
        this.lastBatches = new LastBatchCheck(eventsTopic, gap, options.bounded());
        KafkaStreams s = create();
        try {
            this.committed = committedOffsets(resumeAt);
        } catch (RuntimeException e) {
            s.close(Duration.ZERO);
            throw e;
        }
        this.trimmed = committed;
        s.start();
        this.streams = s;
        awaitRunning();
    }

    private KafkaStreams create() {
        KafkaStreams s = new KafkaStreams(topology.get(), props);
        s.setUncaughtExceptionHandler(this::onThreadError);
        return s;
    }

    private KafkaStreams start() {
        KafkaStreams s = create();
        s.start();
        return s;
    }

    /**
     * Starts the application again after Kafka errors killed its stream thread. The new instance
     * keeps the process id (Kafka Streams stores it in the state directory) and so the thread's
     * transactional id: its producer's {@code initTransactions()} aborts the transaction the dead
     * thread left open at once (a replaced thread would take a new id and leave that transaction
     * to the broker's timeout, 60 s, blocking the group's committed offsets meanwhile).
     */
    private void restartIfKilled() {
        if (restartAfterKafkaError && (streams.state() == KafkaStreams.State.ERROR || streams.state() == KafkaStreams.State.NOT_RUNNING)) {
            restart();
        }
    }

    private void restart() {
        restartAfterKafkaError = false;
        streams.close(Duration.ofSeconds(30));
        LOG.info("the aggregation (Kafka Streams application {}) starts again after Kafka errors", applicationId);
        streams = start();
        // the counters are the new instance's, from zero: those the dead thread's tasks held went with them
        lastCounts = Map.of();
    }

    /**
     * A stream thread died. When Kafka was the trouble (the broker unreachable long enough for a
     * send, a commit or an abort to time out, which leaves the thread's transactional producer in
     * an error state that Kafka Streams 4.4 does not recover from), the application stops and
     * {@link #runBatch()} starts it again ({@link #restart()}): its open transaction is aborted and
     * its tasks restored from the changelogs, so exactly-once holds. At most
     * {@link #MAX_RESTARTS} times in {@link Recovery#GIVE_UP_AFTER}, and never for an error of
     * the topology itself: those stop the aggregation for good.
     */
    private StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse onThreadError(Throwable e) {
        long now = System.nanoTime();
        restarts.removeIf(t -> now - t > Recovery.GIVE_UP_AFTER.toNanos());
        if (kafkaTrouble(e) && restarts.size() < MAX_RESTARTS) {
            restarts.add(now);
            restartAfterKafkaError = true;
            LOG.warn("the aggregation's stream thread failed ({}); Kafka may be unreachable: the aggregation starts again"
                    + " (its transaction is aborted, its tasks restored from the changelogs)", rootMessage(e));
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        }
        LOG.error("the aggregation stopped: {}", e.toString(), e);
        return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
    }

    /**
     * True when the deepest cause is a Kafka client error that may pass (a timeout, a lost
     * connection, a transaction left to abort, a producer whose abort timed out), not a failure of the topology's own code nor a
     * refusal (authorization, serialization, an unsupported version, a bad configuration).
     */
    static boolean kafkaTrouble(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root instanceof org.apache.kafka.common.errors.RetriableException) {
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

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    /**
     * Waits until the application has joined its group. After a crash that can take a while: under
     * exactly-once, Kafka Streams wipes the local state and restores it from the changelogs; the
     * batches then wait in {@link #runBatch()} for it to catch up.
     */
    private void awaitRunning() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (streams.state() != KafkaStreams.State.RUNNING && System.nanoTime() < deadline) {
            if (streams.state() == KafkaStreams.State.ERROR || streams.state() == KafkaStreams.State.NOT_RUNNING
                    || streams.state() == KafkaStreams.State.PENDING_ERROR) {
                throw new TributaryException("the aggregation (Kafka Streams application " + applicationId
                        + ") did not start: state " + streams.state() + "; see the log above");
            }
            sleep(50);
        }
    }

    /** Waits until the application has committed all that is committed on the events topic now. */
    Optional<Progress> runBatch() {
        long startMs = System.currentTimeMillis();
        long t0 = System.nanoTime();
        restartIfKilled();
        Map<TopicPartition, Long> end = endOffsets();
        if (instanceId != null) {
            // instances share the tasks: a batch is this instance's tasks' partitions
            end.keySet().retainAll(localPartitions());
            if (end.isEmpty()) {
                return Optional.empty();
            }
        }
        Map<TopicPartition, Long> before = committed;
        long deadline = System.nanoTime() + CATCH_UP_TIMEOUT.toNanos();
        Map<TopicPartition, Long> now = only(committedOffsets(), end.keySet());
        while (!caughtUp(now, end) && !onlyControlRecordsLeft(now, end)) {
            lastBatches.check(streams.metrics(), end);
            restartIfKilled();
            if (streams.state() != KafkaStreams.State.RUNNING && streams.state() != KafkaStreams.State.REBALANCING
                    && !restartAfterKafkaError && streams.state() != KafkaStreams.State.CREATED) {
                throw new TributaryException("the aggregation (Kafka Streams application " + applicationId
                        + ") stopped: state " + streams.state() + "; see the log above");
            }
            if (System.nanoTime() > deadline) {
                throw new TributaryException("the aggregation did not catch up with " + eventsTopic + " within "
                        + CATCH_UP_TIMEOUT.toMinutes() + " minutes (committed " + now + ", end " + end + ")");
            }
            sleep(20);
            now = only(committedOffsets(), end.keySet());
        }
        lastBatches.check(streams.metrics(), end);
        Map<TopicPartition, Long> trimAt = now;
        if (!caughtUp(now, end)) {
            // only control records left: count them as read, as the next commit will
            Map<TopicPartition, Long> past = new HashMap<>(now);
            end.forEach((tp, o) -> past.merge(tp, o, Math::max));
            now = past;
        }
        Map<TopicPartition, Long> all = new HashMap<>(committed);
        all.putAll(now);
        committed = all;
        if (trimEvents && !trimAt.equals(only(trimmed, trimAt.keySet()))) {
            // never read again: a restart resumes from the committed offsets, its state comes from the changelogs
            trim = TopicTrim.before(admin, trimAt);
            Map<TopicPartition, Long> t = new HashMap<>(trimmed);
            t.putAll(trimAt);
            trimmed = t;
        }
        long records = 0;
        for (Map.Entry<TopicPartition, Long> e : now.entrySet()) {
            records += Math.max(0, e.getValue() - before.getOrDefault(e.getKey(), 0L));
        }
        if (records == 0) {
            return Optional.empty();
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        Map<String, Double> counts = counts();
        long rows = delta(counts, AggregateMetrics.INPUT_ROWS);
        Map<String, Object> op = new LinkedHashMap<>();
        op.put("operatorName", "windowedAggregate");
        op.put("numRowsTotal", counts.getOrDefault(AggregateMetrics.ROWS_TOTAL, 0.0).longValue());
        op.put("numRowsUpdated", delta(counts, AggregateMetrics.ROWS_UPDATED));
        op.put("numRowsDroppedByWatermark", delta(counts, AggregateMetrics.ROWS_DROPPED));
        op.put("numOutputRows", delta(counts, AggregateMetrics.OUTPUT_ROWS));
        lastCounts = counts;
        Map<String, String> eventTime = null;
        Double wm = counts.get(AggregateMetrics.WATERMARK_MS);
        if (wm != null && wm > 0) {
            eventTime = Map.of("watermark", Progress.timestamp(wm.longValue()));
        }
        return Optional.of(new Progress(name, runId, Progress.timestamp(startMs), batchId++, rows,
                0.0, Progress.rate(rows, ms), Map.of("triggerExecution", ms), eventTime, List.of(op),
                List.of(new Progress.Source("KafkaStreams[" + applicationId + " <- " + eventsTopic + "]",
                        offsetsJson(only(before, now.keySet())), offsetsJson(now), rows, sourceMetrics(now.keySet()))),
                null));
    }

    private Map<String, Object> sourceMetrics(java.util.Set<TopicPartition> partitions) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("note", "offsets count records: a record holds one or more rows, and watermark markers are records");
        if (instanceId != null) {
            m.put("instance", instanceId);
            m.put("partitions", partitions.stream().map(TopicPartition::partition).sorted().toList());
        }
        return m;
    }

    private static Map<TopicPartition, Long> only(Map<TopicPartition, Long> offsets, java.util.Set<TopicPartition> keep) {
        Map<TopicPartition, Long> out = new HashMap<>(offsets);
        out.keySet().retainAll(keep);
        return out;
    }

    /** The events partitions of this instance's active tasks. */
    java.util.Set<TopicPartition> localPartitions() {
        return LocalTasks.partitions(streams, eventsTopic);
    }

    /** This instance's tasks: {@code active} and {@code standby} task ids (e.g. {@code 0_1}). */
    Map<String, List<String>> localTasks() {
        return LocalTasks.of(streams);
    }

    /** This process among the instances that share the application's tasks; null when it is the only one. */
    String instanceId() {
        return instanceId;
    }

    /** The aggregation's counters over every task: totals, and the watermark (the largest). */
    private Map<String, Double> counts() {
        Map<String, Double> out = new HashMap<>();
        streams.metrics().forEach((metricName, metric) -> {
            if (AggregateMetrics.GROUP.equals(metricName.group()) && metric.metricValue() instanceof Number n) {
                double v = n.doubleValue();
                out.merge(metricName.name(), v, AggregateMetrics.WATERMARK_MS.equals(metricName.name()) ? Math::max : Double::sum);
            }
        });
        return out;
    }

    private long delta(Map<String, Double> counts, String metric) {
        return (long) (counts.getOrDefault(metric, 0.0) - lastCounts.getOrDefault(metric, 0.0));
    }

    private static boolean caughtUp(Map<TopicPartition, Long> committed, Map<TopicPartition, Long> end) {
        return end.entrySet().stream().allMatch(e -> e.getValue() == 0 || committed.getOrDefault(e.getKey(), 0L) >= e.getValue());
    }

    /**
     * True when every record between the committed offsets and the end offsets is a transaction
     * control record (a commit or abort marker), or belongs to an aborted transaction: nothing a
     * read_committed reader gets. The commit the processor asks for at a batch's marker covers the
     * offsets up to the marker; the ingest transaction's commit marker after it is passed only by
     * the next commit of the interval (Kafka Streams commits once the consumer's position moved past
     * it), which with a long commit interval (see WindowedAggregation.streamsConfig) would keep the stage waiting for
     * nothing. Checked with a read_committed consumer of its own, only for the partitions whose gap
     * is small (a control record per transaction at most), and once for the same offsets.
     */
    private boolean onlyControlRecordsLeft(Map<TopicPartition, Long> committed, Map<TopicPartition, Long> end) {
        if (committed.equals(settledCommitted) && end.equals(settledEnd)) {
            return true;
        }
        if (gap.onlyControlRecords(committed, end)) {
            settledCommitted = Map.copyOf(committed);
            settledEnd = Map.copyOf(end);
            return true;
        }
        return false;
    }

    private Map<String, Map<String, Long>> offsetsJson(Map<TopicPartition, Long> offsets) {
        Map<String, Long> byPartition = new LinkedHashMap<>();
        offsets.entrySet().stream().sorted(Map.Entry.comparingByKey((a, b) -> Integer.compare(a.partition(), b.partition())))
                .forEach(e -> byPartition.put(String.valueOf(e.getKey().partition()), e.getValue()));
        return Map.of(eventsTopic, byPartition);
    }

    private Map<TopicPartition, Long> endOffsets() {
        try {
            List<TopicPartition> tps = admin.describeTopics(List.of(eventsTopic)).allTopicNames().get().get(eventsTopic)
                    .partitions().stream().map(p -> new TopicPartition(eventsTopic, p.partition())).toList();
            Map<TopicPartition, OffsetSpec> req = tps.stream().collect(Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest()));
            return admin.listOffsets(req, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get().entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TributaryException("interrupted while reading the end offsets of " + eventsTopic, e);
        } catch (ExecutionException e) {
            throw new TributaryException("cannot read the end offsets of " + eventsTopic + ": " + e.getCause(), e);
        }
    }

    private KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> askCommittedOffsets() {
        return admin.listConsumerGroupOffsets(applicationId).partitionsToOffsetAndMetadata();
    }

    private Map<TopicPartition, Long> committedOffsets() {
        return committedOffsets(askCommittedOffsets());
    }

    private Map<TopicPartition, Long> committedOffsets(KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> asked) {
        try {
            Map<TopicPartition, OffsetAndMetadata> m = asked.get();
            Map<TopicPartition, Long> out = new HashMap<>();
            m.forEach((tp, om) -> {
                if (om != null && tp.topic().equals(eventsTopic)) {
                    out.put(tp, om.offset());
                }
            });
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TributaryException("interrupted while reading the offsets of " + applicationId, e);
        } catch (ExecutionException e) {
            throw new TributaryException("cannot read the committed offsets of " + applicationId + ": " + e.getCause(), e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TributaryException("interrupted", e);
        }
    }

    /** The aggregation's metrics (names of {@code AggregateMetrics}), summed over its tasks. */
    Map<String, Double> aggregateMetrics() {
        Map<String, Double> out = new HashMap<>();
        streams.metrics().forEach((name, metric) -> {
            if (io.tributary.topology.AggregateMetrics.GROUP.equals(name.group()) && metric.metricValue() instanceof Number n
                    && !Double.isNaN(n.doubleValue())) {
                out.merge(name.name(), n.doubleValue(), Double::sum);
            }
        });
        return out;
    }

    @Override
    public void close() {
        if (instanceId != null) {
            // leaves the group (a static member otherwise keeps its tasks for the session timeout): the others take them at once
            streams.close(org.apache.kafka.streams.CloseOptions.groupMembershipOperation(
                    org.apache.kafka.streams.CloseOptions.GroupMembershipOperation.LEAVE_GROUP).withTimeout(Duration.ofSeconds(30)));
        } else {
            streams.close(Duration.ofSeconds(30));
        }
        TopicTrim.await(trim);
        gap.close();
        admin.close(Duration.ofSeconds(5));
    }
}
