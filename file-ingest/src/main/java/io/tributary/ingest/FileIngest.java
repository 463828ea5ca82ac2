package io.tributary.ingest;

import io.tributary.ingest.internal.BatchOutcome;
import io.tributary.ingest.internal.BatchPlanner;
import io.tributary.ingest.internal.FileDiscovery;
import io.tributary.ingest.internal.FileResult;
import io.tributary.ingest.internal.IngestErrors;
import io.tributary.ingest.internal.IngestLogReader;
import io.tributary.ingest.internal.IngestState;
import io.tributary.ingest.internal.ProducerSession;
import io.tributary.ingest.internal.ProgressFactory;
import io.tributary.ingest.internal.ReadAhead;
import io.tributary.ingest.internal.SkipTally;
import io.tributary.ingest.internal.SourceCleaner;
import io.tributary.ingest.internal.TopicSetup;
import io.tributary.ingest.internal.format.NewColumnsException;
import io.tributary.kafka.ProducerFailure;
import io.tributary.schema.CrashPoint;
import io.tributary.schema.PipelineStage;
import io.tributary.schema.Progress;
import io.tributary.schema.TributaryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file-ingest stage, Spark's file source publishing to Kafka exactly once: each
 * {@link #runBatch()} takes the input folder's new files and publishes their rows, their
 * ingest-log records and the stage's state in one Kafka transaction.
 *
 * <p>On construction it takes over the pipeline's transactional id (an older instance is
 * fenced, its open transaction aborted) and reads the ingest-log topic to learn which files are
 * done. One instance per pipeline at a time; not thread-safe. With {@link CleanSource} archive
 * or delete, a batch's files are moved or deleted once it committed, and the first batch of a run
 * first cleans the ingested files a run that died left behind.
 */
public final class FileIngest implements PipelineStage {
    private static final Logger LOG = LoggerFactory.getLogger(FileIngest.class);
    /**
     * How many times a batch runs, each time on a new producer, when Kafka leaves the producer unusable without
     * another having taken over ({@link ProducerFailure#REPLACE}); then the batch fails with the last error.
     */
    static final int PRODUCER_ATTEMPTS = 3;

    /** The producer, the state read from the ingest log, the config gone on with and the batch runner. */
    private final ProducerSession session;
    private final FileDiscovery discovery;
    private final BatchPlanner planner;
    /** A batch failed: before the next, a new producer takes over and the state is read again. */
    private boolean reconnect;
    /** A batch is being published: a failure now is the producer's or the batch's, and leaves the producer to replace. */
    private boolean publishing;
    private final ProgressFactory progress;
    private final SourceCleaner cleaner;
    private boolean leftoversCleaned;
    private int cleanedNotReported; // files cleaned since the last progress (leftovers of a dead run)
    private List<ChangedFile> changedFiles = List.of();
    private final SkipTally skips;
    private long lastTriggerMs = -1;
    private long lastDataMs = System.currentTimeMillis(); // wall clock of the last batch with files
    private boolean closed;
    private final ReadAhead readAhead;
    private final boolean endsWhenIngested;
    private final boolean boundedRun;
    /** A no-data batch published with the last data batch, whose progress the next {@link #runBatch()} returns. */
    private BatchOutcome publishedNoData;

    /**
     * Connects with {@code kafkaClientProps} (bootstrap.servers, security...: passed to the
     * clients untouched; {@code transactional.id} comes from the config), fences any older
     * ingest of this pipeline and loads its progress from the ingest-log topic.
     */
    public FileIngest(IngestConfig config, Map<String, Object> kafkaClientProps) {
        this(builder(config, kafkaClientProps));
    }

    /** An ingest of {@code config} through {@code kafkaClientProps}, to be set further: what it read ahead, how the run ends. */
    public static FileIngestBuilder builder(IngestConfig config, Map<String, Object> kafkaClientProps) {
        return new FileIngestBuilder(config, kafkaClientProps);
    }

