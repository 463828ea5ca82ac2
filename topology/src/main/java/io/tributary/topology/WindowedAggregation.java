package io.tributary.topology;

import io.tributary.schema.Topics;
import io.tributary.topology.internal.BoundedRocksDb;
import io.tributary.topology.internal.CommitHook;
import io.tributary.topology.internal.Names;
import io.tributary.topology.internal.SinkWiring;
import io.tributary.topology.internal.SourceWiring;
import io.tributary.topology.internal.TopologyErrors;
import io.tributary.topology.internal.WindowedAggregateProcessor;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;
import org.rocksdb.RocksDB;

/**
 * Spark's {@code groupBy(window(...), ...).agg(...)} (or {@code session_window(...)}) with a watermark and an
 * output mode, as a Kafka Streams topology (Processor API) over the pipeline's events topic.
 *
 * <p>It relies on the watermark markers file-ingest writes to every partition of the events topic
 * at the end of each batch ({@link io.tributary.schema.Topics}): a row is late when its window
 * ended at or before the watermark of the last marker before it (the previous batch's); at a
 * marker the output mode writes its rows (append: windows that ended at or before the marker's
 * watermark, then purged; update: rows changed in the batch, then windows past the watermark
 * purged; complete: every row, nothing purged). The marker is then forwarded to the results
 * topic, on the same partition as the task's results, so a sink knows the batch is complete.
 *
 * <p>Events: a record holds one or more rows ({@link io.tributary.schema.RowPack}). Results
 * topic: no key, value = up to 1000 rows of {@link AggregateSpec#outputSchema()} as JSON lines
 * ({@link io.tributary.schema.RowPack}; a sink upserts by the rows' window and group-by columns), or in binary
 * ({@link io.tributary.schema.RowBinary}, header {@code tributary.rows}: the schema) when the config asks for it,
 * partition = input partition mod the results topic's partition count. Late-rows topic
 * (optional): key = the events record's key (null), value = {@code {"row":{...},"window":{"start","end"},"eventTime","watermark","latenessMs",...}},
 * one record per (row, window) dropped.
 */
public final class WindowedAggregation {
    /**
     * The prefix of node and store names; changelog topics are {@code <application.id>-aggregate-windows-changelog}
     * ({@code -sessions-changelog} over session windows) and {@code -meta-changelog}.
     */
    public static final String NAME = "aggregate";

    private WindowedAggregation() {
    }

    /**
     * Loads RocksDB's native library (the open windows' store) on a thread of its own, so that
     * the stream thread finds it loaded: RocksDB copies its 15 MB library out of its jar into a
     * temporary file at every start, which took 0.1 to 0.3 s on the stream thread before its first
     * window could open. Call it as the application is made (not while the broker starts: that
     * took 0.3 s longer); a failure is left for the store's own load to report.
     */
    public static void loadNativeLibraryAhead() {
        Thread t = new Thread(() -> {
            try {
                RocksDB.loadLibrary();
            } catch (RuntimeException | LinkageError e) {
                // the stream thread's own load fails the same way and says so
            }
        }, "tributary-rocksdb-load");
        t.setDaemon(true);
        t.start();
    }

    /**
     * The topology; has no side effects.
     *
     * @param lateRowsTopic where late rows go (Tributary's {@code lateRows: deadLetter}), or null to only count them
     */
    public static Topology build(AggregateSpec spec, String eventsTopic, String resultsTopic, String lateRowsTopic) {
        return build(spec, eventsTopic, resultsTopic, lateRowsTopic, WindowedAggregateProcessor.CLOSE_CHUNK);
    }

    /** As above, closing at most about {@code closeChunk} windows per transaction (tests use a small one). */
    static Topology build(AggregateSpec spec, String eventsTopic, String resultsTopic, String lateRowsTopic, long closeChunk) {
        return build(spec, eventsTopic, resultsTopic, lateRowsTopic, closeChunk, null, false);
    }

