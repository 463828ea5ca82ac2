package io.tributary.service.internal;

import io.tributary.ingest.FileFormat;
import io.tributary.ingest.FileIngest;
import io.tributary.ingest.SchemaEvolution;
import io.tributary.ingest.SchemaInference;
import io.tributary.ingest.FilesReadAhead;
import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.IngestConfigBuilder;
import io.tributary.ingest.IngestSettings;
import io.tributary.kafka.KafkaSourceSettings;
import io.tributary.kafka.KafkaSubscription;
import io.tributary.sink.SinkSettings;
import io.tributary.source.DeltaSourceSettings;
import io.tributary.schema.PipelineStage;
import io.tributary.schema.Schema;
import io.tributary.schema.Topics;
import io.tributary.schema.TributaryException;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.service.spec.Settings;
import io.tributary.service.spec.Trigger;
import io.tributary.sink.DeltaSink;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkBadRecords;
import io.tributary.sink.SinkConfig;
import io.tributary.sink.SinkMode;
import io.tributary.sink.maintenance.AutoOptimize;
import io.tributary.sink.maintenance.OptimizeOptions;
import io.tributary.source.DeltaSource;
import io.tributary.source.DeltaSourceConfig;
import io.tributary.topology.AggregateSpec;
import io.tributary.topology.DedupSpec;
import io.tributary.topology.OutputMode;
import io.tributary.topology.KafkaInput;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.kafka.clients.admin.Admin;

