package io.tributary.service.internal;

import io.tributary.kafka.PartitionShare;
import io.tributary.schema.PipelineStage;
import io.tributary.schema.Progress;
import io.tributary.schema.StageShare;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source stage (file-ingest or delta-source) of one of several instances of a pipeline: one
 * instance is active, the others stand by. The lease is partition 0 of the source's own log topic
 * (the ingest log, one partition) in a consumer group of the pipeline's instances, so Kafka
 * decides who holds it ({@link PartitionShare}); the holder opens the source, whose
 * {@code initTransactions()} fences the last holder's producer and aborts the transaction it left
 * open, and reads the source's progress from its log, as a restart does. When the holder dies, the
 * group gives the lease to a standby after the session timeout ({@link PartitionShare#SESSION_TIMEOUT}).
 *
 * <p>A holder that loses the lease while it runs (it did not answer the group in time) closes its
 * source; if a batch of it is in flight, its transaction is fenced by the new holder and aborted,
 * never committed twice. One active source keeps the pipeline's single watermark and the
 * exactly-once file log as they are with one process.
 */
final class LeasedSource<T extends PipelineStage> implements PipelineStage {
    private static final Logger LOG = LoggerFactory.getLogger(LeasedSource.class);
    private static final int LEASE_PARTITION = 0;

    private final String name;
    private final PartitionShare share;
    private final Callable<T> open;
    private volatile T active;

    /**
     * @param name the stage's name, for the logs
     * @param logTopic the source's own log topic (one partition), whose partition 0 is the lease
     * @param open opens the source (fencing the last holder's producer)
     */
    LeasedSource(String name, Map<String, Object> clientProps, String group, String logTopic, String instanceId, Callable<T> open) {
        this.name = name;
        this.open = open;
        this.share = PartitionShare.join(clientProps, group, logTopic, instanceId);
    }

    @Override
    public String stageName() {
        return name;
    }

    /** Whether this instance is the active one. */
    @Override
    public Optional<StageShare> workShare() {
        return Optional.of(new StageShare(holdsLease() ? "active" : "standby", List.of(), List.of(), List.of()));
    }

    /** A batch of the source when this instance holds the lease; empty while it stands by. */
    @Override
    public Optional<Progress> runBatch() throws Exception {
        if (share.fencedBy() != null) {
            throw ServiceErrors.stageStopped(name, share.fencedBy());
        }
        share.lock().lock(); // the lease moves only between batches
        try {
            if (!share.owned().contains(LEASE_PARTITION)) {
                standBy("another instance holds the lease");
                return Optional.empty();
            }
            if (active == null) {
                long t0 = System.nanoTime();
                active = open.call();
                LOG.info("stage {}: this instance ({}) is the active one now (took over in {} ms)", name, share.instanceId(),
                        (System.nanoTime() - t0) / 1_000_000);
            }
            try {
                return active.runBatch();
            } catch (RuntimeException e) {
                if (fenced(e)) { // another instance took the lease while this one stalled: its batch was aborted
                    standBy("another instance took over (" + e.getMessage() + ")");
                    return Optional.empty();
                }
                throw e;
            }
        } finally {
            share.lock().unlock();
        }
    }

    private void standBy(String why) {
        T a = active;
        if (a != null) {
            active = null;
            LOG.warn("stage {}: this instance ({}) stands by now: {}", name, share.instanceId(), why);
            try {
                a.close();
            } catch (RuntimeException e) {
                LOG.debug("stage {}: closing the source: {}", name, e.toString());
            }
        }
    }

    private static boolean fenced(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ProducerFencedException || t instanceof InvalidProducerEpochException) {
                return true;
            }
        }
        return false;
    }

    /** The open source while this instance is the active one, else null. */
    T active() {
        return active;
    }

    /** True while this instance holds the lease. */
    boolean holdsLease() {
        return share.owned().contains(LEASE_PARTITION);
    }

    String instanceId() {
        return share.instanceId();
    }

    @Override
    public void close() {
        T a = active;
        active = null;
        try {
            if (a != null) {
                a.close();
            }
        } finally {
            share.close(); // leaves the group: a standby takes the lease at once
        }
    }
}
