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
 */
public record AggregationConfig(String pipeline, AggregateSpec spec, String eventsTopic, String resultsTopic,
                                String lateRowsTopic, Path stateDir, boolean trimEvents, boolean bounded,
                                Duration restartWindow) {
    public static final Duration DEFAULT_RESTART_WINDOW = Duration.ofMinutes(5);

    public AggregationConfig {
        Objects.requireNonNull(pipeline, "pipeline");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(eventsTopic, "eventsTopic");
        Objects.requireNonNull(resultsTopic, "resultsTopic");
        Objects.requireNonNull(stateDir, "stateDir");
        Objects.requireNonNull(restartWindow, "restartWindow");
    }

    /** The aggregation of pipeline {@code pipeline} over its events topic into its results topic. */
    public static AggregationConfig of(String pipeline, AggregateSpec spec, Path stateDir) {
        return new AggregationConfig(pipeline, spec, Topics.events(pipeline), Topics.results(pipeline), null, stateDir,
                false, false, DEFAULT_RESTART_WINDOW);
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
        return new AggregationConfig(pipeline, spec, events, results, lateRowsTopic, stateDir, trimEvents, bounded, restartWindow);
    }

    public AggregationConfig withLateRowsTopic(String topic) {
        return new AggregationConfig(pipeline, spec, eventsTopic, resultsTopic, topic, stateDir, trimEvents, bounded, restartWindow);
    }

    public AggregationConfig withTrimEvents(boolean trim) {
        return new AggregationConfig(pipeline, spec, eventsTopic, resultsTopic, lateRowsTopic, stateDir, trim, bounded, restartWindow);
    }

    public AggregationConfig withBounded(boolean b) {
        return new AggregationConfig(pipeline, spec, eventsTopic, resultsTopic, lateRowsTopic, stateDir, trimEvents, b, restartWindow);
    }

    public AggregationConfig withRestartWindow(Duration window) {
        return new AggregationConfig(pipeline, spec, eventsTopic, resultsTopic, lateRowsTopic, stateDir, trimEvents, bounded, window);
    }
}
