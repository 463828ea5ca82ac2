package io.tributary.topology;

import io.tributary.kafka.PartitionShare;
import io.tributary.kafka.SettledEnds;
import io.tributary.kafka.TopicTrim;
import io.tributary.kafka.TopicWait;
import io.tributary.schema.PipelineStage;
import io.tributary.schema.Progress;
import io.tributary.schema.StageShare;
import io.tributary.schema.Topics;
import io.tributary.schema.TributaryException;
import io.tributary.topology.internal.BatchProgress;
import io.tributary.topology.internal.ControlRecordGap;
import io.tributary.topology.internal.EventsOffsets;
import io.tributary.topology.internal.KafkaBatches;
import io.tributary.topology.internal.SourceBatch;
import io.tributary.topology.internal.LastBatchCheck;
import io.tributary.topology.internal.LocalTasks;
import io.tributary.topology.internal.SourceChangelogs;
import io.tributary.topology.internal.StreamsApp;
import io.tributary.topology.internal.TopologyErrors;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topology stage: the {@link WindowedAggregation} as a Kafka Streams application that runs
 * for the whole process. A batch ({@link #runBatch()}) is waiting until the application has
 * committed everything that is committed on the events topic now (Kafka Streams has no bounded
 * mode, see KIP-95), so that the results topic then holds the output of every ingest batch so far
 * and the sink can take it. The constructor starts the application; one thread runs the batches.
 */
public final class StreamsAggregation implements PipelineStage {
    private static final Logger LOG = LoggerFactory.getLogger(StreamsAggregation.class);
    private static final Duration CATCH_UP_TIMEOUT = Duration.ofMinutes(10);
    /** How often a long catch-up says in the log what it waits for. */
    private static final Duration CATCH_UP_REPORT = Duration.ofSeconds(30);

    private final AggregationConfig config;
    private final EventsOffsets offsets;
    /** Reads the few offsets between committed (or processed) and end offsets. Opened with the stage. */
    private final ControlRecordGap gap;
    /** Whether the last batch on each partition ended: a bounded run fails at once when one cannot. */
    private final LastBatchCheck lastBatches;
    private final StreamsApp app;
    /** A Kafka source's batches, which this stage cuts itself ({@link KafkaInput}); null over the events topic. */
    private final KafkaBatches kafkaBatches;
    private final BatchProgress progress;
    private KafkaFuture<Void> trim;
    /**
     * The committed and end offsets last found to have only control records between them: the
     * committed offsets stay there until the next commit interval, and the next batch (the end of
     * an availableNow run, every idle poll of the service) need not read the gap again.
     */
    private Map<TopicPartition, Long> settledCommitted = Map.of();
    private Map<TopicPartition, Long> settledEnd = Map.of();
    private Map<TopicPartition, Long> committed;
    private Map<TopicPartition, Long> trimmed;
    /** Set when a batch failed because Kafka did not answer: the next batch that reaches Kafka starts the application again first. */
    private boolean restartWhenKafkaAnswers;

    /**
     * Starts the application and waits until it has joined its group. Waits up to the client
     * settings' bound ({@link TopicWait#bound}) for the events topic to exist.
     *
     * @param kafkaClientProps the Kafka client settings, {@code bootstrap.servers} among them
     * @throws TributaryException when the events topic does not appear or the application does not start
     */
    public StreamsAggregation(AggregationConfig config, Map<String, Object> kafkaClientProps) {
        this.config = config;
        String applicationId = config.applicationId();
        Properties props = streamsProps(config, kafkaClientProps);
        WindowedAggregation.loadNativeLibraryAhead(); // on a thread of its own, while the clients are made and the group found
        this.offsets = new EventsOffsets(kafkaClientProps, config.eventsTopic(), applicationId);
        // where the application resumes: read before it starts, as the ingest's first batch may be
        // processed and committed while this stage is still opening (the stages open concurrently).
        // On a new broker the answer waits for the offsets topic to be created and loaded; the
        // application's clients are made meanwhile
        KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> resumeAt = offsets.askCommitted();
        ControlRecordGap g = null;
        StreamsApp a = null;
        KafkaBatches kb = null;
        try {
            g = new ControlRecordGap(kafkaClientProps, applicationId + "-catch-up");
            // the events topic may be a moment old, and Kafka Streams stops on a source topic it cannot see
            Duration bound = TopicWait.bound(kafkaClientProps);
            for (String topic : config.kafkaInput() == null ? List.of(config.eventsTopic()) : config.kafkaInput().subscription().topics()) {
                if (!g.awaitTopic(topic, bound)) {
                    throw TopologyErrors.noEventsTopic(topic, bound.toSeconds());
                }
            }
            SourceChangelogs changelogs = null;
            if (config.kafkaInput() != null) {
                changelogs = new SourceChangelogs(kafkaClientProps, applicationId, config.kafkaInput().subscription(), config.topology());
                changelogs.grow(); // partitions added since the last run: their tasks' changelogs
                kb = new KafkaBatches(config.kafkaInput(), applicationId, config.watermarkDelay(), config.bounded(), kafkaClientProps,
                        config.replicationFactor(), changelogs);
            }
            a = new StreamsApp(applicationId, config::topology, props, config.restartWindow(), config.instanceId() != null, changelogs);
            this.committed = offsets.committed(resumeAt);
            this.trimmed = committed;
            a.start();
        } catch (RuntimeException e) {
            if (a != null) {
                a.close(Duration.ZERO);
            }
            if (g != null) {
                g.close();
            }
            if (kb != null) {
                kb.close();
            }
            offsets.close(Duration.ZERO);
            throw e;
        }
        this.kafkaBatches = kb;
        this.gap = g;
        this.app = a;
        this.lastBatches = new LastBatchCheck(config.eventsTopic(), gap, config.bounded());
        this.progress = new BatchProgress(config.stageName(), config.operatorName(), applicationId, config.eventsTopic(),
                config.instanceId(), config.kafkaInput() == null ? null : () -> share().topics());
    }

    /**
     * The Kafka Streams settings: the client settings, then the aggregation's own, the rows'
     * compression unless the client settings name one. Membership is static: an instance that
     * restarts takes its tasks back at once, and each instance has its own member id.
     */
    private static Properties streamsProps(AggregationConfig config, Map<String, Object> clientProps) {
        Properties props = new Properties();
        props.putAll(clientProps);
        String instanceId = config.instanceId();
        props.putAll(WindowedAggregation.streamsConfig(config.applicationId(), String.valueOf(clientProps.get("bootstrap.servers")),
                config.stateDir(), config.applicationId() + "-" + (instanceId == null ? "1" : instanceId)));
        if (instanceId != null) {
            // a dead instance's tasks move to the others after this (the broker's smallest session timeout by default)
            props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), (int) PartitionShare.SESSION_TIMEOUT.toMillis());
            props.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 1500);
        }
        props.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, config.standbyReplicas());
        // the changelog topics Kafka Streams creates take the pipeline's replication (its default, -1, is the broker's)
        if (config.replicationFactor() != -1) {
            props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, config.replicationFactor());
        }
        if (!clientProps.containsKey(ProducerConfig.COMPRESSION_TYPE_CONFIG)) {
            props.put(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), Topics.ROW_COMPRESSION);
        }
        if (config.kafkaInput() != null && !clientProps.containsKey(ConsumerConfig.METADATA_MAX_AGE_CONFIG)) {
            // a partition added to a source topic, or a topic created to match the pattern, gets its task this soon (Kafka's
            // default: 5 minutes), to be read from its earliest offset by the next batch that knows it
            props.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.METADATA_MAX_AGE_CONFIG),
                    (int) PartitionShare.PATTERN_REFRESH.toMillis());
        }
        long limit = config.kafkaInput() == null ? 0 : config.kafkaInput().subscription().maxOffsetsPerTrigger();
        if (limit > 0) { // Spark reads no further than a batch: a poll takes about one, what waits past its bounds stays small
            props.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG), (int) Math.min(10_000, Math.max(500, limit)));
        }
        return props;
    }

    public AggregationConfig config() {
        return config;
    }

    @Override
    public String stageName() {
        return config.stageName();
    }

    /** This instance's tasks, when instances share the aggregation. */
    @Override
    public Optional<StageShare> workShare() {
        Share share = share();
        return Optional.of(new StageShare(null, share.partitions(), share.activeTasks(), share.standbyTasks(), share.topics()));
    }

    /**
     * Waits until the application has committed all that is committed on the events topic now.
     * Returns the batch's progress, or empty when there was nothing new.
     *
     * @throws TributaryException when the application stopped, did not catch up within 10 minutes,
     *         or, in a bounded run, read rows that no batch-end marker follows
     */
    @Override
    public Optional<Progress> runBatch() {
        try {
            return batch();
        } catch (RuntimeException e) {
            restartWhenKafkaAnswers |= StreamsApp.kafkaTrouble(e);
            throw e;
        }
    }

    private Optional<Progress> batch() {
        long startMs = System.currentTimeMillis();
        long t0 = System.nanoTime();
        restartIfKilled();
        Map<TopicPartition, Long> end = kafkaBatches != null ? Map.of() : new HashMap<>(offsets.settledEnd(committed, SettledEnds.DEFAULT_WAIT));
        if (restartWhenKafkaAnswers) {
            // Kafka answers again after it did not: a stream thread whose commit timed out meanwhile may
            // still hold its transaction open (StreamsApp#restart); a new instance aborts it at once
            restartWhenKafkaAnswers = false;
            app.restart("Kafka answers again after it did not");
            progress.countersReset();
        }
        if (kafkaBatches != null) {
            return kafkaBatch(startMs, t0);
        }
        if (config.instanceId() != null) {
            // instances share the tasks: a batch is the partitions of this instance's tasks
            Set<Integer> local = Set.copyOf(app.localTasks(config.eventsTopic()).partitions());
            end.keySet().removeIf(tp -> !local.contains(tp.partition()));
            if (end.isEmpty()) {
                return Optional.empty();
            }
        }
        Map<TopicPartition, Long> before = committed;
        long waitStart = System.nanoTime();
        long nextReport = CATCH_UP_REPORT.toNanos();
        Map<TopicPartition, Long> now = EventsOffsets.only(offsets.committed(), end.keySet());
        while ((!EventsOffsets.caughtUp(now, end) && !onlyControlRecordsLeft(now, end)) || closing()) {
            lastBatches.check(app.metrics(), end);
            restartIfKilled();
            app.requireAlive();
            long waited = System.nanoTime() - waitStart;
            if (waited > CATCH_UP_TIMEOUT.toNanos()) {
                throw TopologyErrors.didNotCatchUp(config.eventsTopic(), CATCH_UP_TIMEOUT.toMinutes(), now, end);
            }
            if (waited >= nextReport) {
                LOG.info("aggregation of {}: waiting {} s for its stream threads to commit up to {}; committed {}; Kafka Streams is {}",
                        config.eventsTopic(), waited / 1_000_000_000L, end, now, app.stateName());
                nextReport += CATCH_UP_REPORT.toNanos();
            }
            sleep(20);
            now = EventsOffsets.only(offsets.committed(), end.keySet());
        }
        lastBatches.check(app.metrics(), end);
        Map<TopicPartition, Long> trimAt = now;
        if (!EventsOffsets.caughtUp(now, end)) {
            // only control records left: count them as read, as the next commit will
            Map<TopicPartition, Long> past = new HashMap<>(now);
            end.forEach((tp, o) -> past.merge(tp, o, Math::max));
            now = past;
        }
        committed = EventsOffsets.merged(committed, now); // the partitions of other instances' tasks keep what was last seen of them
        if (config.trimEvents() && !trimAt.equals(EventsOffsets.only(trimmed, trimAt.keySet()))) {
            // never read again: a restart resumes from the committed offsets, its state comes from the changelogs
            trim = offsets.trimBefore(trimAt);
            trimmed = EventsOffsets.merged(trimmed, trimAt);
        }
        long records = 0;
        for (Map.Entry<TopicPartition, Long> e : now.entrySet()) {
            // a partition this instance got back may have moved on (or from an older look) meanwhile
            records += Math.max(0, e.getValue() - before.getOrDefault(e.getKey(), 0L));
        }
        if (records == 0) {
            return Optional.empty();
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        return Optional.of(progress.next(startMs, ms, EventsOffsets.only(before, now.keySet()), now, app.metrics()));
    }

    /**
     * A batch over a Kafka source ({@link KafkaBatches}): run by the instance whose active tasks
     * read partition 0 of the source's topics (the only one, unless instances share the pipeline),
     * then waited for until its closings are written out. Partition 0 of every topic the source
     * reads, listed or matched by its pattern, is in one task, so exactly one instance runs them.
     */
    private Optional<Progress> kafkaBatch(long startMs, long t0) {
        if (config.instanceId() != null && !app.localTasks(config.kafkaInput().subscription()::subscribes).partitions().contains(0)) {
            return Optional.empty();
        }
        Runnable alive = () -> {
            restartIfKilled();
            app.requireAlive();
        };
        Map<TopicPartition, Long> before = kafkaBatches.lastBounds();
        Optional<SourceBatch> ran = kafkaBatches.runBatch(alive);
        if (ran.isEmpty()) {
            return Optional.empty();
        }
        while (closing()) {
            alive.run();
            sleep(20);
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        return Optional.of(progress.next(startMs, ms, before, ran.get().bounds(), app.metrics()));
    }

    /**
     * This instance's share of the application's tasks.
     *
     * @param partitions the events topic's partitions its active tasks read; empty over a Kafka source
     * @param activeTasks the ids of the tasks it runs (e.g. {@code 0_1})
     * @param standbyTasks the ids of the tasks it keeps a warm copy of
     * @param topics over a Kafka source, the partitions its active tasks read of each of the source's topics (listed,
     *     or matched by its pattern, after the start too), by topic; null over the events topic
     */
    public record Share(List<Integer> partitions, List<String> activeTasks, List<String> standbyTasks,
                        Map<String, List<Integer>> topics) {
    }

    /** This instance's tasks now (all of them when it is the only instance). */
    public Share share() {
        if (config.kafkaInput() == null) {
            LocalTasks local = app.localTasks(config.eventsTopic());
            return new Share(local.partitions(), local.active(), local.standby(), null);
        }
        LocalTasks local = app.localTasks(config.kafkaInput().subscription()::subscribes);
        return new Share(List.of(), local.active(), local.standby(), local.topics());
    }

    private void restartIfKilled() {
        if (app.restartIfKilled()) {
            progress.countersReset();
            restartWhenKafkaAnswers = false; // the new instance aborts the old one's transaction already
        }
    }

    /**
     * True when every record between the committed offsets and the end offsets is a transaction
     * control record (a commit or abort marker), or belongs to an aborted transaction: nothing a
     * read_committed reader gets. The commit the processor asks for at a batch's marker covers the
     * offsets up to the marker; the ingest transaction's commit marker after it is passed only by
     * the next commit of the interval (Kafka Streams commits once the consumer's position moved past
     * it), which with a long commit interval (see {@link WindowedAggregation#streamsConfig}) would
     * keep the stage waiting for nothing. Checked with a read_committed consumer of its own, only
     * for the partitions whose gap is small (a control record per transaction at most), and once
     * for the same offsets.
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

    /**
     * Whether a task is still closing the windows of a marker it read (a large closing goes on a
     * transaction at a time after the marker's offset is committed): its batch's output is not
     * all in the results topic yet.
     */
    private boolean closing() {
        return metrics().getOrDefault(AggregateMetrics.PENDING_CLOSES, 0.0) > 0;
    }

    /** The aggregation's metrics (names of {@link AggregateMetrics}), summed over its tasks. */
    public Map<String, Double> metrics() {
        return BatchProgress.sums(app.metrics());
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw TopologyErrors.interrupted(e);
        }
    }

    /** Stops the application (waiting up to 30 s for its threads) and the deletion of read events in flight. */
    @Override
    public void close() {
        app.close();
        if (kafkaBatches != null) {
            kafkaBatches.close();
        }
        TopicTrim.await(trim);
        gap.close();
        offsets.close();
    }
}
