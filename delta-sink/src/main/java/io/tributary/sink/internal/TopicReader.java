package io.tributary.sink.internal;

import io.tributary.kafka.RateLimit;
import io.tributary.kafka.SettledEnds;
import io.tributary.kafka.TopicTrim;
import io.tributary.schema.RowJson;
import io.tributary.schema.Topics;
import io.tributary.schema.TributaryException;
import io.tributary.sink.SinkBadRecords;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a topic's committed records batch by batch, with no consumer group: every partition is
 * assigned and positioned from offsets the caller gives (the Delta table is the source of truth).
 * A batch runs up to the read_committed end offsets taken at its start, so it ends past the
 * transaction commit markers; records with the {@value Topics#MARKER_HEADER} header are counted, not returned.
 * A record holds one or more rows ({@link RecordRows}); {@code maxRows} cuts a batch after a whole record.
 */
public final class TopicReader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TopicReader.class);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final long STALL_MS = 120_000;

    private final String topic;
    private final RecordRows rowsOf;
    private final Map<String, Object> clientProps;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final boolean keyed;
    private final TopicLookup lookup;
    /** The partitions read and the consumer's positions in them. */
    private final AssignedPartitions assigned;
    /** The partitions assigned now ({@link AssignedPartitions#list()}). */
    private final List<TopicPartition> partitions;
    /** The number of each topic-partition read: its partition for one topic ({@link SourcePartitions}). */
    private final SourcePartitions sources;
    /** failOnDataLoss false: the records retention deleted before they were read, since {@link #takeLost()}. */
    private long lost;
    /** False: a batch waits for the transactions whose commit is under way, not for those still open ({@link #continuous}). */
    private boolean waitsForOpenTransactions = true;
    private Admin admin;
    private KafkaFuture<Void> trim;
    /** A Kafka source's minOffsetsPerTrigger, or null (none, or an availableNow run, which reads all there is). */
    private io.tributary.kafka.MinOffsets minOffsets;

    public TopicReader(Map<String, Object> clientProps, String topic, String clientId, RowJson rowJson) {
        this(clientProps, topic, clientId, rowJson, false, SinkBadRecords.FAIL);
    }

    /**
     * @param keyed true: batches carry each record's {@link RecordOrigin} and tombstones (records
     *              with a key and no value) become null rows; false: a record without a value is an error
     * @param badRecords what becomes of a row that does not fit {@code rowJson}'s schema ({@link BadRows})
     */
    public TopicReader(Map<String, Object> clientProps, String topic, String clientId, RowJson rowJson, boolean keyed,
                       SinkBadRecords badRecords) {
        this(clientProps, topic, clientId, rowJson, keyed, badRecords, null);
    }

    /**
     * As above; with a {@code subscription} (a Kafka source), {@code topic} is its description and the
     * reader reads its topics, their partitions numbered by {@link SourcePartitions}.
     */
    public TopicReader(Map<String, Object> clientProps, String topic, String clientId, RowJson rowJson, boolean keyed,
                       SinkBadRecords badRecords, io.tributary.kafka.KafkaSubscription subscription) {
        this.keyed = keyed;
        this.topic = topic;
        this.sources = subscription == null ? SourcePartitions.identity() : SourcePartitions.of(subscription);
        this.minOffsets = subscription == null || subscription.minOffsets() == null ? null
                : new io.tributary.kafka.MinOffsets(subscription.minOffsets());
        this.rowsOf = new RecordRows(topic, rowJson, new BadRows(badRecords, clientId, clientProps,
                subscription != null ? "source.kafka.onBadRecord" : "source.files.onBadRecord"), subscription);
        this.clientProps = Map.copyOf(clientProps);
        this.lookup = new TopicLookup(topic, clientProps);
        Map<String, Object> p = new HashMap<>(clientProps);
        p.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        // a batch reads everything up to the end offsets: fetch in large pieces (the defaults take many round
        // trips for nothing), but not so large that a fetch outlives young collections while its records are
        // written (8 MiB: a 10M-row batch peaked about 50 MiB higher, for no less CPU); kafka settings win
        p.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        p.putIfAbsent(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 2 * 1024 * 1024);
        // the fetch a poll leaves in flight at the topic's end waits this long at the broker, and the
        // next batch's end offsets request and the consumer's close wait behind it (Kafka's 500 ms
        // default: up to half a second per batch)
        p.putIfAbsent(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        // a reader never creates the topic it waits for (a broker with auto.create.topics.enable would, with its defaults)
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none"); // a stored offset that is gone is data loss, never a silent skip
        p.remove(ConsumerConfig.GROUP_ID_CONFIG);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        this.consumer = new KafkaConsumer<>(p);
        this.assigned = new AssignedPartitions(topic, consumer, lookup, sources);
        this.partitions = assigned.list();
    }

    /**
     * The topic's Kafka id (a UUID that changes when the topic is deleted and created again). Waits
     * for the topic to become visible: the stage that writes it may have created it a moment ago.
     */
    public String topicId() {
        if (!sources.byPartition()) {
            sources.subscription().topics().forEach(t -> new TopicLookup(t, clientProps).partitions(consumer)); // each named topic exists
            return null; // several topics: each has its id; a topic created anew is not told apart
        }
        lookup.partitions(consumer);
        return lookup.topicId(admin());
    }

    /**
     * Reads only {@code owned} of the topic's partitions from now on (null: all of them), positioned
     * as {@link #assign(Map)} does.
     */
    public void assign(Map<Integer, Long> offsets, java.util.Set<Integer> owned) {
        assigned.assign(offsets, owned);
    }

    /**
     * Assigns every partition of the topic (or those given to {@link #assign(Map, java.util.Set)});
     * partitions in {@code offsets} start there, others (and new ones) at the beginning.
     */
    public void assign(Map<Integer, Long> offsets) {
        assigned.assign(offsets);
    }

    /** Picks up partitions added to the topic since {@link #assign}, reading them from the beginning. */
    public void refreshPartitions() {
        assigned.refresh();
    }

    /** The numbers of the topic-partitions read, as the table records them with the offsets (empty for one topic). */
    public Map<Integer, TopicPartition> sources() {
        return sources.recorded();
    }

    /** The numbers of topic-partitions a group gave this instance of a sink of several topics or a pattern ({@link SourcePartitions#number}). */
    public java.util.Set<Integer> numbers(java.util.Set<TopicPartition> owned) {
        return assigned.numbers(owned);
    }

    /** Takes the numbers of the topic-partitions the table recorded, before {@link #assign}. */
    public void loadSources(Map<Integer, TopicPartition> recorded) {
        sources.load(recorded);
    }

    /** Where a new table starts in each partition read now (a Kafka source's startingOffsets or startingTimestamp). */
    public Map<Integer, Long> startingOffsets() {
        return sources.starting(consumer, assigned.current());
    }

    /**
     * A batch's end offsets: the settled end offsets ({@link #settledEndOffsets}); for a Kafka
     * source, after positions below a partition's earliest offset were refused or skipped
     * ({@code failOnDataLoss}, {@link SourcePartitions#dropLost}), cut by {@code maxOffsetsPerTrigger}; where the
     * positions stand when {@code minOffsetsPerTrigger} delays the batch (fewer offsets there, maxTriggerDelay not passed).
     */
    public Map<Integer, Long> batchEnd(Duration maxWait) {
        if (sources.isIdentity()) {
            return settledEndOffsets(maxWait);
        }
        lost += sources.dropLost(consumer, partitions, sources.subscription().failOnDataLoss());
        Map<Integer, Long> position = positions();
        Map<Integer, Long> end = sources.bounded(settledEndOffsets(maxWait), position);
        if (minOffsets != null && minOffsets.delays(position, end, System.currentTimeMillis())) {
            return position;
        }
        return RateLimit.cap(sources.subscription().maxOffsetsPerTrigger(), position, end);
    }

    /** A Kafka source's availableNow run: no batch reads past the end offsets the first one saw (Spark's). */
    public void endAtStart() {
        minOffsets = null; // as Spark's availableNow: every batch reads what there is, up to maxOffsetsPerTrigger
        sources.endAtStart();
    }

    /** The records counted lost since the last call. */
    public long takeLost() {
        long l = lost;
        lost = 0;
        return l;
    }

    /** The read_committed end offsets (last stable offsets) of all assigned partitions. */
    public Map<Integer, Long> endOffsets() {
        return assigned.endOffsets();
    }

    /** The read_committed end offsets once settled ({@link SettledEnds}), or after {@code maxWait}. */
    public Map<Integer, Long> settledEndOffsets(Duration maxWait) {
        try {
            Map<Integer, Long> high = SettledEnds.highWatermarks(admin(), partitions, sources::of);
            return SettledEnds.await(topic, this::endOffsets, high, waitsForOpenTransactions ? null : positions(), maxWait);
        } catch (ExecutionException e) {
            throw SinkErrors.cannotReadEndOffsets(topic, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw SinkErrors.interruptedAwaitingTransactions(topic, e);
        }
    }

    /**
     * A continuous run, whose stages write and read the topic at the same time: a batch of the
     * pipeline's own topic waits for a partition's committed end offset to move past the reader's
     * position (a transaction committed, its markers being written), not for the transaction the
     * writer opened since, whose rows the next batch takes.
     */
    public void continuous() {
        waitsForOpenTransactions = !sources.isIdentity();
    }

    private Admin admin() {
        if (admin == null) {
            admin = Admin.create(clientProps);
        }
        return admin;
    }

    /** The first offset still in the topic, per assigned partition (above 0 where records were deleted). */
    public Map<Integer, Long> beginningOffsets() {
        return assigned.beginningOffsets();
    }

    /** Deletes the records before {@code offsets} from the topic, in the background ({@link TopicTrim}); {@link #close} waits for it. */
    public void trimBefore(Map<Integer, Long> offsets) {
        Map<TopicPartition, Long> before = new HashMap<>();
        offsets.forEach((p, o) -> before.put(sources.partition(topic, p), o));
        trim = TopicTrim.before(admin(), before);
    }

    /** The next offset to read, per assigned partition. */
    public Map<Integer, Long> positions() {
        return assigned.positions();
    }

    /** True if some partition's position is below {@code end}. */
    public boolean hasNew(Map<Integer, Long> end) {
        Map<Integer, Long> pos = positions();
        return end.entrySet().stream().anyMatch(e -> pos.getOrDefault(e.getKey(), 0L) < e.getValue());
    }

    /**
     * Reads from the current positions up to {@code end} (or fewer rows when {@code maxRows} > 0
     * cuts the batch short) and leaves the consumer positioned at the returned batch's end.
     */
    public TopicBatch read(Map<Integer, Long> end, int maxRows) {
        return read(end, maxRows, null);
    }

    /**
     * As {@link #read(Map, int)}; with a {@code rowSink} (unkeyed reads only), each row goes to it as
     * it is parsed, and the batch returned counts the rows but holds none.
     */
    public TopicBatch read(Map<Integer, Long> end, int maxRows, Consumer<Object[]> rowSink) {
        if (rowSink != null && keyed) {
            throw new IllegalArgumentException("a keyed read returns its rows with their origins");
        }
        return read(end, maxRows, rowSink, null);
    }

    /**
     * As {@link #read(Map, int)} for a keyed reader, handing each record to {@code recordSink} as it
     * is read (its origin, and its row or null for a tombstone); the batch returned counts the rows but holds none.
     */
    public TopicBatch readKeyed(Map<Integer, Long> end, int maxRows, BiConsumer<RecordOrigin, Object[]> recordSink) {
        if (!keyed) {
            throw new IllegalArgumentException("an unkeyed read has no record origins");
        }
        return read(end, maxRows, null, recordSink);
    }

    private TopicBatch read(Map<Integer, Long> end, int maxRows, Consumer<Object[]> rowSink, BiConsumer<RecordOrigin, Object[]> recordSink) {
        Map<Integer, Long> start = positions();
        rowsOf.startBatch(); // a join's table, read again when it has a new version
        Map<Integer, Long> accepted = new TreeMap<>(start); // next offset after the last record taken
        List<Object[]> rows = new ArrayList<>();
        List<RecordOrigin> origins = keyed && recordSink == null ? new ArrayList<>() : null;
        long markers = 0;
        long count = 0;
        boolean full = false;
        long lastProgress = System.currentTimeMillis();
        consumer.resume(partitions);
        while (!full) {
            List<TopicPartition> open = assigned.open(end);
            if (open.isEmpty()) {
                break;
            }
            consumer.pause(partitions.stream().filter(tp -> !open.contains(tp)).toList());
            ConsumerRecords<byte[], byte[]> records;
            try {
                records = consumer.poll(POLL);
            } catch (OffsetOutOfRangeException e) {
                if (sources.isIdentity()) {
                    throw assigned.dataLoss(e);
                }
                // retention deleted records while the batch read: refused, or skipped and counted (failOnDataLoss)
                long skipped = sources.dropLost(consumer, partitions, sources.subscription().failOnDataLoss());
                if (skipped == 0) {
                    throw assigned.dataLoss(e); // not below the earliest offset: past the end, as no retention explains
                }
                lost += skipped;
                continue;
            }
            if (!records.isEmpty()) {
                lastProgress = System.currentTimeMillis();
            } else if (System.currentTimeMillis() - lastProgress > STALL_MS) {
                // a Kafka timeout as the cause: the service's run loop retries the batch (from the table's offsets)
                String stalled = "delta sink: topic " + topic + " stalled: positions " + positions()
                        + " did not reach the committed end offsets " + end + " in " + STALL_MS / 1000 + " s; is the broker reachable?";
                throw SinkErrors.stalled(stalled);
            }
            for (ConsumerRecord<byte[], byte[]> r : records) {
                int number = sources.of(r.topic(), r.partition());
                if (r.offset() >= end.getOrDefault(number, 0L) || full) {
                    continue;
                }
                accepted.put(number, r.offset() + 1);
                if (r.headers().lastHeader(Topics.MARKER_HEADER) != null) {
                    markers++;
                    continue;
                }
                if (keyed) {
                    boolean tombstone = r.value() == null && r.key() != null && rowsOf.tombstonesDelete();
                    RecordOrigin origin = new RecordOrigin(number, r.offset(), r.timestamp(), tombstone ? r.key() : null);
                    if (tombstone) {
                        count++;
                        if (recordSink != null) {
                            recordSink.accept(origin, null);
                        } else {
                            origins.add(origin);
                            rows.add(null);
                        }
                    } else if (recordSink != null) {
                        count += rowsOf.parse(r, row -> recordSink.accept(origin, row));
                    } else {
                        count += rowsOf.parse(r, row -> {
                            origins.add(origin);
                            rows.add(row);
                        });
                    }
                } else {
                    count += rowsOf.parse(r, rowSink != null ? rowSink : rows::add);
                }
                full = maxRows > 0 && count >= maxRows;
            }
        }
        Map<Integer, Long> batchEnd = new TreeMap<>();
        for (TopicPartition tp : partitions) {
            int p = sources.of(tp);
            // read to the end: the end offset (past commit markers); cut short by maxRows: right after the last record taken
            long batchEndOffset = full ? accepted.get(p) : end.getOrDefault(p, accepted.get(p));
            batchEnd.put(p, batchEndOffset);
            consumer.seek(tp, batchEndOffset);
        }
        consumer.resume(partitions);
        rowsOf.flush(); // the batch's dead letters are in their topic before it commits
        return new TopicBatch(rows, start, batchEnd, markers, origins, count);
    }

    /** Checks the rows of later records against the table's CHECK constraints {@code c} ({@link TableConstraints}). */
    public void constraints(TableConstraints c) {
        rowsOf.constraints(c);
    }

    /** Reads the rows of later records as {@code json} does (the sink's schema grew). */
    public void rowJson(RowJson json) {
        rowsOf.rowJson(json);
    }

    @Override
    public void close() {
        TopicTrim.await(trim);
        rowsOf.close();
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
        consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
    }
}
