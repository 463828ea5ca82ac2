package io.tributary.service.internal;

import io.tributary.expressions.SelectItems;
import io.tributary.expressions.Transform;
import io.tributary.kafka.KafkaSubscription;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.settings.Setting;
import io.tributary.topology.AggregationSettings;
import io.tributary.schema.PipelineStage;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.service.spec.Settings;
import io.tributary.topology.AggregateSpec;
import io.tributary.topology.AggregationConfig;
import io.tributary.topology.DedupSpec;
import io.tributary.topology.KafkaInput;
import io.tributary.topology.StreamsAggregation;
import io.tributary.schema.Topics;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import org.apache.kafka.clients.admin.Admin;

/**
 * The aggregation or deduplication stage of a pipeline ({@code aggregate.*}, {@code transform.dropDuplicates}):
 * over the pipeline's events topic, or over a Kafka source's topics read directly ({@link KafkaInput}).
 */
final class AggregationParts {
    private AggregationParts() {
    }

    /** True when the spec aggregates or drops duplicates ({@code aggregate.*}, {@code transform.dropDuplicates}). */
    static boolean aggregates(PipelineSpec spec) {
        if (DedupParts.given(spec) || !TransformParts.groupByItems(spec).isEmpty()) {
            return true;
        }
        for (io.tributary.settings.Setting<?> s : Settings.ALL) {
            if (s.key().startsWith(Settings.AGGREGATE + ".") && !s.key().equals(Settings.STANDBY_REPLICAS)
                    && (spec.has(s.key()) || s.isPrefix() && !spec.map(s.key()).isEmpty())) {
                return true;
            }
        }
        return false;
    }

    /**
     * A Kafka source as an aggregation reads it: the subscription, its bad-record mode, and its
     * tasks (the topics' largest partition count now) and the partitions of the rows topic it
     * places the rows on by their group-by values ({@code topic.partitions}).
     */
    static KafkaInput kafkaInput(PipelineSpec spec, Map<String, Object> client, KafkaSubscription subscription, int partitions) {
        int tasks = 1;
        try (Admin admin = Admin.create(client)) {
            List<String> topics = subscription.pattern() == null ? subscription.topics()
                    : admin.listTopics().names().get().stream().filter(subscription::subscribes).toList();
            if (!topics.isEmpty()) {
                for (var d : admin.describeTopics(topics).allTopicNames().get().values()) {
                    tasks = Math.max(tasks, d.partitions().size());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ServiceErrors.topicOffsetsInterrupted(e);
        } catch (ExecutionException e) {
            throw ServiceErrors.topicOffsetsUnreadable(spec.name(), e);
        }
        return new KafkaInput(subscription, spec.string(Settings.KAFKA_BAD_RECORD), Topics.deadLetter(spec.name()), tasks, partitions);
    }

    /**
     * Opens the aggregation's stages: the aggregation or the deduplication, or (Spark's dropDuplicates then groupBy, a
     * file or Kafka source) the deduplication whose rows feed the aggregation through the deduplicated topic.
     *
     * @param kafka a Kafka source read directly, or null for the events topic
     */
    static void open(PipelineSpec spec, AggregateSpec aggregate, DedupSpec dedup, String lateTopic, KafkaInput kafka,
                     Map<String, Object> client, RunOptions options, ExecutorService threads, List<Stage> stages) {
        Path streams = spec.stateDir().resolve("streams");
        if (kafka != null && aggregate != null && spec.has(Settings.CLOSE_IDLE)) {
            // with dropDuplicates first, its batches move the watermark: its state and the windows after it follow the same one
            kafka = kafka.withCloseIdleWindowsAfter(spec.duration(Settings.CLOSE_IDLE), aggregate.span());
        }
        if (aggregate != null && dedup != null) {
            String deduplicated = Topics.deduplicated(spec.name());
            open(spec, AggregationConfig.dedup(spec.name(), dedup, streams).topics(Topics.events(spec.name()), deduplicated),
                    kafka == null ? null : kafka.placedBy(aggregate.groupBy()), // a group's rows on one partition of the deduplicated topic
                    client, options, threads, stages); // over a Kafka source, the deduplication reads its topics
            open(spec, AggregationConfig.builder(spec.name(), aggregate, streams).lateRowsTopic(lateTopic).binaryResults(true)
                    .topics(deduplicated, Topics.results(spec.name())), null, client, options, threads, stages);
        } else {
            // the results topic's only reader is the Delta sink: the aggregation's rows in binary
            open(spec, aggregate != null ? AggregationConfig.builder(spec.name(), aggregate, streams).lateRowsTopic(lateTopic).binaryResults(true)
                    : AggregationConfig.dedup(spec.name(), dedup, streams), kafka, client, options, threads, stages);
        }
    }

    /**
     * Opens the stage {@code b} describes on a thread of {@code threads} and adds it to {@code stages}.
     *
     * @param kafka a Kafka source read directly, or null for the events (or deduplicated) topic
     */
    static void open(PipelineSpec spec, AggregationConfig.Builder b, KafkaInput kafka, Map<String, Object> client, RunOptions options,
                     ExecutorService threads, List<Stage> stages) {
        b.trimEvents(spec.bool(Settings.TOPIC_TRIM) && kafka == null)
                .bounded(spec.trigger().bounded())
                .restartWindow(Recovery.GIVE_UP_AFTER) // as long as the run loop tries a failed batch again
                .replicationFactor(PipelineParts.replicationFactor(spec).map(Short::intValue).orElse(-1));
        if (kafka != null) {
            b.kafkaInput(kafka);
        }
        if (Instances.shared(spec)) {
            b.instance(Instances.id(spec), Instances.standbyReplicas(spec));
        }
        AggregationConfig config = b.build();
        String name = config.stageName();
        stages.add(Stage.opening(name, threads.<PipelineStage>submit(() -> Recovery.open(name, options.stopRequested(),
                () -> new StreamsAggregation(config, client)))));
    }

    /** The aggregation the spec asks for, or null for a raw pipeline. */
    static AggregateSpec aggregateSpec(PipelineSpec spec, Schema input) {
        List<String> items = TransformParts.groupByItems(spec);
        TransformParts.Aggregates a = TransformParts.aggregates(spec);
        try {
            return AggregationSettings.spec(values(spec), input, items.isEmpty() ? null : items.stream().map(SelectItems::name).toList(),
                    a.select().isEmpty() ? null : a.select(), a.columns(), a.having());
        } catch (TributaryException e) {
            String having = AggregationSettings.HAVING.under(Settings.AGGREGATE).key();
            throw String.valueOf(e.getMessage()).startsWith(having + ":") && spec.has(having) ? ServiceErrors.at(spec.origin(having), e) : e;
        }
    }

    /** The settings of the {@code aggregate:} block (and {@code outputMode}) as the spec gives them. */
    static io.tributary.settings.Values values(PipelineSpec spec) {
        Map<String, Setting<?>> placed = new java.util.LinkedHashMap<>();
        AggregationSettings.ALL.forEach(s -> placed.put(s.key(), s.under(Settings.AGGREGATE)));
        placed.put(AggregationSettings.OUTPUT_MODE.key(), AggregationSettings.OUTPUT_MODE);
        return spec.values(placed);
    }
}
