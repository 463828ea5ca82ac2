package io.tributary.service.internal;

import io.tributary.schema.Progress;
import io.tributary.schema.TributaryException;
import io.tributary.storage.StorageException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import java.util.function.BooleanSupplier;
import org.apache.kafka.common.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the run loop does when a stage's batch fails. A failure Kafka calls retriable (the broker
 * unreachable, a leader moving, a request timing out) and an object-storage outage (no
 * connection, a timeout, 5xx or throttling after the S3 client's own retries:
 * {@link StorageException#outage}) are waited out: the batch is tried again after a growing pause,
 * for up to {@link #GIVE_UP_AFTER}; every stage leaves a failed batch so that trying again is exact
 * (the ingest aborts its transaction, the sink goes back to the table's offsets). Anything else (a
 * bad record under {@code onBadRecord: fail}, a refused table, a fenced producer, credentials
 * refused) fails the run at once.
 */
final class Recovery {
    private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);
    static final Duration GIVE_UP_AFTER = Duration.ofMinutes(5);
    private static final long FIRST_PAUSE_MS = 250;
    private static final long MAX_PAUSE_MS = 5_000;

    private Recovery() {
    }

    /** Hears of a stage's batch failing and being tried again, and of the try that succeeded. */
    interface Retries {
        void retrying(String stage, String error, long firstFailureMs, int attempts);

        void recovered(String stage);
    }

    static Optional<Progress> runBatch(Stage stage, BooleanSupplier stopping, Retries retries) throws Exception {
        long firstFailure = -1;
        long pause = FIRST_PAUSE_MS;
        int attempts = 0;
        while (true) {
            try {
                Optional<Progress> p = stage.runBatch();
                if (attempts > 0 && retries != null) {
                    retries.recovered(stage.name());
                }
                return p;
            } catch (Stage.OpenFailed e) {
                throw e.unwrap(); // the run fails as if the pipeline had not opened
            } catch (RuntimeException e) {
                if (!retriable(e) || stopping.getAsBoolean()) {
                    throw e;
                }
                long now = System.currentTimeMillis();
                firstFailure = firstFailure < 0 ? now : firstFailure;
                if (now - firstFailure > GIVE_UP_AFTER.toMillis()) {
                    throw ServiceErrors.stageKeptFailing(stage.name(), GIVE_UP_AFTER.toMinutes(), e.getMessage(), e);
                }
                attempts++;
                if (retries != null) {
                    retries.retrying(stage.name(), rootMessage(e), firstFailure, attempts);
                }
                LOG.warn("stage {}: {}: trying the batch again in {} ms", stage.name(), why(e), pause);
                Thread.sleep(pause);
                pause = Math.min(MAX_PAUSE_MS, pause * 2);
            }
        }
    }

    /**
     * Opens a stage, trying again as {@link #runBatch} does when the opening fails the same way (Kafka
     * slow to answer a stage's first requests, a broker still starting): a stage that cannot open yet
     * is a batch that waits, not a failed run. Anything else fails the opening at once, and so does
     * a failure of work this opening waited for on another thread (the pipeline's topics), which that
     * thread reports, and a stop asked for meanwhile.
     */
    static <T> T open(String stage, BooleanSupplier stopping, Callable<T> open) throws Exception {
        long firstFailure = -1;
        long pause = FIRST_PAUSE_MS;
        while (true) {
            try {
                return open.call();
            } catch (RuntimeException e) {
                long now = System.currentTimeMillis();
                firstFailure = firstFailure < 0 ? now : firstFailure;
                if (!retriable(e) || e instanceof CompletionException || stopping.getAsBoolean()
                        || now - firstFailure > GIVE_UP_AFTER.toMillis()) {
                    throw e;
                }
                LOG.warn("stage {} could not open: {}: trying again in {} ms", stage, why(e), pause);
                Thread.sleep(pause);
                pause = Math.min(MAX_PAUSE_MS, pause * 2);
            }
        }
    }

    /** Whether Kafka says the failure may pass, anywhere in the cause chain, or object storage did not answer. */
    static boolean retriable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RetriableException) {
                return true;
            }
        }
        return StorageException.outage(e);
    }

    /** What failed, for the log: an object store's outage, a stage's own message where it names what does not answer (a schema registry), else the root cause. */
    private static String why(RuntimeException e) {
        if (StorageException.outage(e)) {
            return rootMessage(e) + "; object storage does not answer";
        }
        return e instanceof TributaryException ? e.getMessage() : rootMessage(e) + "; Kafka may be unreachable";
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }
}
