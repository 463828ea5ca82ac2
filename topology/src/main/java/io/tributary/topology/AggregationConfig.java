package io.tributary.topology;

import io.tributary.schema.Topics;
import io.tributary.topology.internal.WindowedAggregateProcessor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * What a {@link StreamsAggregation} runs and where: immutable, made by {@link #builder} (or
 * {@link #of} with the defaults).
 *
 * @param pipeline the pipeline's name; names the stage ({@code <pipeline>/aggregate}, {@code <pipeline>/dedup} for a
 *                 deduplication) and the Kafka Streams application ({@code tributary-<pipeline>-aggregate},
 *                 {@code -dedup}: its consumer group, transactional ids and changelog topics)
 * @param spec the aggregation, or null for a deduplication alone
 * @param dedup the deduplication ({@code transform.dropDuplicates}) that runs instead of an aggregation, or null
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
 * @param kafkaInput a Kafka source read in place of the events topic ({@code eventsTopic} then names its topics), or null
 * @param binaryResults true: the aggregation writes its result rows in binary ({@link io.tributary.schema.RowBinary}, header
 *                      {@code tributary.rows}) for a results topic that only the Delta sink reads; JSON Lines when a
 *                      column is an ARRAY or a MAP. Default false
 */
public record AggregationConfig(String pipeline, AggregateSpec spec, DedupSpec dedup, String eventsTopic, String resultsTopic,
                                String lateRowsTopic, Path stateDir, boolean trimEvents, boolean bounded,
                                Duration restartWindow, int replicationFactor, String instanceId, int standbyReplicas,
                                KafkaInput kafkaInput, boolean binaryResults) {
    public static final Duration DEFAULT_RESTART_WINDOW = Duration.ofMinutes(5);

    public AggregationConfig {
        Objects.requireNonNull(pipeline, "pipeline");
        if ((spec == null) == (dedup == null)) {
            throw new IllegalArgumentException("give an aggregation or a deduplication, one of them");
        }
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

    /** The aggregation of pipeline {@code pipeline} over its events topic into its results topic, with the defaults. */
    public static AggregationConfig of(String pipeline, AggregateSpec spec, Path stateDir) {
        return builder(pipeline, spec, stateDir).build();
    }

    /** The aggregation of pipeline {@code pipeline} over its events topic into its results topic, to be set further. */
    public static Builder builder(String pipeline, AggregateSpec spec, Path stateDir) {
        return new Builder(pipeline, spec, stateDir);
    }

    /** The deduplication {@code dedup} of pipeline {@code pipeline} over its events topic into its results topic, to be set further. */
    public static Builder dedup(String pipeline, DedupSpec dedup, Path stateDir) {
        return new Builder(pipeline, null, stateDir).dedup(dedup);
    }

    /** The {@code name} of its progress records, e.g. {@code quickstart/aggregate} ({@code quickstart/dedup}). */
    public String stageName() {
        return pipeline + "/" + role();
    }

    /** The Kafka Streams application id, e.g. {@code tributary-quickstart-aggregate} ({@code -dedup}). */
    public String applicationId() {
        return "tributary-" + pipeline + "-" + role();
    }

    private String role() {
        return spec == null ? "dedup" : "aggregate";
    }

    /** The topology it runs; has no side effects. */
    public org.apache.kafka.streams.Topology topology() {
        io.tributary.topology.internal.SourceWiring.Kafka kafka = kafkaInput == null ? null
                : new io.tributary.topology.internal.SourceWiring.Kafka(kafkaInput, applicationId(), stageName(),
                        spec != null ? spec.eventTimeIndex() : dedup.eventTimeIndex(),
                        kafkaInput.placeBy() != null ? kafkaInput.placeBy() : spec != null ? spec.groupBy() : dedup.keys());
        return spec == null ? Deduplication.build(dedup, eventsTopic, resultsTopic, kafka)
                : WindowedAggregation.build(spec, eventsTopic, resultsTopic, lateRowsTopic, WindowedAggregateProcessor.CLOSE_CHUNK, kafka,
                        binaryResults);
    }

    /** The watermark's delay, or null when the aggregation or deduplication keeps none. */
    public Duration watermarkDelay() {
        return spec != null ? (spec.hasWatermark() ? spec.watermark() : null) : dedup.delay();
    }

    /** Spark's name of its state operator in a progress line. */
    public String operatorName() {
        return spec == null ? dedup.operatorName() : "windowedAggregate";
    }

    /** Collects an {@link AggregationConfig}'s values; the defaults are those of the record's description. */
    public static final class Builder {
        private final String pipeline;
        private final AggregateSpec spec;
        private DedupSpec dedup;
        private final Path stateDir;
        private String eventsTopic;
        private String resultsTopic;
        private String lateRowsTopic;
        private boolean trimEvents;
        private boolean bounded;
        private Duration restartWindow = DEFAULT_RESTART_WINDOW;
        private int replicationFactor = -1;
        private String instanceId;
        private int standbyReplicas;
        private KafkaInput kafkaInput;
        private boolean binaryResults;

        private Builder(String pipeline, AggregateSpec spec, Path stateDir) {
            this.pipeline = pipeline;
            this.spec = spec;
            this.stateDir = stateDir;
            this.eventsTopic = pipeline == null ? null : Topics.events(pipeline);
            this.resultsTopic = pipeline == null ? null : Topics.results(pipeline);
        }

        public Builder topics(String events, String results) {
            this.eventsTopic = events;
            this.resultsTopic = results;
            return this;
        }

        private Builder dedup(DedupSpec d) {
            this.dedup = d;
            return this;
        }

        public Builder lateRowsTopic(String topic) {
            this.lateRowsTopic = topic;
            return this;
        }

        public Builder trimEvents(boolean trim) {
            this.trimEvents = trim;
            return this;
        }

        public Builder bounded(boolean b) {
            this.bounded = b;
            return this;
        }

        public Builder restartWindow(Duration window) {
            this.restartWindow = window;
            return this;
        }

        /** The replicas of the changelog topics; -1: the broker's default. */
        public Builder replicationFactor(int replicas) {
            this.replicationFactor = replicas;
            return this;
        }

        /**
         * This process as instance {@code id} of several that share the application's tasks, keeping
         * {@code standbys} warm copies of each task's state on the others.
         */
        public Builder instance(String id, int standbys) {
            this.instanceId = id;
            this.standbyReplicas = standbys;
            return this;
        }

        /** Reads a Kafka source's topics ({@code source.kafka}) instead of the events topic. */
        public Builder kafkaInput(KafkaInput input) {
            this.kafkaInput = input;
            this.eventsTopic = input.subscription().description();
            return this;
        }

        /** Result rows in binary, for a results topic only the Delta sink reads (a windowed aggregation's; not a deduplication's). */
        public Builder binaryResults(boolean binary) {
            this.binaryResults = binary;
            return this;
        }

        public AggregationConfig build() {
            return new AggregationConfig(pipeline, spec, dedup, eventsTopic, resultsTopic, lateRowsTopic, stateDir, trimEvents, bounded,
                    restartWindow, replicationFactor, instanceId, standbyReplicas, kafkaInput, binaryResults);
        }
    }
}
