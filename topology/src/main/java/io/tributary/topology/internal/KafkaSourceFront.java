package io.tributary.topology.internal;

import io.tributary.expressions.ExpressionException;
import io.tributary.expressions.RowTransform;
import io.tributary.kafka.KeyPartition;
import io.tributary.kafka.SourceRecords;
import io.tributary.schema.BadRecordException;
import io.tributary.schema.GroupKey;
import io.tributary.schema.RowJson;
import io.tributary.schema.RowPack;
import io.tributary.schema.Topics;
import io.tributary.topology.KafkaInput;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.TreeMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The front of an aggregation or deduplication over a Kafka source, on one task (partition k of
 * every source topic): it decodes each record's value with the source's format into rows, which it
 * writes to the rows topic packed as the events topic's rows are ({@link RowPack}), on the partition
 * their group-by (or deduplication) values give (Spark's shuffle), and sends a value that is not a
 * row where {@code onBadRecord} says. It ends the batches the stage publishes ({@link SourceBatch}):
 * once it has read up to a batch's bounds on its partitions, it writes the batch's marker to every
 * partition of the rows topic, as the file source writes one to every partition of the events
 * topic, and reports the largest event time it read so far, from which the stage makes the next
 * batch's watermark. Its batch, positions and largest event time
 * are in a changelogged store, written before every commit: a restart goes on where the last commit was.
 * Under {@code maxOffsetsPerTrigger} a batch's bounds may be short of what the task reads: a record at or
 * past them (or read before the batch is published) waits in {@link HeldRecords} until a batch takes it in,
 * so each batch holds exactly the offsets the stage planned for it, as Spark's does.
 */
public final class KafkaSourceFront implements Processor<byte[], byte[], Object, Object> {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaSourceFront.class);
    /** How often a task with nothing to read looks for a new batch (wall clock). */
    private static final Duration CHECK_EVERY = Duration.ofMillis(20);
    private static final String NEXT = "nextBatch";
    private static final String MAX = "maxEventTimeMs";
    private static final String POSITION = "position:";

    private final KafkaInput input;
    private final SourceWiring.Nodes nodes;
    private final String stage;
    private final int eventTime;
    private final RowJson rowJson;
    private final SourceRecords records;
    /** The pipeline's transform of the source's rows, or null. */
    private final RowTransform transform;
    /** Places a row on a partition of the rows topic by its group-by (or deduplication) values. */
    private final GroupKey placeBy;
    private final int partitions;
    /** The rows of the record in process, by the rows topic's partition they go to. */
    private final Map<Integer, RowPack> packs = new TreeMap<>();
    private final Map<TopicPartition, Long> positions = new HashMap<>();
    private ProcessorContext<Object, Object> context;
    private KeyValueStore<String, Long> store;
    private ReadOnlyKeyValueStore<String, byte[]> batches;
    private long nextBatch;
    private Long maxEventTimeMs;
    private byte[] lastBatchBytes;
    private SourceBatch lastBatch;
    private boolean dirty;
    /** The timestamp of the record in process. */
    private long timestamp;
    /** The records read past the batch's bounds (maxOffsetsPerTrigger), or null without a limit. */
    private HeldRecords held;
    /** The source partitions the last batch does not know yet: their consumer does not fetch them. */
    private UnknownPartitions unknown;

    /** @param eventTime the index of the event-time column in the source's rows, or -1 */
    public KafkaSourceFront(KafkaInput input, SourceWiring.Nodes nodes, String stage, int eventTime, List<String> placeBy) {
        this.input = input;
        this.placeBy = new GroupKey(input.subscription().outputSchema(), placeBy);
        this.partitions = input.partitions();
        this.nodes = nodes;
        this.stage = stage;
        this.eventTime = eventTime;
        this.rowJson = new RowJson(input.subscription().outputSchema());
        this.transform = input.subscription().transform();
        this.records = new SourceRecords(input.subscription());
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        this.store = context.getStateStore(nodes.frontStore());
        this.batches = context.getStateStore(nodes.batchesStore());
        this.unknown = UnknownPartitions.of(context.applicationId());
        Long next = store.get(NEXT);
        nextBatch = next == null ? -1 : next; // a new task: the first batch that counts it (publishedBatch)
        if (transform != null) {
            transform.startBatch(Instant.now()); // the task's first batch starts now
        }
        maxEventTimeMs = store.get(MAX);
        try (KeyValueIterator<String, Long> it = store.prefixScan(POSITION, new org.apache.kafka.common.serialization.StringSerializer())) {
            while (it.hasNext()) {
                KeyValue<String, Long> kv = it.next();
                String tp = kv.key.substring(POSITION.length());
                int colon = tp.lastIndexOf(':');
                positions.put(new TopicPartition(tp.substring(0, colon), Integer.parseInt(tp.substring(colon + 1))), kv.value);
            }
        }
        if (input.subscription().maxOffsetsPerTrigger() > 0) {
            held = new HeldRecords(context.getStateStore(nodes.heldStore()), ParkedBacklog.of(context.applicationId()),
                    context.taskId().partition());
        }
        CommitHook hook = context.getStateStore(nodes.frontCommitHook());
        hook.beforeCommit(this::flush);
        context.schedule(CHECK_EVERY, PunctuationType.WALL_CLOCK_TIME, now -> endBatchIfDue());
    }

    private void flush() {
        if (!dirty) {
            return;
        }
        store.put(NEXT, nextBatch);
        if (maxEventTimeMs != null) {
            store.put(MAX, maxEventTimeMs);
        }
        positions.forEach((tp, o) -> store.put(POSITION + tp.topic() + ":" + tp.partition(), o));
        dirty = false;
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        RecordMetadata md = context.recordMetadata().orElseThrow();
        ConsumerRecord<byte[], byte[]> r = new ConsumerRecord<>(md.topic(), md.partition(), md.offset(), record.timestamp(),
                TimestampType.CREATE_TIME, -1, -1, record.key(), record.value(), record.headers(), Optional.empty());
        if (held != null && mustHold(r)) {
            held.hold(r);
        } else {
            read(r);
        }
        endBatchIfDue();
    }

    private void read(ConsumerRecord<byte[], byte[]> r) {
        timestamp = r.timestamp();
        records.rows(r, this::row, this::reject);
        forwardRows();
        positions.put(new TopicPartition(r.topic(), r.partition()), r.offset() + 1);
        dirty = true;
    }

    /**
     * Whether a record waits for a later batch: it is at or past the bounds of the last batch published (the task's
     * batch, or the one it ended when the next is not published yet), or records before it wait already.
     */
    private boolean mustHold(ConsumerRecord<byte[], byte[]> r) {
        TopicPartition tp = new TopicPartition(r.topic(), r.partition());
        SourceBatch b = publishedBatch();
        if (b != null && b.batchId() == nextBatch) {
            release(b);
        }
        Long bound = b == null ? null : b.bounds().get(tp);
        return held.holds(tp) || bound == null || r.offset() >= bound;
    }

    /** Reads, in offset order, the held records of this task's partitions that the batch takes in. */
    private void release(SourceBatch b) {
        int task = context.taskId().partition();
        for (Map.Entry<TopicPartition, Long> e : b.bounds().entrySet()) {
            if (e.getKey().partition() == task && held.holds(e.getKey())) {
                held.takeBefore(e.getKey(), e.getValue()).forEach(this::read);
            }
        }
    }

    /**
     * The last batch the stage published, or null before the first. A task with no batch yet takes the first that counts
     * it as its next: batch 0, or the first to know the partitions it reads.
     */
    private SourceBatch publishedBatch() {
        byte[] v = batches.get(SourceBatch.KEY);
        if (v == null) {
            return null;
        }
        if (v != lastBatchBytes) {
            lastBatchBytes = v;
            lastBatch = SourceBatch.parse(v);
            // as the batches' global store does when it reads the batch (which a restore of that store may not replay)
            unknown.published(input.subscription()::subscribes, lastBatch.known());
            int task = context.taskId().partition();
            if (nextBatch < 0 && task < lastBatch.tasks(input.sourceTasks())) {
                // the first batch of this task (of a partition added, or a topic that came to match the pattern, while running)
                nextBatch = lastBatch.batchId();
                dirty = true;
            }
        }
        return lastBatch;
    }

    /** A decoded row: through the transform (joins, where, select) when there is one, then placed. */
    private int row(Object[] decoded) {
        if (transform == null) {
            place(decoded);
            return 1;
        }
        List<Object[]> rows;
        try {
            rows = transform.apply(decoded);
        } catch (ExpressionException e) {
            throw KafkaSourceErrors.expressionFails(e);
        }
        rows.forEach(this::place);
        return rows.size();
    }

    private void place(Object[] row) {
        if (eventTime >= 0 && row[eventTime] instanceof Long micros) {
            long ms = Math.floorDiv(micros, 1000L);
            if (maxEventTimeMs == null || ms > maxEventTimeMs) {
                maxEventTimeMs = ms;
            }
        }
        int partition = partitions == 1 ? 0 : KeyPartition.of(placeBy.key(row), partitions); // as the file source places them
        RowPack pack = packs.computeIfAbsent(partition, p -> new RowPack(4096));
        pack.add(rowJson, row, -1);
        if (pack.rows() >= 1000 || pack.bytes() >= RowPack.MAX_BYTES) {
            forward(partition, pack);
        }
    }

    private void forwardRows() {
        packs.forEach(this::forward);
    }

    private void forward(int partition, RowPack pack) {
        if (pack.rows() > 0) {
            context.forward(new Record<>(new ResultKey(partition), pack.take(), Math.max(0, timestamp), new RecordHeaders()),
                    nodes.rowsSink());
        }
    }

    private void reject(ConsumerRecord<byte[], byte[]> r, int row, byte[] bytes, int off, int len, String ddl, BadRecordException why,
                        boolean binary) {
        String where = SourceRecords.where(r.topic(), r.partition(), r.offset(), row);
        switch (input.onBadRecord()) {
            case "fail" -> throw KafkaSourceErrors.badValueFails(where, ddl, why);
            case "drop" -> LOG.warn("{}: {} is not a row: {}; dropped (onBadRecord drop)", stage, where, why.getMessage());
            default -> {
                LOG.warn("{}: {} is not a row: {}; sent to dead-letter topic {}", stage, where, why.getMessage(), input.deadLetterTopic());
                context.forward(new Record<>(SourceRecords.deadLetterKey(r.topic(), r.partition(), r.offset()),
                        SourceRecords.deadLetter(stage, r.topic(), r.partition(), r.offset(), row, why, bytes, off, len, binary),
                        Math.max(0, r.timestamp()), new RecordHeaders()), nodes.deadLetterSink());
            }
        }
    }

    /** Ends the batch the stage published when it is this task's next and the task has read up to its bounds. */
    private void endBatchIfDue() {
        SourceBatch b = publishedBatch();
        if (b == null || b.batchId() != nextBatch) {
            return;
        }
        if (held != null) {
            release(b);
        }
        int task = context.taskId().partition();
        for (Map.Entry<TopicPartition, Long> e : b.bounds().entrySet()) {
            if (e.getKey().partition() == task && e.getValue() > 0 && positions.getOrDefault(e.getKey(), -1L) < e.getValue()
                    && (held == null || !held.holds(e.getKey()))) { // a held record is past the bound: the task read up to it
                return;
            }
        }
        RecordHeaders headers = new RecordHeaders();
        headers.add(Topics.MARKER_HEADER, Topics.WATERMARK);
        long markerTime = b.watermarkMs() != null ? b.watermarkMs() : maxEventTimeMs != null ? maxEventTimeMs : 0;
        byte[] marker = Marker.ofSourceTask(b.batchId(), b.watermarkMs(), b.tasks(input.sourceTasks()));
        for (int p = 0; p < partitions; p++) { // every aggregation task counts the markers of every source task
            context.forward(new Record<>(new ResultKey(p), marker, Math.max(0, markerTime), headers), nodes.rowsSink());
        }
        SourceBatch.Report report = new SourceBatch.Report(SourceBatch.Report.SOURCE, b.batchId(), task, maxEventTimeMs);
        context.forward(new Record<>(report.key(), report.toJson(), Math.max(0, markerTime), new RecordHeaders()), nodes.reportsSink());
        context.commit(); // the batch's marker and report visible now, not at the next commit interval
        nextBatch = b.batchId() + 1;
        dirty = true;
        if (transform != null) {
            transform.startBatch(Instant.now()); // the next batch: the static tables and current_timestamp() as of its start
        }
        LOG.debug("{}: task {} ended batch {} at watermark {}", stage, task, b.batchId(), b.watermarkMs());
    }
}
