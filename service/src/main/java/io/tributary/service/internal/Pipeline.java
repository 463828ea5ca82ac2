package io.tributary.service.internal;

import io.tributary.ingest.FileIngest;
import io.tributary.ingest.FilesReadAhead;
import io.tributary.schema.PipelineStage;
import io.tributary.schema.Progress;
import io.tributary.schema.StageShare;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.service.spec.Trigger;
import io.tributary.topology.StreamsAggregation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running pipeline: its Kafka connection and its stages, driven batch by batch as the trigger
 * says. In each round every stage runs one batch of what is available to it, in flow order
 * (ingest, topology, sink), so one file batch becomes one sink batch, as in Spark.
 */
public final class Pipeline implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Pipeline.class);
    private static final Duration IDLE_POLL = Duration.ofMillis(200);
    /**
     * Continuous service: how long a downstream stage (one that reads a topic an earlier stage of this
     * process writes) idles between checks; the earlier stage's batch wakes it at once.
     */
    private static final Duration DOWNSTREAM_IDLE_POLL = Duration.ofSeconds(1);

    private final PipelineSpec spec;
    private final KafkaConnection kafka;
    private final List<Stage> stages;
    /** An availableNow run that may record its clean end for the next run ({@link NoOpRun}); null otherwise. */
    private final NoOpRun.Watch watch;
    private NoOpRun.Ending ending;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    /** Continuous service: notified after every stage's batch and on stop, so that idle stages look again at once. */
    private final Object activity = new Object();
    private volatile boolean stopping;
    private volatile boolean running;
    /** The stages whose batch failed and is being tried again, by name. */
    private final java.util.Map<String, Retrying> retrying = new java.util.concurrent.ConcurrentHashMap<>();
    private final Recovery.Retries retries = new Recovery.Retries() {
        @Override
        public void retrying(String stage, String error, long firstFailureMs, int attempts) {
            retrying.put(stage, new Retrying(error, firstFailureMs, attempts));
        }

        @Override
        public void recovered(String stage) {
            retrying.remove(stage);
        }
    };

    /**
     * A stage whose batch failed with an error Kafka calls retriable, tried again since.
     *
     * @param error the last failure's root cause
     * @param sinceMs when the first failure of the batch happened, epoch milliseconds
     * @param attempts how many times the batch failed so far
     */
    public record Retrying(String error, long sinceMs, int attempts) {
    }

    private Pipeline(PipelineSpec spec, KafkaConnection kafka, List<Stage> stages, NoOpRun.Watch watch) {
        this.spec = spec;
        this.kafka = kafka;
        this.stages = stages;
        this.watch = watch;
    }

    /**
     * Connects to Kafka (starting the embedded broker if the spec names none), checks that the run
     * agrees with the pipeline's running instances ({@link PipelineRegistry}) and opens the stages.
     *
     * @throws StoppedWhileStarting if {@link RunOptions#stopRequested()} said so while the Kafka cluster did not answer yet
     */
    public static Pipeline open(PipelineSpec spec, RunOptions options) {
        TransformParts.check(spec); // a bad expression is refused before the broker starts
        TableRules.check(spec); // and a CHECK constraint of the sink's table that the file source's rows cannot be checked against
        FilesReadAhead readAhead = PipelineParts.readAhead(spec); // the files are read while the broker starts
        KafkaConnection kafka = null;
        List<Stage> stages = new ArrayList<>();
        try {
            kafka = KafkaConnection.open(spec, options);
            PipelineRegistry.check(spec, kafka.clientProps(), options.acceptSpecChange()); // before any stage joins a group
            PipelineParts.open(spec, kafka, options, readAhead, stages);
        } catch (RuntimeException e) {
            stages.forEach(Stage::close);
            if (readAhead != null) {
                readAhead.close();
            }
            if (kafka != null) {
                kafka.close();
            }
            throw e;
        }
        return new Pipeline(spec, kafka, stages, NoOpRun.watch(spec, options));
    }

    /** Runs batches until the trigger says stop (or {@link #stop()}); every batch's progress goes to {@code out}. */
    public RunSummary run(Trigger trigger, Consumer<Progress> out) throws Exception {
        RunSummary summary = new RunSummary(spec.name(), trigger.toString());
        stages.forEach(s -> summary.declare(s.name()));
        if (trigger.kind() == Trigger.Kind.ONCE) {
            LOG.warn("trigger 'once' is deprecated in Spark in favour of 'availableNow'; running a single batch");
        }
        if (trigger.kind() == Trigger.Kind.DEFAULT && stages.size() > 1) {
            runConcurrently(summary, out);
            endRun(summary);
            return summary;
        }
        java.util.Set<Stage> idle = new java.util.LinkedHashSet<>(stages);
        boolean ranOut = false; // availableNow: a round found nothing to do
        try {
            while (!stopping) {
                long roundStart = System.nanoTime();
                if (watch != null) {
                    watch.beforeRound();
                }
                boolean didWork = false;
                for (Stage stage : stages) {
                    Optional<Progress> p = Recovery.runBatch(stage, () -> stopping, retries);
                    if (p.isPresent()) {
                        didWork = true;
                        idle.remove(stage);
                        summary.add(p.get());
                        out.accept(p.get());
                    }
                }
                running = true;
                if (trigger.kind() == Trigger.Kind.ONCE || (trigger.kind() == Trigger.Kind.AVAILABLE_NOW && !didWork)) {
                    ranOut = !didWork && !stopping;
                    break;
                }
                long waitMs = switch (trigger.kind()) {
                    case PROCESSING_TIME -> trigger.interval().toMillis() - (System.nanoTime() - roundStart) / 1_000_000;
                    case DEFAULT -> didWork ? 0 : IDLE_POLL.toMillis();
                    default -> 0;
                };
                if (waitMs > 0) {
                    stopRequested.await(waitMs, java.util.concurrent.TimeUnit.MILLISECONDS); // a stop ends the wait
                }
            }
            if (trigger.bounded()) {
                // as Spark's run with no new data: one progress line per stage, 0 rows, the next batch id
                for (Stage stage : idle) {
                    stage.idleProgress().ifPresent(out);
                }
            }
        } finally {
            running = false;
            stopped.countDown();
        }
        endRun(summary);
        if (watch != null && ranOut) {
            List<Progress> next = new ArrayList<>();
            for (Stage stage : stages) {
                stage.idleProgress().ifPresent(next::add); // what the next run prints when it finds nothing either
            }
            ending = watch.ended(next, summary.skipped()).orElse(null);
        }
        return summary;
    }

    /**
     * After a run that ended cleanly and has nothing open: the record that lets the next run with nothing to do
     * skip the broker, to write once this pipeline is closed ({@link NoOpRun}).
     */
    public Optional<NoOpRun.Ending> cleanEnd() {
        return Optional.ofNullable(ending);
    }

    /** The run ended well: the file source says once what it left unread, and the summary counts it. */
    private void endRun(RunSummary summary) {
        for (Stage s : stages) {
            if (s.resource() instanceof FileIngest ingest) {
                summary.skipped(ingest.endRun());
            }
        }
    }

    /**
     * The continuous service: every stage runs its batches on a thread of its own, as soon as the one
     * before ends, so that the sink writes batch N while the ingest reads batch N+1 (the stages meet
     * only through Kafka topics, which they read read_committed). A stage that found nothing waits
     * for another stage's batch or its idle poll ({@link #IDLE_POLL} for the first stage, which
     * watches the source; {@link #DOWNSTREAM_IDLE_POLL} for the others), whichever comes first. The first stage to fail
     * stops the others after their batch in flight, and its error ends the run.
     */
    private void runConcurrently(RunSummary summary, Consumer<Progress> out) throws Exception {
        CountDownLatch firstRound = new CountDownLatch(stages.size());
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(stages.size());
        java.util.concurrent.ExecutorCompletionService<Void> done = new java.util.concurrent.ExecutorCompletionService<>(threads);
        try {
            for (Stage stage : stages) {
                long idleMs = (stage == stages.get(0) ? IDLE_POLL : DOWNSTREAM_IDLE_POLL).toMillis();
                done.submit(() -> {
                    Thread.currentThread().setName("tributary-" + stage.name()); // e.g. tributary-quickstart/sink in logs
                    while (!stopping) {
                        Optional<Progress> p = Recovery.runBatch(stage, () -> stopping, retries);
                        firstRound.countDown();
                        if (firstRound.getCount() == 0) {
                            running = true;
                        }
                        synchronized (activity) {
                            if (p.isPresent()) {
                                summary.add(p.get());
                                out.accept(p.get());
                                activity.notifyAll(); // the next stage may have work now
                            } else if (!stopping) {
                                activity.wait(idleMs);
                            }
                        }
                    }
                    return null;
                });
            }
            Exception failure = null;
            for (int i = 0; i < stages.size(); i++) {
                try {
                    done.take().get();
                } catch (java.util.concurrent.ExecutionException e) {
                    if (failure == null) {
                        failure = e.getCause() instanceof Exception ex ? ex : ServiceErrors.stageFailed(e.getCause());
                        stopping = true; // the other stages end after their batch in flight
                        synchronized (activity) {
                            activity.notifyAll();
                        }
                    }
                }
            }
            if (failure != null) {
                throw failure;
            }
        } finally {
            threads.shutdownNow();
            running = false;
            stopped.countDown();
        }
    }

    /** Asks the run loop to stop after the batch in flight and waits up to {@code timeout} for it. */
    public boolean stop(Duration timeout) throws InterruptedException {
        stopping = true;
        stopRequested.countDown();
        synchronized (activity) {
            activity.notifyAll();
        }
        return stopped.await(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /** True once every stage has run its first batch (or found nothing to do), until the run ends. */
    public boolean running() {
        return running && !stopping;
    }

    /** The stages trying a failed batch again now, by name (empty when every stage runs). */
    public java.util.Map<String, Retrying> retrying() {
        return java.util.Map.copyOf(retrying);
    }

    /** The stages' names in flow order. */
    public List<String> stageNames() {
        return stages.stream().map(Stage::name).toList();
    }

    /** The Kafka client settings of the pipeline's cluster (bootstrap.servers included). */
    public java.util.Map<String, Object> clientProps() {
        return kafka.clientProps();
    }

    /** The pipeline's Kafka connection (the tests stop and start its embedded broker). */
    KafkaConnection kafka() {
        return kafka;
    }

    /**
     * What this instance owns of the pipeline's work when instances share it (see {@link Instances}):
     * per stage, whether it holds the source's lease, the partitions of the sink's topic, or the
     * aggregation's tasks and their partitions; empty when this process runs the whole pipeline.
     *
     * @param instance {@code instance.id} (or the host name)
     * @param stages by stage name; a stage still opening is left out
     */
    public record Ownership(String instance, Map<String, StageShare> stages) {
    }

    /** This instance's share of the pipeline's work; empty when it runs the whole pipeline (one process). */
    public Optional<Ownership> ownership() {
        if (!Instances.shared(spec)) {
            return Optional.empty();
        }
        return Optional.of(new Ownership(Instances.id(spec), shares()));
    }

    /**
     * Each open stage's share of the work as it tells it, by stage name, whether or not instances share the
     * pipeline (a process that runs it all holds every partition and task).
     */
    public Map<String, StageShare> shares() {
        Map<String, StageShare> out = new java.util.LinkedHashMap<>();
        for (Stage s : stages) {
            PipelineStage r = s.resourceIfOpen();
            if (r != null) {
                r.workShare().ifPresent(share -> out.put(s.name(), share));
            }
        }
        return out;
    }

    /** The aggregation's Kafka Streams metrics (see {@code AggregateMetrics}), summed over tasks; empty without one. */
    public java.util.Map<String, Double> aggregateMetrics() {
        for (Stage s : stages) {
            if (s.resource() instanceof StreamsAggregation aggregation) {
                return aggregation.metrics();
            }
        }
        return java.util.Map.of();
    }

    @Override
    public void close() {
        for (int i = stages.size() - 1; i >= 0; i--) {
            stages.get(i).close();
        }
        kafka.close();
    }
}