    FileIngest(FileIngestBuilder b) {
        IngestConfig config = b.config;
        Map<String, Object> kafkaClientProps = b.kafkaClientProps;
        FilesReadAhead readAhead = b.readAhead;
        Runnable awaitTopics = b.awaitTopics;
        this.endsWhenIngested = b.endsWhenIngested;
        this.boundedRun = b.boundedRun;
        this.readAhead = readAhead == null ? null : readAhead.reading();
        this.discovery = FileDiscovery.of(config);
        this.session = new ProducerSession(config, kafkaClientProps, discovery, this.readAhead);
        try {
            session.startProducer();
            if (awaitTopics != null) {
                awaitTopics.run();
            }
            TopicSetup.requireTopics(kafkaClientProps, config);
            session.readState();
        } catch (RuntimeException e) {
            close();
            if (e instanceof TributaryException) {
                throw e;
            }
            throw IngestErrors.couldNotStart(config.pipeline(), e.getMessage(), e);
        }
        this.planner = new BatchPlanner(config, discovery);
        this.progress = new ProgressFactory(config, UUID.randomUUID().toString());
        this.cleaner = new SourceCleaner(config.cleanSource(), discovery);
        this.skips = new SkipTally(discovery, config.fileMinAge(), config.fileSettleTime());
        IngestState state = session.state();
        LOG.info("ingest of pipeline {}: {} files already ingested, next batch {}{}", config.pipeline(), state.files().size(),
                state.nextBatchId(), config.hasWatermark() ? ", watermark " + ProgressFactory.format(state.watermarkMs()) : "");
    }

    /**
     * After a failed batch (the broker gone, a request timed out): the producer may be unusable
     * (an abort or a commit that timed out must be retried before anything else) and whether a
     * commit that timed out took effect is unknown. A new producer settles the old transaction and
     * the ingest log says which files are done, so a batch that did commit is never published again.
     */
    private void reconnect() {
        session.reconnect();
        reconnect = false;
        leftoversCleaned = false; // a batch whose commit timed out but took effect still has its files to clean
        LOG.info("ingest of pipeline {}: connected again after a failed batch; {} files ingested, next batch {}",
                config().pipeline(), session.state().files().size(), session.state().nextBatchId());
    }

    /**
     * Runs one batch: the next new files within the per-trigger limits, or, when there are none
     * and the last batch moved the watermark, Spark's no-data batch that carries the new
     * watermark. Empty when there was nothing to do.
     *
     * @throws TributaryException when a bad record stops the batch ({@code onBadRecord: fail}),
     *     a file cannot be read, or Kafka refuses the transaction; nothing of the batch is then published
     */
    @Override
    public String stageName() {
        return config().pipeline() + "/ingest";
    }

    @Override
    public Optional<Progress> runBatch() {
        if (closed) {
            throw IngestErrors.closed(config().pipeline());
        }
        for (int attempt = 1; ; attempt++) {
            if (reconnect) {
                reconnect(); // a Kafka error here leaves reconnect set: the next call tries again
            }
            try {
                return runOnce();
            } catch (KafkaException | TributaryException e) {
                if (!publishing) {
                    throw e; // listing, cleaning: the producer and the state are as they were
                }
                publishing = false;
                ProducerFailure failure = session.runner().failure(e);
                if (failure == ProducerFailure.FENCED) {
                    close();
                    throw e;
                }
                reconnect = true;
                if (failure == ProducerFailure.OTHER) {
                    throw e;
                }
                long batchId = session.state().nextBatchId();
                if (attempt == PRODUCER_ATTEMPTS) {
                    throw IngestErrors.producerKeptFailing(config().pipeline(), batchId, attempt, session.runner().openMs(),
                            session.runner().transactionTimeoutMs(), ProducerFailure.describe(e), e);
                }
                LOG.warn("ingest of pipeline {}: batch {}: the producer failed ({}); a new producer takes transactional.id {} over and"
                        + " the batch runs again from its start (attempt {} of {})", config().pipeline(), batchId, ProducerFailure.describe(e),
                        config().transactionalId(), attempt + 1, PRODUCER_ATTEMPTS);
            }
        }
    }

