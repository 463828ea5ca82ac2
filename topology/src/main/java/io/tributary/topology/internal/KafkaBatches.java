package io.tributary.topology.internal;

import io.tributary.kafka.KafkaSubscription;
import io.tributary.kafka.StartingPositions;
import io.tributary.kafka.TopicCreation;
import io.tributary.kafka.TopicTrim;
import io.tributary.schema.CrashPoint;
import io.tributary.schema.Topics;
import org.apache.kafka.common.KafkaFuture;
import io.tributary.topology.KafkaInput;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The batches of an aggregation over a Kafka source: Spark's micro-batches, cut by this stage.
 * A batch begins with the source's read_committed ends (the offset after the last record of each
 * partition: its bounds); the stage publishes it, with Spark's watermark for it, to the batches
 * topic, which every task reads as a global store; each task ends the batch (its marker: the
 * output mode writes, late rows are judged by the watermark from then on) once it has read up to
 * the bounds, and reports the largest event time it has read, in the same transaction. When every
 * task has reported, the batch is over, and the next batch's watermark is the largest event time
 * reported minus the delay (never lower than the last): Spark's global watermark over all
 * partitions, taken at the end of each batch. A batch whose rows moved the watermark and that no
 * new rows follow is followed by Spark's no-data batch (the same bounds, the new watermark).
 */
