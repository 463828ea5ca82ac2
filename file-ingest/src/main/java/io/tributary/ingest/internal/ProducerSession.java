package io.tributary.ingest.internal;

import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.IngestedFile;
import io.tributary.ingest.internal.format.NewColumnsException;
import io.tributary.kafka.ProducerFailure;
import io.tributary.schema.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ingest's hold on Kafka: the transactional producer that owns the pipeline's transactional
 * id, the state read from the ingest log once its last transaction settled, the schema it goes on
 * with, and the {@link BatchRunner} that publishes with them. A new session of the same producer
 * ({@link #reconnect}) fences the old one and reads the state again.
 */
public final class ProducerSession {
    private static final Logger LOG = LoggerFactory.getLogger(ProducerSession.class);
    /** The ingest producer's {@code buffer.memory} unless the spec's {@code kafka:} settings give one: 8 MiB, eight row batches. */
    static final long INGEST_BUFFER_BYTES = 8L << 20;

    private IngestConfig config;
    private final Map<String, Object> clientProps;
    private final FileDiscovery discovery;
    private final ReadAhead readAhead;
    private KafkaProducer<byte[], byte[]> producer;
    private IngestState state;
    private BatchRunner runner;

    /** @param readAhead what was read of the input before Kafka was reached, or null */
    public ProducerSession(IngestConfig config, Map<String, Object> clientProps, FileDiscovery discovery, ReadAhead readAhead) {
        this.config = config;
        this.clientProps = Map.copyOf(clientProps);
        this.discovery = discovery;
        this.readAhead = readAhead;
    }

    /** The config the ingest goes on with: its schema adopted from the ingest log, or grown by a batch's new columns. */
    public IngestConfig config() {
        return config;
    }

    public IngestState state() {
        return state;
    }

    public BatchRunner runner() {
        return runner;
    }

    /** A new producer takes the transactional id: {@code initTransactions()} fences an older one. */
    public void startProducer() {
        producer = new KafkaProducer<>(producerProps(config, clientProps), new ByteArraySerializer(), new ByteArraySerializer());
        try {
            producer.initTransactions();
        } catch (RuntimeException e) {
            producer.close(Duration.ZERO);
            throw e;
        }
    }

    /** Reads the state from the ingest log and starts a runner on it. */
    public void readState() {
        state = IngestLogReader.read(clientProps, config.ingestLogTopic());
        if (readAhead != null) {
            readAhead.forget(state.files().stream().map(IngestedFile::path).collect(Collectors.toSet()));
        }
        state.forget(config.maxFileAge());
        if (readAhead != null) {
            readAhead.forgetIf(state::tooOld); // never taken: they would hold their rows
        }
        adoptRecordedSchema();
        runner = new BatchRunner(config, producer, discovery, readAhead, transactionTimeoutMs());
    }

    /** addNewColumns: the schema the ingest log recorded (grown by earlier batches) is the one to go on with. */
    private void adoptRecordedSchema() {
        IngestConfig adopted = SchemaGrowth.adoptRecorded(config, state.schemaDdl());
        if (adopted != config) {
            config = adopted;
            LOG.info("ingest of pipeline {}: reading with the schema recorded in {}: {}", config.pipeline(), config.ingestLogTopic(),
                    config.schema().toDdl());
        }
    }

    /**
     * A new producer takes the transactional id ({@code initTransactions()} aborts the transaction
     * an earlier producer left open, or completes one it had prepared to commit) and the state is
     * read from the ingest log once that transaction has settled.
     */
    public void reconnect() {
        producer.close(Duration.ZERO);
        startProducer();
        readState();
    }

    /** The batch's {@code files} have columns the schema lacks: the schema grows by them ({@link SchemaGrowth}) and a runner starts on it. */
    public void grow(List<FileStat> files, NewColumnsException found) {
        config = SchemaGrowth.grow(config, discovery, files, found, state.nextBatchId());
        runner = new BatchRunner(config, producer, discovery, readAhead, transactionTimeoutMs());
    }

    /** The producer's {@code transaction.timeout.ms}: 5 minutes unless the spec's {@code kafka:} settings give one. */
    public long transactionTimeoutMs() {
        return ProducerFailure.transactionTimeoutMs(producerProps(config, clientProps));
    }

    /** Closes the producer, if one started. */
    public void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }

    static Map<String, Object> producerProps(IngestConfig config, Map<String, Object> clientProps) {
        Map<String, Object> p = new HashMap<>();
        p.put("linger.ms", 5);
        p.put("batch.size", Topics.ROW_BATCH_BYTES);
        // the producer keeps every batch buffer it frees for the next batch, up to buffer.memory: Kafka's 32 MiB default
        // stayed on the heap for the whole run once a long batch had filled it (a 10M-row upsert held 39 MiB more
        // bytes at the sink's read than with 4 MiB); eight batches in flight keep the broker as busy
        p.put("buffer.memory", INGEST_BUFFER_BYTES);
        p.put("compression.type", Topics.ROW_COMPRESSION);
        p.put("transaction.timeout.ms", 300_000);
        p.put("client.id", "tributary-" + config.pipeline() + "-ingest");
        p.putAll(clientProps);
        p.put("transactional.id", config.transactionalId());
        p.put("enable.idempotence", true);
        p.put("acks", "all");
        return p;
    }
}