    private Optional<Progress> runOnce() {
        long startMs = System.currentTimeMillis();
        long t0 = System.nanoTime();
        IngestState state = session.state();
        if (!leftoversCleaned) {
            cleanedNotReported += cleaner.cleanLeftovers(state); // files a run that died published but did not clean
            leftoversCleaned = true;
        }
        if (publishedNoData != null) {
            // Spark's no-data batch, published with the run's last data batch: only its progress is left
            BatchOutcome o = publishedNoData;
            publishedNoData = null;
            return Optional.of(report(o, BatchPlanner.Plan.NONE, startMs, t0, 0));
        }
        BatchPlanner.Plan plan = planner.plan(state, startMs, boundedRun);
        changedFiles = List.copyOf(plan.changed());
        skips.saw(plan);
        long listMs = (System.nanoTime() - t0) / 1_000_000;
        boolean lastOfRun = endsWhenIngested && plan.takesAll();
        BatchOutcome outcome = null;
        publishing = true;
        while (!plan.files().isEmpty()) {
            try {
                outcome = session.runner().runData(plan.files(), state, lastOfRun);
                break;
            } catch (NewColumnsException e) {
                session.grow(plan.files(), e);
            }
        }
        if (outcome != null) {
            publishedNoData = session.runner().takeFollowingNoData();
            lastDataMs = startMs;
        } else if (config().hasWatermark()
                && state.nextWatermarkMs(config().watermarkDelay().toMillis()) > state.watermarkMs()) {
            outcome = session.runner().runNoData(state, state.nextWatermarkMs(config().watermarkDelay().toMillis()));
        } else if (idleWatermark(startMs) > state.watermarkMs()) {
            LOG.info("no new file for {} s: closing the windows of the quiet stream (closeIdleWindowsAfter)",
                    (startMs - lastDataMs) / 1000);
            outcome = session.runner().runNoData(state, idleWatermark(startMs));
        }
        publishing = false;
        if (readAhead != null && plan.takesAll()) {
            readAhead.close(); // every new file listed was in this batch: what it still holds is of files gone since
        }
        if (outcome == null) {
            return Optional.empty();
        }
        return Optional.of(report(outcome, plan, startMs, t0, listMs));
    }

    private Progress report(BatchOutcome outcome, BatchPlanner.Plan plan, long startMs, long t0, long listMs) {
        log(outcome);
        skips.published(outcome);
        if (!cleaner.isOff() && !outcome.files().isEmpty()) {
            CrashPoint.reach(CrashPoint.INGEST_BEFORE_CLEAN);
            cleanedNotReported += cleaner.clean(outcome.files().stream().map(FileResult::file).toList());
        }
        int cleaned = cleanedNotReported;
        cleanedNotReported = 0;
        long totalMs = (System.nanoTime() - t0) / 1_000_000;
        long sinceLast = lastTriggerMs < 0 ? totalMs : startMs - lastTriggerMs;
        lastTriggerMs = startMs;
        return progress.batch(outcome, new ProgressFactory.Timing(startMs, sinceLast, listMs, totalMs,
                plan.heldBack().size(), plan.settling().size(), plan.changed().size(), cleaned, plan.leftForLater()));
    }

    /** The watermark an idle stream moves to, or Long.MIN_VALUE when the option is off or the stream is not idle yet. */
    private long idleWatermark(long nowMs) {
        IngestConfig config = config();
        IngestState state = session.state();
        if (config.closeIdleWindowsAfter() == null || state.maxEventTimeMs() == null
                || nowMs - lastDataMs < config.closeIdleWindowsAfter().toMillis()) {
            return Long.MIN_VALUE;
        }
        return state.maxEventTimeMs() + config.idleWatermarkAdvance().toMillis();
    }

    /**
     * What Spark prints for a trigger that found no new data (the quickstart's second run): the next batch
     * id with 0 rows. No batch runs and nothing is published; for the service to print when
     * {@link #runBatch()} returned empty.
     */
    @Override
    public Optional<Progress> idleProgress() {
        int cleaned = cleanedNotReported;
        cleanedNotReported = 0;
        IngestState state = session.state();
        return Optional.of(progress.idle(state.nextBatchId(), config().hasWatermark() ? state.watermarkMs() : null,
                System.currentTimeMillis(), 0, cleaned));
    }

    /**
     * What {@link #idleProgress()} prints for the first trigger of a new state that finds no file (batch 0, nothing
     * read), made without Kafka: for a run that finds an empty folder and nothing of its own yet to skip opening the
     * stage. {@code listMs} is the time the look at the folder took.
     */
    public static Progress idleOnNewState(IngestConfig config, long listMs) {
        return new ProgressFactory(config, UUID.randomUUID().toString()).idle(0, null, System.currentTimeMillis() - listMs, listMs, 0);
    }

