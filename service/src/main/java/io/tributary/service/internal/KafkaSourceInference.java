package io.tributary.service.internal;

import io.tributary.kafka.JsonSchemaInference;
import io.tributary.kafka.KafkaSubscription;
import io.tributary.schema.Schema;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.service.spec.Settings;
import io.tributary.sink.DeltaTables;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka source's subscription as its sink reads it: with JSON values and no {@code schema}, their
 * columns are the table's (when a run before made it, and no transform stands between) followed by
 * those inferred from the topics' first records that the table lacks ({@link JsonSchemaInference}).
 */
final class KafkaSourceInference {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaSourceInference.class);

    private KafkaSourceInference() {
    }

    static KafkaSubscription subscription(PipelineSpec spec, Map<String, Object> clientProps) {
        KafkaSubscription subscription = PipelineParts.kafkaSubscription(spec);
        if (!subscription.infersSchema()) {
            return subscription;
        }
        // a transform's table holds the transform's columns, not the values'
        Schema table = TransformParts.transforms(spec) ? null
                : DeltaTables.schema(spec.location(Settings.SINK_PATH), spec.storage()).orElse(null);
        Schema inferred = JsonSchemaInference.infer(subscription, clientProps, table);
        LOG.info("pipeline {}: source.kafka.schema inferred from {}{}: {}", spec.name(), table != null ? "the table and " : "",
                subscription.description(), inferred.toDdl());
        return subscription.withValueSchema(inferred);
    }
}