    /**
     * As above, over a Kafka source's topics when {@code kafka} is given ({@link KafkaInput}), the result rows in binary when
     * {@code binaryResults} ({@link AggregationConfig#binaryResults()}).
     */
    static Topology build(AggregateSpec spec, String eventsTopic, String resultsTopic, String lateRowsTopic, long closeChunk,
                          SourceWiring.Kafka kafka, boolean binaryResults) {
        if (spec == null || eventsTopic == null || resultsTopic == null) {
            throw TopologyErrors.incompleteTopology();
        }
        Names names = new Names(NAME);
        boolean late = lateRowsTopic != null;
        Topology t = new Topology();
        String from = SourceWiring.source(t, names, eventsTopic, kafka);
        t.addProcessor(names.processor(), () -> new WindowedAggregateProcessor(spec, names, late, closeChunk, binaryResults), from);
        t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(spec.isSession() ? names.sessionsStore()
                : names.windowsStore()), Serdes.Bytes(), Serdes.ByteArray()).withCachingDisabled(), names.processor());
        t.addStateStore(CommitHook.builder(names.commitHook()), names.processor());
        // a few counters: in memory, restored from its changelog at every start (a RocksDB instance
        // of its own cost its opening on the stream thread before the first row)
        t.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(names.metaStore()),
                Serdes.String(), Serdes.Long()).withCachingDisabled(), names.processor());
        SinkWiring.results(t, names, resultsTopic);
        if (late) {
            t.addSink(names.lateRowsSink(), lateRowsTopic, new ByteArraySerializer(), new ByteArraySerializer(), names.processor());
        }
        return t;
    }

    /**
     * Kafka Streams settings for the aggregation: {@code exactly_once_v2}, the state directory,
     * static membership (a restart rejoins at once instead of waiting for the old member's
     * session to expire), a 10 s session timeout, and for throughput (docs/performance.md):
     * <ul>
     *   <li>a 60 s commit interval (Kafka Streams refuses one above the transaction timeout): the
     *       processor asks for a commit itself at the end of each batch (a marker), when its map of
     *       open windows outgrows its budget, and 15 s after it forwarded a late row, so the
     *       interval mostly commits a task in the middle of a long batch. Each commit writes the
     *       map of open windows into RocksDB and the changelog, so with a 1 s interval every
     *       window would be written once and deleted once; a window that a batch opens and a
     *       marker of the same ingest transaction closes (an availableNow run's last data batch
     *       carries its no-data batch) is emitted from the map and never stored.
     *       The stage that waits for the committed offsets to reach the end does not wait for the
     *       interval: it recognises the transaction marker left after a batch's marker;
     *   <li>no record cache: the stores have none, the processor keeps the open windows and its
     *       counters in memory and writes them at each commit itself;
     *   <li>RocksDB's native memory bounded for all the stores together ({@link BoundedRocksDb});
     *   <li>a 60 s transaction timeout: a transaction holds up to a million windows written to the
     *       store (the map's window budget) and a closing's step of about 200,000 windows written
     *       out and removed, some seconds of work that a loaded machine stretches many times; past
     *       the timeout the broker would abort it and fence the producer, and Streams restart the
     *       task again and again. Longer is not better: a process killed mid-transaction leaves it
     *       open until then;
     *   <li>larger producer batches and polls (the changelog and results records are small);
     *   <li>fetches that wait at most 50 ms at the broker for new events (Kafka's default is 500
     *       ms): closing the consumer waits for its fetch in flight, which would make the end of
     *       every availableNow run up to half a second longer; idle, it costs about 20 empty fetches a second.
     * </ul>
     *
     * @param applicationId names the consumer group, the transactional ids and the changelog topics
     * @param stateDir where RocksDB keeps the open windows; keep it next to the broker's data
     * @param instanceId a stable id for this process (static membership), e.g. the pipeline name
     */
    public static Properties streamsConfig(String applicationId, String bootstrapServers, Path stateDir, String instanceId) {
        if (applicationId == null || bootstrapServers == null || stateDir == null || instanceId == null) {
            throw TopologyErrors.incompleteStreamsSettings();
        }
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toAbsolutePath().toString());
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 60_000);
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0L);
        p.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDb.class);
        p.put(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG), 60_000);
        p.put(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), Topics.ROW_BATCH_BYTES);
        p.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 5);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG), 10_000);
        p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), 50);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), instanceId);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 10_000);
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        return p;
    }
}