    private void log(BatchOutcome o) {
        for (FileResult r : o.files()) {
            String bad = "";
            if (r.badRows() > 0) {
                bad = r.deadLettered() > 0
                        ? ", " + r.deadLettered() + " bad " + plural(r.deadLettered(), "line") + " sent to " + config().deadLetterTopic()
                        : ", " + r.badRows() + " bad " + plural(r.badRows(), "line") + " dropped";
            }
            if (r.skipped() > 0) {
                bad += ", " + r.skipped() + " Debezium " + plural(r.skipped(), "event") + " without a row skipped (tombstones, truncates)";
            }
            if (r.corruption() != null) {
                LOG.warn("{}. The rest of the file was skipped (source.files.ignoreCorruptFiles, as Spark's): {} {} before the"
                        + " break published (batch {}){}", r.corruption(), r.rows(), plural(r.rows(), "row"), o.batchId(), bad);
                continue;
            }
            LOG.info("file {}: {} {} published (batch {}){}", discovery.display(r.file().relPath()), r.rows(),
                    plural(r.rows(), "row"), o.batchId(), bad);
        }
        if (o.files().isEmpty()) {
            LOG.info("batch {}: no new files; watermark moved to {} (a no-data batch, as Spark runs one)",
                    o.batchId(), ProgressFactory.format(o.watermarkMs()));
        }
    }

    private static String plural(long n, String word) {
        return n == 1 ? word : word + "s";
    }

    /**
     * Ends the run's account of the files it left unread ({@link SkippedFiles}): changed after they
     * were ingested, held back by {@code fileMinAge} or still being written at the last batch, or
     * whose rest {@code ignoreCorruptFiles} skipped; logs them once (WARN).
     */
    public SkippedFiles endRun() {
        return skips.endRun(config().pipeline());
    }

    /** Ingested files that differ on disk now, as the last {@link #runBatch()} found them. */
    public List<ChangedFile> changedFiles() {
        return changedFiles;
    }

    /** Where this ingest stands: its files, next batch id, watermark, and files changed on disk. */
    public IngestStatus status() {
        return status(config(), session.state(), planner);
    }

    /**
     * The same as {@link #status()} for a pipeline that may be running elsewhere: reads the
     * ingest-log only, fences nothing.
     */
    public static IngestStatus readStatus(IngestConfig config, Map<String, Object> kafkaClientProps) {
        IngestState s = IngestLogReader.read(kafkaClientProps, config.ingestLogTopic());
        return status(config, s, new BatchPlanner(config, FileDiscovery.of(config)));
    }

    private static IngestStatus status(IngestConfig config, IngestState s, BatchPlanner planner) {
        List<ChangedFile> changed;
        try {
            changed = planner.changedFiles(s);
        } catch (TributaryException e) {
            changed = List.of(); // the folder is gone: nothing on disk to compare
        }
        SourceCleaner.Tally cleaned = new SourceCleaner(config.cleanSource(), FileDiscovery.of(config)).tally(s);
        return new IngestStatus(config.pipeline(), config.ingestLogTopic(), new ArrayList<>(s.files()), s.nextBatchId(),
                s.maxEventTimeMs(), config.hasWatermark() ? s.watermarkMs() : null, changed,
                config.cleanSource().name(), cleaned.cleaned(), cleaned.waiting(), s.schemaDdl());
    }

    /**
     * Creates the pipeline's topics when absent: events with {@code partitions} partitions, the
     * compacted ingest-log and the dead-letter topic with one each (the broker's replication).
     */
    public static void createTopics(Admin admin, IngestConfig config, int partitions) {
        TopicSetup.create(admin, config, partitions);
    }

    public IngestConfig config() {
        return session.config();
    }

    /**
     * Starts reading the oldest files of the input ahead of the ingest ({@link ReadAhead}), for an
     * events topic of {@code partitions} partitions, before Kafka is reached: for the
     * {@link #FileIngest(IngestConfig, Map, FilesReadAhead, Runnable) ingest} to come. Holds at most 64 MiB (an
     * eighth of the heap when that is less). Null when the folder cannot be listed.
     */
    public static FilesReadAhead readAhead(IngestConfig config, int partitions) {
        if (!config.joins().isEmpty()) {
            return null; // a join reads its table at the batch's start: rows are not joined ahead of it
        }
        if (config.transform().readsBatchTime()) {
            return null; // current_timestamp() and its cousins are the batch's start: rows are not made ahead of it
        }
        if (config.limit() >= 0) {
            return null; // LIMIT: the rows a file gives depend on the count its batch starts from
        }
        ReadAhead reading = ReadAhead.start(config, partitions, Math.min(64L << 20, Runtime.getRuntime().maxMemory() / 8));
        return reading == null ? null : new FilesReadAhead(reading);
    }

    /** Closes the producer; a batch never stays open between {@link #runBatch()} calls. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            if (readAhead != null) {
                readAhead.close();
            }
            session.close();
        }
    }
}
