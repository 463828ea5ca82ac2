package io.tributary.topology;

import io.tributary.schema.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * What a {@link StreamsAggregation} runs and where: immutable, made with
 * {@link #of(String, AggregateSpec, Path)} and the {@code with...} methods.
 *
 * @param pipeline the pipeline's name; names the stage ({@code <pipeline>/aggregate}) and the Kafka
 *                 Streams application ({@code tributary-<pipeline>-aggregate}: its consumer group,
 *                 transactional ids and changelog topics)
 * @param spec the aggregation
 * @param eventsTopic the topic it reads, with the ingest's batch markers; default {@link Topics#events(String)}
 * @param resultsTopic the topic its rows and forwarded markers go to; default {@link Topics#results(String)}
 * @param lateRowsTopic where late rows go ({@code lateRows: deadLetter}), or null (the default) to only count them
 * @param stateDir Kafka Streams' state directory (RocksDB keeps the open windows there); keep it next to the broker's data
 * @param trimEvents true: after each batch, delete the events topic's records before the committed
 *                   offsets (a restart resumes from them, its state comes from the changelogs), for an
 *                   events topic this stage alone reads. Default false
 * @param bounded true: the run stops once what is there is processed (Spark's {@code availableNow},
 *                {@code once}), so a last batch that no marker ends fails at once rather than waiting.
 *                Default false
 * @param restartWindow the stream thread killed by Kafka errors (the broker away) is started again at
 *                      most 20 times within this long; default 5 minutes
 * @param replicationFactor the replicas of the changelog topics Kafka Streams creates; -1 (the default):
 *                          the broker's default
 * @param instanceId this process among several that share the application's tasks (its static member
 *                   id, and a batch is then the partitions of this instance's tasks); null (the default):
 *                   the only one
 * @param standbyReplicas Kafka Streams' {@code num.standby.replicas}: warm copies of each task's state
 *                        on other instances, so a task moves without a full restore; default 0
 */
public record AggregationConfig(String pipeline, AggregateSpec spec, String eventsTopic, String resultsTopic,
                                String lateRowsTopic, Path stateDir, boolean trimEvents, boolean bounded,
                                Duration restartWindow, int replicationFactor, String instanceId, int standbyReplicas) {
    public static final Duration DEFAULT_RESTART_WINDOW = Duration.ofMinutes(5);

    public AggregationConfig {
        Objects.requireNonNull(pipeline, "pipeline");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(eventsTopic, "eventsTopic");
        Objects.requireNonNull(resultsTopic, "resultsTopic");
        Objects.requireNonNull(stateDir, "stateDir");
        Objects.requireNonNull(restartWindow, "restartWindow");
        if (replicationFactor == 0 || replicationFactor < -1) {
            throw new IllegalArgumentException("replicationFactor must be -1 (the broker's default) or at least 1, not " + replicationFactor);
        }
        if (standbyReplicas < 0) {
            throw new IllegalArgumentException("standbyReplicas must be 0 or more, not " + standbyReplicas);
        }
    }

    /** The aggregation of pipeline {@code pipeline} over its events topic into its results topic. */
    public static AggregationConfig of(String pipeline, AggregateSpec spec, Path stateDir) {
        return new AggregationConfig(pipeline, spec, Topics.events(pipeline), Topics.results(pipeline), null, stateDir,
                false, false, DEFAULT_RESTART_WINDOW, -1, null, 0);
    }

    /** The {@code name} of its progress records, e.g. {@code quickstart/aggregate}. */
    public String stageName() {
        return pipeline + "/aggregate";
    }

    /** The Kafka Streams application id, e.g. {@code tributary-quickstart-aggregate}. */
    public String applicationId() {
        return "tributary-" + pipeline + "-aggregate";
    }

    public AggregationConfig withTopics(String events, String results) {
        return new AggregationConfig(pipeline, spec, events, results, lateRowsTopic, stateDir, trimEvents, bounded, restartWindow,
                replicationFactor, instanceId, standbyReplicas);
    }

    public AggregationConfig withLateRowsTopic(String topic) {
        return new AggregationConfig(pipeline, spec, eventsTopic, resultsTopic, topic, stateDir, trimEvents, bounded, restartWindow,
                replicationFactor, instanceId, standbyReplicas);
    }

    public AggregationConfig withTrimEvents(boolean trim) {
        return new AggregationConfig(pipeline, spec, eventsTopic, resultsTopic, lateRowsTopic, stateDir, trim, bounded, restartWindow,
                replicationFactor, instanceId, standbyReplicas);
    }

    public AggregationConfig withBounded(boolean b) {
        return new AggregationConfig(pipeline, spec, eventsTopic, resultsTopic, lateRowsTopic, stateDir, trimEvents, b, restartWindow,
                replicationFactor, instanceId, standbyReplicas);
    }

    public AggregationConfig withRestartWindow(Duration window) {
        return new AggregationConfig(pipeline, spec, eventsTopic, resultsTopic, lateRowsTopic, stateDir, trimEvents, bounded, window,
                replicationFactor, instanceId, standbyReplicas);
    }

    /** The replicas of the changelog topics; -1: the broker's default. */
    public AggregationConfig withReplicationFactor(int replicas) {
        return new AggregationConfig(pipeline, spec, eventsTopic, resultsTopic, lateRowsTopic, stateDir, trimEvents, bounded, restartWindow,
                replicas, instanceId, standbyReplicas);
    }

    /**
     * This process as instance {@code id} of several that share the application's tasks, keeping
     * {@code standbys} warm copies of each task's state on the others.
     */
    public AggregationConfig withInstance(String id, int standbys) {
        return new AggregationConfig(pipeline, spec, eventsTopic, resultsTopic, lateRowsTopic, stateDir, trimEvents, bounded, restartWindow,
                replicationFactor, id, standbys);
    }
}
