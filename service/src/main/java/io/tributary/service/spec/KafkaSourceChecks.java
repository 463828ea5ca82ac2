package io.tributary.service.spec;

import io.tributary.service.spec.internal.SpecErrors;
import java.util.List;
import java.util.function.UnaryOperator;

/** What a spec with a Kafka source ({@code source.kafka.*}) needs besides each value being valid. */
final class KafkaSourceChecks {
    private KafkaSourceChecks() {
    }

    /** @param where where a key's value was given, for the error */
    static void check(PipelineSpec spec, UnaryOperator<String> where) {
        List<String> topics = spec.list(Settings.KAFKA_TOPICS);
        if (topics.size() != 1) {
            throw SpecErrors.kafkaSourceTopics(where.apply(Settings.KAFKA_TOPICS), Settings.KAFKA_TOPICS, topics);
        }
        if (!spec.has(Settings.KAFKA_SCHEMA)) {
            throw SpecErrors.kafkaSourceSchema(where.apply(Settings.KAFKA_TOPICS), Settings.KAFKA_TOPICS, Settings.KAFKA_SCHEMA);
        }
        for (io.tributary.settings.Setting<?> s : Settings.ALL) {
            if (s.key().startsWith(Settings.AGGREGATE + ".") && !s.key().equals(Settings.STANDBY_REPLICAS)
                    && (spec.has(s.key()) || s.isPrefix() && !spec.map(s.key()).isEmpty())) {
                throw SpecErrors.kafkaSourceAggregation(where.apply(s.key()), s.key());
            }
        }
    }
}
