package io.tributary.ingest.internal;

import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.IngestedFile;
import io.tributary.kafka.ProducerFailure;
import io.tributary.schema.CrashPoint;
import io.tributary.schema.Printable;
import io.tributary.schema.Topics;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one batch as one Kafka transaction: the rows of every file, their dead-letter records,
 * one ingest-log record per file, the state record (with the count of rows published so far, which the {@code sql:} query's
 * LIMIT counts from) and, when an aggregation reads the events, a
 * marker on every events partition (with the watermark, when there is one). A crash or an error at any point leaves the whole batch published or none
 * of it. A file that changed while it was read is left out (the transaction is aborted and run
 * again without it) and taken by a later batch.
 */
public final class BatchRunner {
    private static final Logger LOG = LoggerFactory.getLogger(BatchRunner.class);

    private final IngestConfig config;
    private final Producer<byte[], byte[]> producer;
    private final FirstSendError firstSendError = new FirstSendError();
    private final FilePublisher publisher;
    private final FileDiscovery discovery;
    private final ReadAhead readAhead;
    private final long transactionTimeoutMs;
    private BatchOutcome followingNoData;
    /** When the open transaction, or the last one that did not commit, began (System.nanoTime); -1 after a commit. */
    private long beganNanos = -1;

    /**
     * @param readAhead what was read of the input before its batch, or null
     * @param transactionTimeoutMs the producer's {@code transaction.timeout.ms}
     */
    public BatchRunner(IngestConfig config, Producer<byte[], byte[]> producer, FileDiscovery discovery, ReadAhead readAhead,
            long transactionTimeoutMs) {
        this.config = config;
        this.producer = producer;
        this.transactionTimeoutMs = transactionTimeoutMs;
        this.publisher = new FilePublisher(config, producer, firstSendError, discovery);
        this.discovery = discovery;
        this.readAhead = readAhead;
    }