public final class KafkaBatches implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(KafkaBatches.class);
    private static final Duration POLL = Duration.ofMillis(20);
    /** How long a batch may take to end on every task before the stage gives up. */
    private static final Duration BATCH_TIMEOUT = Duration.ofMinutes(10);

    private final KafkaInput input;
    private final String batchesTopic;
    private final Long delayMs;
    private final boolean bounded;
    private final Admin admin;
    private final KafkaProducer<String, byte[]> producer;
    private final KafkaConsumer<byte[], byte[]> reports;
    private final KafkaConsumer<byte[], byte[]> tails;
    /** Reads the batches topic as it grows: the last batch published, by this instance or another. */
    private final KafkaConsumer<byte[], byte[]> published;
    /** The latest report of each source task. */
    private final Map<Integer, SourceBatch.Report> reported = new TreeMap<>();
    /** The latest report of each aggregation task. */
    private final Map<Integer, SourceBatch.Report> written = new TreeMap<>();
    private SourceBatch last;
    private final String applicationId;
    private final String rowsTopic;
    /** The deletion of the rows the aggregation committed past, in flight. */
    private KafkaFuture<Void> trim;
    /** availableNow, once: the bounds when the run began, which no batch goes past. */
    private Map<TopicPartition, Long> startBounds;
    /** availableNow, once: the partitions when the run began, the only ones it reads. */
    private Set<TopicPartition> startKnown;
    /** The wall clock of the last batch with new records (or of the start): closeIdleWindowsAfter counts from it. */
    private long lastDataMs = System.currentTimeMillis();
    /** Where the query began in each partition (startingOffsets, startingTimestamp); empty: each partition's earliest. */
    private final Map<TopicPartition, Long> starts;
    private final BatchLimits limits;
    private final SourceChangelogs changelogs;

    /**
     * @param delay the watermark's delay, or null when the aggregation keeps no watermark
     * @param bounded the run ends once what is there at its start is read (availableNow, once)
     * @param replicationFactor of the batches and reports topics; -1: the broker's default
     * @param changelogs the changelogs of the source's tasks, grown before a batch counts more tasks
     */
    public KafkaBatches(KafkaInput input, String applicationId, Duration delay, boolean bounded, Map<String, Object> clientProps,
                        int replicationFactor, SourceChangelogs changelogs) {
        this.changelogs = changelogs;
        this.input = input;
        this.batchesTopic = KafkaInput.batchesTopic(applicationId);
        this.applicationId = applicationId;
        this.rowsTopic = KafkaInput.rowsTopic(applicationId);
        this.delayMs = delay == null ? null : delay.toMillis();
        this.bounded = bounded;
        this.limits = new BatchLimits(input.subscription(), bounded);
        this.admin = Admin.create(clientProps);
        List<NewTopic> topics = new ArrayList<>();
        for (String t : SourceWiring.controlTopics(applicationId)) {
            topics.add(new NewTopic(t, Optional.of(1), Optional.empty()).configs(Map.of("cleanup.policy", "compact")));
        }
        // no time retention (markers carry event times): trimmed once the aggregation committed past its records
        topics.add(new NewTopic(KafkaInput.rowsTopic(applicationId), Optional.of(input.partitions()), Optional.empty())
                .configs(Topics.EVENT_TIME_TOPIC_CONFIG));
        TopicCreation.create(admin, topics, replicationFactor == -1 ? Optional.empty() : Optional.of((short) replicationFactor));
        Map<String, Object> p = new HashMap<>(clientProps);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
        Map<String, Object> c = new HashMap<>(clientProps);
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.remove(ConsumerConfig.GROUP_ID_CONFIG);
        this.reports = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.tails = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.published = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        published.assign(List.of(new TopicPartition(batchesTopic, 0)));
        published.seekToBeginning(published.assignment());
        reports.assign(List.of(new TopicPartition(KafkaInput.reportsTopic(applicationId), 0)));
        reports.seekToBeginning(reports.assignment());
        readReports();
        readPublished();
        this.starts = last != null ? last.starts() : input.subscription().startsElsewhere() ? startAt(applicationId) : Map.of();
    }

    /**
     * A new query that starts elsewhere than the earliest offsets (Spark's startingOffsets or startingTimestamp): its
     * starting offsets, committed as the application's offsets of the source partitions, where its tasks begin to read.
     * A partition the application committed already (a first run stopped before its first batch) keeps its offset.
     */
    private Map<TopicPartition, Long> startAt(String applicationId) {
        try {
            Map<TopicPartition, Long> at = new HashMap<>(StartingPositions.of(input.subscription(), tails, partitions()));
            Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(applicationId)
                    .partitionsToOffsetAndMetadata().get();
            at.forEach((tp, o) -> {
                OffsetAndMetadata c = committed.get(tp);
                if (c != null) {
                    at.put(tp, c.offset());
                } else {
                    commit.put(tp, new OffsetAndMetadata(o));
                }
            });
            if (!commit.isEmpty()) {
                admin.alterConsumerGroupOffsets(applicationId, commit).all().get();
            }
            return at;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw KafkaSourceErrors.interrupted(e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw KafkaSourceErrors.cannotReadSource("the starting offsets of " + input.subscription().description(), e.getCause());
        }
    }

    /** Reads the batches topic to its end: the last batch published (a restart goes on from it). */
    private void readPublished() {
        TopicPartition tp = published.assignment().iterator().next();
        long end = published.endOffsets(List.of(tp)).get(tp);
        while (published.position(tp) < end) {
            for (ConsumerRecord<byte[], byte[]> r : published.poll(POLL)) {
                if (r.value() != null) {
                    SourceBatch b = SourceBatch.parse(r.value());
                    if (last == null || b.batchId() >= last.batchId()) {
                        last = b;
                    }
                }
            }
        }
    }

    private void readReports() {
        TopicPartition tp = reports.assignment().iterator().next();
        long end = reports.endOffsets(List.of(tp)).get(tp);
        while (reports.position(tp) < end) {
            for (ConsumerRecord<byte[], byte[]> r : reports.poll(POLL)) {
                if (r.value() != null) {
                    SourceBatch.Report report = SourceBatch.Report.parse(r.value());
                    (SourceBatch.Report.AGGREGATE.equals(report.kind()) ? written : reported)
                            .merge(report.task(), report, (a, b) -> b.batchId() >= a.batchId() ? b : a);
                }
            }
        }
    }

    /**
     * Runs the next batch, if there is one: new records in the source, or a watermark that the last
     * batch moved. Returns its id once every task ended it, or empty when there was none.
     *
     * @param alive called while waiting: throws when the application stopped
     */
    public Optional<SourceBatch> runBatch(Runnable alive) {
        readPublished();
        if (last != null) {
            awaitReports(last.batchId(), last.tasks(input.sourceTasks()), alive);
        }
        Map<TopicPartition, Long> bounds;
        Set<TopicPartition> known;
        if (bounded) {
            if (startBounds == null) {
                startKnown = partitions();
                startBounds = tails(startKnown);
            }
            bounds = startBounds;
            known = startKnown;
        } else {
            known = partitions(); // a partition added, or a topic that came to match the pattern: read from its earliest offset
            bounds = tails(known);
        }
        known = new HashSet<>(known);
        if (last != null && last.known() != null) {
            known.addAll(last.known());
        }
        bounds = new HashMap<>(bounds);
        bounds.entrySet().removeIf(e -> e.getValue() <= starts.getOrDefault(e.getKey(), 0L)); // nothing read there yet
        Map<TopicPartition, Long> limited = limits.next(last, starts, bounds, tails::beginningOffsets, tails::endOffsets);
        boolean waiting = limited == null; // minOffsetsPerTrigger: fewer offsets there than that, maxTriggerDelay not passed
        bounds = waiting ? Map.of() : limited;
        boolean newData = false;
        for (Map.Entry<TopicPartition, Long> e : bounds.entrySet()) {
            long start = starts.getOrDefault(e.getKey(), 0L);
            long before = last == null ? start : last.bounds().getOrDefault(e.getKey(), start);
            newData |= e.getValue() > before;
        }
        Long lastWm = last == null ? null : last.watermarkMs();
        Long wm = lastWm;
        if (delayMs != null) {
            Long max = maxReported();
            if (max != null) {
                wm = lastWm == null ? max - delayMs : Math.max(lastWm, max - delayMs);
            }
        }
        boolean moved = wm != null && (lastWm == null || wm > lastWm);
        long now = System.currentTimeMillis();
        if (newData || waiting) { // records waiting for minOffsetsPerTrigger: not a quiet source
            lastDataMs = now;
        } else if (!moved && delayMs != null && input.closeIdleAfter() != null && now - lastDataMs >= input.closeIdleAfter().toMillis()) {
            Long max = maxReported();
            if (max != null && (wm == null || max + input.idleAdvance().toMillis() > wm)) { // closeIdleWindowsAfter: a quiet source
                wm = max + input.idleAdvance().toMillis();
                moved = true;
                LOG.info("no new record on {} for {} s: closing the windows of the quiet stream (closeIdleWindowsAfter)",
                        input.subscription().description(), (now - lastDataMs) / 1000);
            }
        }
        if (!newData && !moved) {
            return Optional.empty();
        }
        Map<TopicPartition, Long> kept = new HashMap<>(last == null ? Map.of() : last.bounds());
        kept.putAll(bounds); // a partition no longer seen keeps its last bound
        SourceBatch next = new SourceBatch(last == null ? 0 : last.batchId() + 1, wm, kept, starts, known);
        int tasks = next.tasks(input.sourceTasks());
        if (last != null && tasks > last.tasks(input.sourceTasks())) {
            changelogs.grow(); // before Kafka Streams makes the new tasks, if it did not yet
            LOG.info("{}: batch {} reads {} partitions of {} (source tasks {}, {} before)", applicationId, next.batchId(), known.size(),
                    input.subscription().description(), tasks, last.tasks(input.sourceTasks()));
        }
        try {
            producer.send(new ProducerRecord<>(batchesTopic, 0, SourceBatch.KEY, next.toJson())).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw KafkaSourceErrors.interrupted(e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw KafkaSourceErrors.cannotReadSource("the batches topic " + batchesTopic, e.getCause());
        }
        last = next;
        CrashPoint.reach(CrashPoint.AGGREGATE_KAFKA_AFTER_BATCH);
        awaitReports(next.batchId(), tasks, alive);
        trimRows();
        return Optional.of(next);
    }

    /** The largest event time the source tasks reported, or null. */
    private Long maxReported() {
        Long max = null;
        for (SourceBatch.Report r : reported.values()) {
            if (r.maxEventTimeMs() != null && (max == null || r.maxEventTimeMs() > max)) {
                max = r.maxEventTimeMs();
            }
        }
        return max;
    }

    /** Deletes the rows topic's records before the offsets the aggregation committed: never read again (a restart resumes there). */
    private void trimRows() {
        if (trim != null && !trim.isDone()) {
            return;
        }
        try {
            Map<TopicPartition, Long> committed = new HashMap<>();
            admin.listConsumerGroupOffsets(applicationId).partitionsToOffsetAndMetadata().get().forEach((tp, om) -> {
                if (om != null && tp.topic().equals(rowsTopic)) {
                    committed.put(tp, om.offset());
                }
            });
            trim = committed.isEmpty() ? null : TopicTrim.before(admin, committed);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw KafkaSourceErrors.interrupted(e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw KafkaSourceErrors.cannotReadSource("the aggregation's committed offsets", e.getCause());
        }
    }

    /** The bounds of the batch before the last one run, for a progress record: empty before any. */
    public Map<TopicPartition, Long> lastBounds() {
        return last == null ? Map.of() : last.bounds();
    }

    private void awaitReports(long batchId, int tasks, Runnable alive) {
        long deadline = System.nanoTime() + BATCH_TIMEOUT.toNanos();
        while (true) {
            readReports();
            List<String> missing = new ArrayList<>();
            for (int t = 0; t < tasks; t++) {
                SourceBatch.Report r = reported.get(t);
                if (r == null || r.batchId() < batchId) {
                    missing.add("source " + t);
                }
            }
            for (int t = 0; t < input.partitions(); t++) {
                SourceBatch.Report r = written.get(t);
                if (r == null || r.batchId() < batchId) {
                    missing.add("aggregate " + t);
                }
            }
            if (missing.isEmpty()) {
                return;
            }
            alive.run();
            if (System.nanoTime() > deadline) {
                throw KafkaSourceErrors.batchDidNotEnd(batchesTopic, batchId, BATCH_TIMEOUT.toMinutes(), missing);
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw KafkaSourceErrors.interrupted(e);
            }
        }
    }

    /** The source's partitions: the topics', or those of every topic the pattern matches now. */
    private Set<TopicPartition> partitions() {
        KafkaSubscription s = input.subscription();
        Set<TopicPartition> out = new HashSet<>();
        Map<String, List<PartitionInfo>> all = tails.listTopics();
        all.forEach((topic, infos) -> {
            if (s.subscribes(topic)) {
                infos.forEach(i -> out.add(new TopicPartition(topic, i.partition())));
            }
        });
        return out;
    }

    /**
     * Each partition's offset after its last record that a read_committed reader gets (a task's
     * position once it read it); a partition without one (empty, or only control records and
     * aborted records at its end) is left out.
     */
    private Map<TopicPartition, Long> tails(Set<TopicPartition> partitions) {
        List<TopicPartition> tps = List.copyOf(partitions);
        Map<TopicPartition, Long> begin = tails.beginningOffsets(tps);
        Map<TopicPartition, Long> end = tails.endOffsets(tps);
        List<TopicPartition> read = tps.stream().filter(tp -> end.get(tp) > begin.get(tp)).toList();
        Map<TopicPartition, Long> out = new HashMap<>();
        tails.assign(read);
        for (TopicPartition tp : read) {
            tails.seek(tp, Math.max(begin.get(tp), end.get(tp) - ControlRecordGap.MAX_GAP * 8));
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (read.stream().anyMatch(tp -> tails.position(tp) < end.get(tp)) && System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> r : tails.poll(POLL)) {
                TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                if (r.offset() < end.get(tp)) {
                    out.merge(tp, r.offset() + 1, Math::max);
                }
            }
        }
        return out;
    }

    @Override
    public void close() {
        TopicTrim.await(trim);
        producer.close(Duration.ofSeconds(5));
        reports.close(Duration.ofSeconds(5));
        tails.close(Duration.ofSeconds(5));
        published.close(Duration.ofSeconds(5));
        admin.close(Duration.ofSeconds(5));
    }
}
