package io.tributary.service.internal;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * On the embedded broker this process has just started: asks it at once, on a thread of its own, for
 * the coordinator of a transactional id, so that the broker creates and loads its transaction log
 * while the stages are still being built. A new broker creates {@code __transaction_state} at the
 * first such request (a commit of its metadata log) and then loads it; the ingest's
 * {@code initTransactions}, sent once the pipeline's configs and its producer are made, would
 * otherwise be the first to ask and wait for both. Only a look: it describes an id no stage uses,
 * which fences nothing and writes nothing; its answer ("no such id") is not read.
 */
final class TransactionsWarmup implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionsWarmup.class);
    /** The transactional id described: none of a pipeline's. */
    static final String PROBE_ID = "tributary-warmup";
    private static final long MAX_WAIT_MS = 30_000;
    /** How long a close waits for the look to end before it interrupts it (it ends within a run's first second). */
    private static final long CLOSE_WAIT_MS = 5_000;

    private final Thread thread;

    private TransactionsWarmup(Thread thread) {
        this.thread = thread;
    }

    /** Starts the look at the broker of {@code clientProps} (bootstrap.servers and the clients' settings). */
    static TransactionsWarmup start(Map<String, Object> clientProps) {
        Map<String, Object> props = new HashMap<>(clientProps);
        props.put("client.id", "tributary-warmup");
        Thread t = new Thread(() -> ask(props), "tributary-warmup");
        t.setDaemon(true);
        t.start();
        return new TransactionsWarmup(t);
    }

    private static void ask(Map<String, Object> props) {
        long t0 = System.nanoTime();
        try (Admin admin = Admin.create(props)) {
            admin.describeTransactions(List.of(PROBE_ID)).all().get(MAX_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            // the expected end: the coordinator, loaded, knows no such id
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (TimeoutException | RuntimeException e) {
            LOG.debug("the transaction coordinator's warm-up ended without an answer: {}", e.toString());
        }
        LOG.debug("the transaction coordinator answered in {} ms", (System.nanoTime() - t0) / 1_000_000);
    }

    /** Whether the pipeline's stages use transactions: every pipeline but a Kafka source read by the sink alone. */
    static boolean wanted(io.tributary.service.spec.PipelineSpec spec) {
        return !io.tributary.service.spec.Settings.kafkaSource(spec::has) || AggregationParts.aggregates(spec) || DedupParts.given(spec);
    }

    /** Waits for the look to end (it has, but for a run stopped within its first second), so that no client outlives the broker. */
    @Override
    public void close() {
        try {
            thread.join(CLOSE_WAIT_MS);
            if (thread.isAlive()) {
                thread.interrupt();
                thread.join(CLOSE_WAIT_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