    /**
     * Publishes {@code files} as the next batch and updates {@code state} once committed; null
     * when every file changed while it was read (nothing was published). With {@code thenNoData},
     * when this batch moves the watermark and no file was left out, Spark's no-data batch that follows it (batch id + 1, the
     * new watermark's markers and state) goes into the same transaction, after this batch's
     * markers: for the last data batch of a run that ends when the files are ingested
     * (availableNow), which Spark follows with that no-data batch anyway. The aggregation then
     * closes the windows this batch opened before it commits, so they never reach its state
     * store. {@link #takeFollowingNoData()} gives that batch's outcome.
     */
    public BatchOutcome runData(List<FileStat> chosen, IngestState state, boolean thenNoData) {
        followingNoData = null;
        long batchId = state.nextBatchId();
        config.joins().refresh(); // Spark's stream-static join: the static side as of the batch's start
        Instant start = Instant.now();
        config.transform().startBatch(start); // current_timestamp(): one value for the batch's rows
        config.joins().unionAll().forEach(b -> b.transform().startBatch(start)); // UNION ALL's other queries: the same start
        List<FileStat> files = new ArrayList<>(chosen);
        List<String> changed = new ArrayList<>();
        while (!files.isEmpty()) {
            long t0 = System.nanoTime();
            begin();
            List<FileResult> results = new ArrayList<>();
            try {
                Long published = state.rowsPublished();
                if (config.limit() >= 0) { // the rows LIMIT still lets through, counted from those committed
                    publisher.limitTo(config.limit() - rowsBefore(state));
                }
                for (FileStat f : files) {
                    results.add(publisher.publish(f, batchId, readAhead));
                }
                List<FileStat> moved = movedWhileRead(results);
                if (!moved.isEmpty()) {
                    abort();
                    for (FileStat f : moved) {
                        LOG.info("file {}: changed while it was being read; left for a later batch", discovery.display(f.relPath()));
                        changed.add(f.relPath());
                    }
                    files.removeAll(moved);
                    continue;
                }
                long t1 = System.nanoTime();
                Long max = maxEventTime(state.maxEventTimeMs(), results);
                Long wm = config.hasWatermark() ? state.nextWatermarkMs(config.watermarkDelay().toMillis()) : null;
                String now = Instant.now().toString();
                for (FileResult r : results) {
                    IngestedFile f = ingested(r, batchId);
                    producer.send(new ProducerRecord<>(config.ingestLogTopic(), IngestLogCodec.fileKey(f.path()), IngestLogCodec.file(f, now)),
                            firstSendError);
                }
                long watermark = wm == null ? state.watermarkMs() : wm;
                String schema = config.schemaHeader() == null ? null : config.schema().toDdl();
                if (schema != null && !schema.equals(state.schemaDdl())) {
                    // the grown schema is recorded with the first rows that carry it
                    producer.send(new ProducerRecord<>(config.ingestLogTopic(), IngestLogCodec.key(IngestState.SCHEMA_KEY),
                            IngestLogCodec.schema(schema, config.schema().equals(config.specSchema()) && config.schemaInferred() ? "inferred"
                                    : config.schemaEvolution().specName(), batchId)), firstSendError);
                }
                Long rows = published == null ? null : published + results.stream().mapToLong(FileResult::rows).sum();
                sendState(batchId + 1, max, watermark, rows);
                long next = wm == null ? watermark : IngestState.nextWatermarkMs(max, watermark, config.watermarkDelay().toMillis());
                boolean noData = thenNoData && changed.isEmpty() && next > watermark;
                int markers = config.marksBatches() ? sendMarkers(batchId, wm, max, noData) : 0;
                int noDataMarkers = 0;
                if (noData) {
                    sendState(batchId + 2, max, next, rows);
                    noDataMarkers = sendMarkers(batchId + 1, next, max, false);
                }
                producer.flush();
                CrashPoint.reach(CrashPoint.INGEST_BEFORE_COMMIT);
                producer.commitTransaction();
                beganNanos = -1;
                CrashPoint.reach(CrashPoint.INGEST_AFTER_COMMIT);
                long t2 = System.nanoTime();
                for (FileResult r : results) {
                    state.putFile(ingested(r, batchId));
                }
                state.forget(config.maxFileAge());
                if (schema != null) {
                    state.setSchemaDdl(schema);
                }
                state.setBatch(batchId + 1, max, watermark);
                state.setRowsPublished(rows);
                if (noData) {
                    state.setBatch(batchId + 2, max, next);
                    followingNoData = new BatchOutcome(batchId + 1, List.of(), next, noDataMarkers, List.of(), 0, 0);
                }
                return new BatchOutcome(batchId, results, wm, markers, changed, ms(t1 - t0), ms(t2 - t1));
            } catch (FileChangedException e) {
                abort();
                LOG.info("file {}: changed while it was being read; left for a later batch", discovery.display(e.file().relPath()));
                changed.add(e.file().relPath());
                files.remove(e.file());
            } catch (NoSuchFileException e) {
                abort();
                FileStat gone = files.stream().filter(f -> discovery.location(f).equals(e.getFile())).findFirst().orElse(null);
                if (gone == null) {
                    throw IngestErrors.fileGone(Printable.escape(e.getFile()), e);
                }
                LOG.info("file {}: removed before it could be read; skipped", discovery.display(gone.relPath()));
                files.remove(gone);
            } catch (IOException e) {
                abort();
                throw IngestErrors.cannotReadFile(batchId, Printable.escape(e.toString()), e);
            } catch (RuntimeException e) {
                throw failed(batchId, e);
            }
        }
        return null;
    }

    /**
     * The no-data batch the last {@link #runData} published with its
     * data batch, once; null when it published none.
     */
    public BatchOutcome takeFollowingNoData() {
        BatchOutcome o = followingNoData;
        followingNoData = null;
        return o;
    }

    /** Spark's no-data batch: only the new watermark {@code wm}, on every partition, and the state. */
    public BatchOutcome runNoData(IngestState state, long wm) {
        long batchId = state.nextBatchId();
        long t0 = System.nanoTime();
        try {
            begin();
            sendState(batchId + 1, state.maxEventTimeMs(), wm, state.rowsPublished());
            int markers = sendMarkers(batchId, wm, state.maxEventTimeMs(), false);
            long t1 = System.nanoTime();
            producer.commitTransaction();
            beganNanos = -1;
            state.setBatch(batchId + 1, state.maxEventTimeMs(), wm);
            return new BatchOutcome(batchId, List.of(), wm, markers, List.of(), ms(t1 - t0), ms(System.nanoTime() - t1));
        } catch (RuntimeException e) {
            throw failed(batchId, e);
        }
    }