/** Builds a pipeline's stages from its spec: the only place that knows every stage. */
public final class PipelineParts {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PipelineParts.class);
    private PipelineParts() {
    }

    /** The sink's txn appId: stable for the pipeline, so a replayed batch is found in the table. */
    public static String sinkAppId(PipelineSpec spec) {
        return "tributary-" + spec.name() + "-sink";
    }

    /** The schema a file source reads: the spec's, or Spark's {@code value STRING} for text; null when it is to be inferred. */
    public static Schema fileSchema(PipelineSpec spec) {
        if (!spec.has(Settings.FILES_SCHEMA) && "text".equals(spec.string(Settings.FILES_FORMAT))) {
            return SchemaInference.withHints(FileFormat.textSchema(), spec.string(Settings.SCHEMA_HINTS));
        }
        Schema given = spec.has(Settings.FILES_SCHEMA) ? Schema.parseWithVariant(spec.string(Settings.FILES_SCHEMA)) : null;
        return spec.singleVariantColumn() // each whole record one VARIANT column, as Spark's reader gives it
                ? FileFormat.of(spec.string(Settings.FILES_FORMAT), spec.map(Settings.FILES_OPTIONS)).singleVariantSchema(given) : given;
    }

    /**
     * The schema a file source reads ({@link #fileSchema}); when the spec gives none, the one the
     * ingest recorded with its first batch, or else the one inferred from the first files now.
     */
    public static Schema fileSchema(PipelineSpec spec, Map<String, Object> kafkaClientProps) {
        Schema given = fileSchema(spec);
        if (given != null) {
            return given;
        }
        IngestConfig placeholder = inferenceConfig(spec);
        Schema recorded = SchemaInference.recorded(placeholder, kafkaClientProps);
        if (recorded != null) {
            return recorded;
        }
        Schema inferred = SchemaInference.infer(placeholder, spec.string(Settings.SCHEMA_HINTS));
        LOG.info("pipeline {}: source.files.schema inferred from the first files of {}: {}", spec.name(),
                spec.location(Settings.FILES_PATH), inferred.toDdl());
        return inferred;
    }

    /**
     * The schema to read a file source's status with: the spec's, the recorded one, or (nothing
     * inferred yet) a placeholder; never reads the input files.
     */
    public static Schema statusSchema(PipelineSpec spec, Map<String, Object> kafkaClientProps) {
        Schema given = fileSchema(spec);
        if (given != null) {
            return given;
        }
        Schema recorded = SchemaInference.recorded(inferenceConfig(spec), kafkaClientProps);
        return recorded != null ? recorded : FileFormat.textSchema();
    }

    private static IngestConfig inferenceConfig(PipelineSpec spec) {
        return IngestConfig.builder(spec.name(), spec.location(Settings.FILES_PATH), FileFormat.textSchema())
                .storage(spec.storage())
                .format(spec.string(Settings.FILES_FORMAT))
                .formatOptions(spec.map(Settings.FILES_OPTIONS))
                .timeZone(spec.string(Settings.FILES_TIME_ZONE))
                .maxLineBytes(Math.toIntExact(spec.bytes(Settings.MAX_LINE)))
                .build();
    }

    /** A Kafka source's topics and how their records become rows ({@code source.kafka.*}). */
    static KafkaSubscription kafkaSubscription(PipelineSpec spec) {
        return KafkaSubscription.of(spec.values(Settings.KAFKA_SOURCE, KafkaSourceSettings.ALL));
    }

    /** The replicas of the topics the pipeline creates: {@code topic.replicationFactor}, or empty for the broker's default. */
    static Optional<Short> replicationFactor(PipelineSpec spec) {
        return spec.has(Settings.REPLICATION_FACTOR) ? Optional.of(spec.integer(Settings.REPLICATION_FACTOR).shortValue()) : Optional.empty();
    }

    /** The file-ingest settings of a spec, without the aggregation's event time (for reading its status). */
    public static IngestConfig ingestConfig(PipelineSpec spec, Schema input) {
        return ingestConfig(spec, input, null);
    }

    /**
     * Opens the stages, adding them to {@code stages} in flow order (so that a failure closes them).
     * The stages open at the same time, each on a thread of its own (the ingest's
     * {@code initTransactions} and log read, the Kafka Streams group join, the sink's table and
     * consumer), and the run starts without waiting for them: a stage's first batch waits for its
     * own opening only, and its opening's failure fails that batch. The ingest's producer takes its
     * transactional id while the topics are created. A Delta source opens first, since its table
     * gives the schema.
     */
    static void open(PipelineSpec spec, KafkaConnection kafka, RunOptions options, FilesReadAhead readAhead, List<Stage> stages) {
        ExecutorService threads = Executors.newFixedThreadPool(4, r -> new Thread(r, "tributary-open"));
        try {
            open(spec, kafka, options, readAhead, stages, threads);
        } finally {
            threads.shutdown();
        }
    }

    private static void open(PipelineSpec spec, KafkaConnection kafka, RunOptions options, FilesReadAhead readAhead, List<Stage> stages,
                             ExecutorService threads) {
        Map<String, Object> client = kafka.clientProps();
        int partitions = spec.integer(Settings.PARTITIONS);
        Schema input;
        AggregateSpec aggregate;
        DedupSpec dedup = null;
        KafkaInput kafkaInput = null; // a Kafka source that an aggregation reads
        String lateTopic = "deadLetter".equals(spec.string(Settings.LATE_ROWS)) ? Topics.lateRows(spec.name()) : null;
        CompletableFuture<Void> topics = new CompletableFuture<>(); // the ingest's wait for its topics
        // a Kafka source's topic is read by the sink itself, which decodes the rows and applies the transform
        boolean kafkaSource = Settings.kafkaSource(spec::has);
        try {
            if (kafkaSource) {
                input = null; // the subscription's, known once the sink opens (a schema registry may give it)
                aggregate = null;
                if (AggregationParts.aggregates(spec)) { // the aggregation reads the topics itself: their columns are needed now
                    KafkaSubscription subscription = kafkaSubscription(spec);
                    subscription = subscription.withTransform(TransformParts.rowTransform(spec, subscription.rowSchema()));
                    input = subscription.outputSchema(); // after the transform, when there is one
                    aggregate = AggregationParts.aggregateSpec(spec, input);
                    dedup = DedupParts.spec(spec, input); // before the aggregation when both are given (Spark's order)
                    kafkaInput = AggregationParts.kafkaInput(spec, client, subscription, partitions);
                }
                if ("deadLetter".equals(spec.string(Settings.KAFKA_BAD_RECORD))) {
                    TopicAdmin.ensure(client, partitions, replicationFactor(spec), Topics.deadLetter(spec.name()));
                }
            } else if (spec.has(Settings.DELTA_PATH)) {
                TopicAdmin.ensure(client, partitions, replicationFactor(spec), Topics.events(spec.name()));
                try (DeltaSource probe = new DeltaSource(deltaSourceConfig(spec, null), client)) {
                    input = probe.schema(); // the table's; nothing is connected
                }
                io.tributary.expressions.RowTransform transform = TransformParts.rowTransform(spec, input);
                input = transform != null ? transform.output() : input; // the rows published: the transform's
                aggregate = AggregationParts.aggregateSpec(spec, input);
                dedup = DedupParts.spec(spec, input); // before the aggregation when both are given (Spark's order)
                DeltaSourceConfig sourceConfig = deltaSourceConfig(spec, aggregate).toBuilder().transform(transform).build();
                if (Instances.shared(spec)) {
                    stages.add(new Stage(Instances.leasedDeltaSource(spec, client, sourceConfig)));
                } else {
                    DeltaSource source = new DeltaSource(sourceConfig, client);
                    stages.add(new Stage(source));
                }
            } else {
                input = fileSchema(spec, client);
                Schema rows = ingestConfig(spec, input, null).outputSchema(); // the rows transform.* makes
                aggregate = AggregationParts.aggregateSpec(spec, rows);
                dedup = DedupParts.spec(spec, rows);
                IngestConfig ingestConfig = ingestConfig(spec, input, aggregate, true);
                input = ingestConfig.outputSchema(); // with _rescued_data under schemaEvolution rescue, after transform.*
                if (aggregate != null && dedup != null) {
                    dedup = DedupParts.spec(spec, input); // the events' rows, with the columns the aggregation computes
                }
                String name = spec.name() + "/ingest";
                stages.add(Stage.opening(name, threads.<PipelineStage>submit(() -> Recovery.open(name, options.stopRequested(), () -> {
                    if (Instances.shared(spec)) {
                        topics.join(); // the lease is a partition of the ingest log
                        return Instances.leasedIngest(spec, client, ingestConfig);
                    }
                    return FileIngest.builder(ingestConfig, client).readAhead(readAhead).awaitTopics(topics::join)
                            // availableNow: the last data batch carries its no-data batch (docs/performance.md)
                            .endsWhenIngested(spec.trigger().kind() == Trigger.Kind.AVAILABLE_NOW)
                            // no later trigger: a file still being written is looked at again
                            .boundedRun(spec.trigger().bounded())
                            .build();
                }))));
                try (Admin admin = Admin.create(client)) {
                    FileIngest.createTopics(admin, ingestConfig, partitions);
                }
            }
            if (aggregate != null || dedup != null) {
                List<String> made = new java.util.ArrayList<>(List.of(Topics.results(spec.name())));
                if (lateTopic != null) {
                    made.add(lateTopic);
                }
                if (aggregate != null && dedup != null) {
                    made.add(Topics.deduplicated(spec.name())); // the deduplication's rows, which the aggregation reads
                }
                TopicAdmin.ensure(client, partitions, replicationFactor(spec), made.toArray(String[]::new));
            }
            topics.complete(null);
        } catch (RuntimeException e) {
            topics.completeExceptionally(e);
            throw e;
        }

        Schema sinkSchema = input;
        // a Kafka source's topic is read by the sink itself: no copy, and never trimmed (it is someone else's)
        String sinkTopic = Topics.events(spec.name());
        boolean sinkReadsSource = kafkaSource && kafkaInput == null; // else the aggregation reads it
        if (aggregate != null || dedup != null) {
            sinkSchema = aggregate != null ? aggregate.outputSchema() : input; // deduplicated rows are the events' rows
            sinkTopic = Topics.results(spec.name());
            AggregationParts.open(spec, aggregate, dedup, lateTopic, kafkaInput, client, options, threads, stages);
        }
        Schema rows = sinkSchema;
        String topic = sinkTopic;
        String stageName = spec.name() + "/sink";
        AggregateSpec sinkAggregate = aggregate;
        // the sink's opening reads a Kafka source's subscription: a schema registry that does not answer yet is waited out
        stages.add(Stage.opening(stageName, threads.<PipelineStage>submit(() -> Recovery.open(stageName, options.stopRequested(), () -> {
            KafkaSubscription subscription = sinkReadsSource ? KafkaSourceInference.subscription(spec, client) : null;
            if (subscription != null) {
                subscription = subscription.withTransform(TransformParts.rowTransform(spec, subscription.rowSchema()));
            }
            SinkConfig sink = sinkConfig(spec, subscription != null ? subscription.outputSchema() : rows,
                    subscription != null ? subscription.description() : topic, sinkAggregate, subscription);
            DeltaSink deltaSink = DeltaSink.builder(sink, client).reprocess(options.reprocess()).storage(spec.storage())
                    .subscription(subscription).availableNow(spec.trigger().kind() == Trigger.Kind.AVAILABLE_NOW)
                    .continuous(spec.trigger().kind() == Trigger.Kind.DEFAULT)
                    .instanceId(Instances.shared(spec) ? Instances.id(spec) : null).build();
            AutoOptimize optimize = new AutoOptimize(sink.tablePath(), spec.integer(Settings.SINK_OPTIMIZE_EVERY),
                    OptimizeOptions.defaults().withTargetFileSize(sink.targetFileSize()).withStorage(spec.storage()));
            return new SinkStage(deltaSink, optimize);
        }))));
    }

    static SinkConfig sinkConfig(PipelineSpec spec, Schema rows, String topic, AggregateSpec aggregate,
                                         KafkaSubscription subscription) {
        SinkConfig.Builder sinkConfig = SinkConfig.builder(spec.location(Settings.SINK_PATH), rows, topic, sinkAppId(spec),
                        spec.name() + "/sink")
                .settings(spec.values(Settings.SINK, SinkSettings.ALL))
                .trimTopic(spec.bool(Settings.TOPIC_TRIM) && subscription == null)
                .badRecords(SinkBadRecords.forName(spec.string(Settings.badRecordKey(spec::has)), Topics.deadLetter(spec.name())));
        withSinkMode(aggregate, sinkConfig);
        if (spec.trigger().bounded()) {
            sinkConfig.allowedLatency(Duration.ZERO); // a bounded run ends with everything committed
        }
        return sinkConfig.build();
    }

    /** Opens a Kafka Streams stage (an aggregation or a deduplication) with the pipeline's settings for it, after the stages before it. */
    /**
     * Starts reading the spec's input files ahead of the ingest ({@link FileIngest#readAhead}), so
     * that they are read while the broker starts; null for a Delta source, or a spec the
     * pipeline's opening will refuse anyway.
     */
    static FilesReadAhead readAhead(PipelineSpec spec) {
        if (spec.has(Settings.DELTA_PATH) || Settings.kafkaSource(spec::has) || Instances.shared(spec)) {
            return null; // a standby instance reads nothing
        }
        try {
            Schema input = fileSchema(spec);
            if (input == null) {
                return null; // inferred once Kafka is there (a recorded schema comes first)
            }
            AggregateSpec aggregate = AggregationParts.aggregateSpec(spec, ingestConfig(spec, input, null).outputSchema());
            return FileIngest.readAhead(ingestConfig(spec, input, aggregate, true), spec.integer(Settings.PARTITIONS));
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * The sink's write mode: {@code sink.delta.mode/keys/order} for rows; for an aggregation in
     * update or complete output mode, an upsert keyed by the columns of the window and the group-by columns. Complete mode
     * upserts too rather than replacing the table: a sink batch may hold part of an aggregation
     * batch's output (the topology commits its transactions on its own schedule), and a complete
     * result only ever grows (no key leaves it), so upserting each result row gives the same table.
     */
    static void withSinkMode(AggregateSpec aggregate, SinkConfig.Builder config) {
        if (aggregate != null && aggregate.outputMode() != OutputMode.APPEND) {
            config.mode(SinkMode.UPSERT, aggregate.keyColumns(), null);
        }
    }

    /**
     * The Delta source of the spec. Under an aggregation it carries the watermark as the file ingest
     * does (the event-time column, the delay, markers) and places rows by their group-by values;
     * under {@code transform.dropDuplicates} alone, by its keys, with its watermark; under an upsert sink, by the sink's keys.
     */
    static DeltaSourceConfig deltaSourceConfig(PipelineSpec spec, AggregateSpec aggregate) {
        DeltaSourceConfig.Builder b = DeltaSourceConfig.builder(spec.name(), spec.location(Settings.DELTA_PATH))
                .storage(spec.storage())
                .settings(spec.values(Settings.DELTA, DeltaSourceSettings.ALL));
        replicationFactor(spec).ifPresent(b::replicationFactor);
        if (aggregate == null && "upsert".equals(spec.string(Settings.SINK_MODE))) {
            b.groupBy(spec.list(Settings.SINK_KEYS)); // a key's rows share a partition, so Kafka order is their order
        }
        if (aggregate != null) {
            b.eventTime(aggregate.eventTime()).watermarkDelay(aggregate.watermark()).groupBy(aggregate.groupBy());
        } else {
            DedupParts.placeRows(spec, b); // transform.dropDuplicates: its keys place the rows, its watermark in the markers
        }
        return b.build();
    }

    static IngestConfig ingestConfig(PipelineSpec spec, Schema input, AggregateSpec aggregate) {
        return ingestConfig(spec, input, aggregate, false);
    }

    /**
     * The file source's config; {@code toTable} and no aggregation: its rows are checked against the table's CHECK constraints,
     * and placed and marked for {@code transform.dropDuplicates} (false: a look at the rows the transform makes).
     */
    static IngestConfig ingestConfig(PipelineSpec spec, Schema input, AggregateSpec aggregate, boolean toTable) {
        return ingestConfig(spec, input, aggregate, toTable, aggregate == null ? TableRules.read(spec) : Optional.empty());
    }

    /** As above, with the sink table's rules already read ({@code table}: empty without a table). */
    static IngestConfig ingestConfig(PipelineSpec spec, Schema input, AggregateSpec aggregate, boolean toTable,
                                     Optional<DeltaTables.RowRules> table) {
        boolean transformed = TransformParts.transforms(spec);
        // rows go to the table as they are read: its NOT NULLs (a transform's rows are the sink's to check), its CHECKs after select
        Schema rows = !transformed ? TableRules.notNull(spec, table, input) : input;
        IngestConfigBuilder b = IngestConfig.builder(spec.name(), spec.location(Settings.FILES_PATH), rows)
                .storage(spec.storage())
                .settings(spec.values(Settings.FILES, IngestSettings.ALL))
                .transform(TransformParts.values(spec))
                .staticTables(location -> DeltaStaticTable.open(spec, location))
                .alsoSelect(TransformParts.computedGroupBy(spec), Settings.GROUP_BY)
                .alsoSelect(TransformParts.aggregates(spec).computed(), Settings.SELECT)
                .schemaEvolution(SchemaEvolution.forName(spec.schemaEvolution()))
                .schemaInferred(!spec.has(Settings.FILES_SCHEMA) && !"text".equals(spec.string(Settings.FILES_FORMAT))
                        && !spec.singleVariantColumn());
        table.filter(t -> toTable).ifPresent(t -> b.tableConstraints(spec.location(Settings.SINK_PATH), t.constraints()));
        replicationFactor(spec).ifPresent(b::replicationFactor);
        if (aggregate == null && "upsert".equals(spec.string(Settings.SINK_MODE))) {
            b.groupBy(spec.list(Settings.SINK_KEYS)); // a key's rows share a partition, so Kafka order is their order
        }
        if (aggregate == null && toTable) {
            DedupParts.placeRows(spec, b);
            b.binaryRows(!DedupParts.given(spec)); // the Delta sink is the events topic's only reader: rows in binary
        }
        if (aggregate != null) {
            // the aggregation is the events topic's only reader (a deduplication before it reads JSON Lines): rows in binary
            b.binaryRows(toTable && !DedupParts.given(spec));
            b.eventTime(aggregate.eventTime()).watermarkDelay(aggregate.watermark()).groupBy(aggregate.groupBy());
            if (spec.has(Settings.CLOSE_IDLE)) {
                b.closeIdleWindowsAfter(spec.duration(Settings.CLOSE_IDLE), aggregate.span());
            }
        }
        try {
            return b.build();
        } catch (TributaryException e) {
            throw TransformParts.refusalAtItsLine(spec, e);
        }
    }
}