    private List<FileStat> movedWhileRead(List<FileResult> results) {
        List<FileStat> moved = new ArrayList<>();
        for (FileResult r : results) {
            if (r.bytesRead() != r.file().size()
                    || !discovery.readsListedVersion(r.file()) && !r.file().sameAs(discovery.current(r.file()))) {
                moved.add(r.file());
            }
        }
        return moved;
    }

    private void sendState(long nextBatchId, Long max, long watermark, Long rowsPublished) {
        producer.send(new ProducerRecord<>(config.ingestLogTopic(), IngestLogCodec.key(IngestState.STATE_KEY),
                IngestLogCodec.state(nextBatchId, max, watermark, rowsPublished)), firstSendError);
    }

    /** The rows published before this batch, which LIMIT counts; refused when the ingest log holds no count. */
    private long rowsBefore(IngestState state) {
        if (state.rowsPublished() == null) {
            throw IngestErrors.limitWithoutCount(config.pipeline(), config.ingestLogTopic(), config.limit());
        }
        return state.rowsPublished();
    }

    /**
     * @param wm the batch's watermark, or null when the pipeline keeps none
     * @param maxEventTimeMs the largest event time so far (or null): the markers' timestamp without a watermark
     * @param followedByMarker the transaction holds the next batch's markers too (a no-data batch)
     */
    private int sendMarkers(long batchId, Long wm, Long maxEventTimeMs, boolean followedByMarker) {
        List<PartitionInfo> partitions = producer.partitionsFor(config.eventsTopic());
        byte[] value = IngestLogCodec.marker(batchId, wm, followedByMarker);
        long timestamp = wm != null ? wm : maxEventTimeMs != null ? Math.max(0, maxEventTimeMs) : 0;
        for (PartitionInfo p : partitions) {
            RecordHeaders headers = new RecordHeaders();
            headers.add(Topics.MARKER_HEADER, Topics.WATERMARK);
            producer.send(new ProducerRecord<>(config.eventsTopic(), p.partition(), timestamp, null, value, headers), firstSendError);
        }
        return partitions.size();
    }

    private static Long maxEventTime(Long before, List<FileResult> results) {
        Long max = before;
        for (FileResult r : results) {
            if (r.etCount() > 0 && (max == null || r.etMax() > max)) {
                max = r.etMax();
            }
        }
        return max;
    }

    private static IngestedFile ingested(FileResult r, long batchId) {
        return new IngestedFile(r.file().relPath(), r.file().size(), r.file().mtimeMs(), r.sha256(), r.rows(), r.badRows(), batchId,
                r.file().etag());
    }

    /** Aborts what is open, then says what went wrong; fencing closes nothing here. */
    private RuntimeException failed(long batchId, RuntimeException e) {
        if (failure(e) == ProducerFailure.FENCED) {
            return IngestErrors.fenced(batchId, config.pipeline(), config.transactionalId(), e.getMessage(), e);
        }
        abort();
        if (e instanceof TributaryException t) {
            return t;
        }
        if (e instanceof KafkaException) {
            // a record's own error says why: the commit's says only that the producer is in an error state
            Exception rejected = firstSendError.first();
            Throwable cause = rejected == null ? e : rejected;
            TributaryException t = IngestErrors.notPublished(batchId, e, rejected, cause);
            if (cause != e) {
                t.addSuppressed(e);
            }
            return t;
        }
        return e;
    }

    /**
     * What {@code e}, thrown by the last batch, means for the producer ({@link ProducerFailure}): fenced by another,
     * to be replaced, or neither. Reads how long the batch's transaction had been open when it failed.
     */
    public ProducerFailure failure(Throwable e) {
        return ProducerFailure.of(e, openMs(), transactionTimeoutMs);
    }

    /** How long ago the open transaction (or the last one, which failed) began; 0 after a commit. */
    public long openMs() {
        return beganNanos < 0 ? 0 : (System.nanoTime() - beganNanos) / 1_000_000;
    }

    /** The producer's {@code transaction.timeout.ms}. */
    public long transactionTimeoutMs() {
        return transactionTimeoutMs;
    }

    private void begin() {
        firstSendError.reset();
        beganNanos = System.nanoTime();
        producer.beginTransaction();
    }

    private void abort() {
        try {
            producer.abortTransaction();
        } catch (RuntimeException e) {
            LOG.debug("abortTransaction failed: {}", e.toString());
        }
    }

    private static long ms(long nanos) {
        return nanos / 1_000_000;
    }
}
