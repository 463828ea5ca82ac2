package io.tributary.service.internal;

import io.tributary.kafka.SettledLog;
import io.tributary.kafka.TopicCreation;
import io.tributary.schema.Topics;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.service.spec.Settings;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the instances of a pipeline on a Kafka cluster agree on, checked before a run opens its
 * stages: an instance records the pipeline's defining settings ({@link SpecFingerprint}) in the
 * compacted topic {@code tributary.<name>.spec}, and one whose settings differ is refused, naming
 * them and the instances that run; a bounded run is refused while instances run. The running
 * instances are the members of the pipeline's groups (the source's lease and the sink's).
 */
final class PipelineRegistry {
    private static final Logger LOG = LoggerFactory.getLogger(PipelineRegistry.class);
    private static final String DOCS = "docs/operations.md, \"Changing a pipeline's spec\"";

    private PipelineRegistry() {
    }

    /**
     * Refuses this run if it would split or mix the output of the pipeline's running instances:
     * a bounded run while any runs, an instance whose defining settings differ from the recorded
     * ones while any other runs, or (none running) without {@code acceptSpecChange}. Records the
     * settings when none are, or when a change was accepted. Nothing to check on the embedded broker.
     */
    static void check(PipelineSpec spec, Map<String, Object> client, boolean acceptSpecChange) {
        if (!spec.map(Settings.KAFKA).containsKey("bootstrap.servers")) {
            return; // the embedded broker is this process's alone
        }
        String name = spec.name();
        if (spec.trigger().bounded()) {
            Set<String> running = running(client, spec, null);
            if (!running.isEmpty()) {
                throw ServiceErrors.boundedRunWhileRunning(name, spec.trigger(), String.join(", ", running), spec.map(Settings.KAFKA).get("bootstrap.servers"));
            }
            return;
        }
        String self = Instances.id(spec);
        String topic = Topics.spec(name);
        ensureTopic(spec, client, topic);
        SpecFingerprint mine = SpecFingerprint.of(spec);
        Optional<Recorded> recorded = read(client, topic, name);
        if (recorded.isEmpty()) {
            write(client, topic, name, mine, self);
            return;
        }
        List<SpecFingerprint.Difference> diff = mine.differences(recorded.get().fingerprint());
        if (diff.isEmpty()) {
            if (!mine.covers().equals(recorded.get().fingerprint().covers())) {
                write(client, topic, name, mine, self); // settings this version added, or no longer has
            }
            return;
        }
        String differing = diff.stream().map(Object::toString).collect(Collectors.joining(", "));
        Set<String> running = running(client, spec, self);
        if (!running.isEmpty()) {
            throw ServiceErrors.specDiffersFromRunning(name, self, String.join(", ", running), differing, DOCS);
        }
        if (!acceptSpecChange) {
            throw ServiceErrors.specDiffersFromLast(name, topic, recorded.get().instance(), differing, DOCS);
        }
        LOG.warn("pipeline {}: --accept-spec-change: the pipeline's settings change in {}; rows already in the table stay as they "
                + "are, and windows open in the aggregation's state are finished under the new settings", name, differing);
        write(client, topic, name, mine, self);
    }

    /** The recorded settings and the instance that recorded them. */
    private record Recorded(SpecFingerprint fingerprint, String instance) {
    }

    /**
     * The instances of the pipeline that run now: the members of its source's lease groups and of its
     * sink's group, but {@code self} (whose static membership may outlive a restart).
     */
    static Set<String> running(Map<String, Object> client, PipelineSpec spec, String self) {
        Set<String> out = new TreeSet<>();
        Instances.owners(client, spec).forEach((role, members) -> {
            if (!role.equals("aggregate") && !role.equals("dedup")) { // Kafka Streams' members are named after their threads; every instance has a sink
                out.addAll(members.keySet());
            }
        });
        if (self != null) {
            out.remove(self);
        }
        return out;
    }

    private static void ensureTopic(PipelineSpec spec, Map<String, Object> client, String topic) {
        try (Admin admin = Admin.create(client)) {
            TopicCreation.create(admin, List.of(new NewTopic(topic, Optional.of(1), Optional.empty())
                    .configs(Map.of("cleanup.policy", "compact"))), PipelineParts.replicationFactor(spec));
        }
    }

    private static Optional<Recorded> read(Map<String, Object> client, String topic, String name) {
        Recorded[] last = new Recorded[1];
        SettledLog.read(client, topic, "tributary-" + name + "-spec",
                () -> ServiceErrors.topicNotVisible(topic),
                "reading the pipeline's settings in topic " + topic, r -> {
                    if (r.key() == null || !name.equals(new String(r.key(), StandardCharsets.UTF_8))) {
                        return;
                    }
                    if (r.value() == null) {
                        last[0] = null; // deleted
                        return;
                    }
                    String json = new String(r.value(), StandardCharsets.UTF_8);
                    last[0] = new Recorded(SpecFingerprint.parse(json, topic), instanceOf(json));
                });
        return Optional.ofNullable(last[0]);
    }

    private static String instanceOf(String json) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(json).path("instance").asText("?");
        } catch (java.io.IOException e) {
            return "?";
        }
    }

    private static void write(Map<String, Object> client, String topic, String name, SpecFingerprint fingerprint, String self) {
        Map<String, Object> props = new HashMap<>(client);
        props.remove("transactional.id");
        props.put("acks", "all");
        props.put("enable.idempotence", "true");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, name, fingerprint.toJson(self))).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ServiceErrors.interruptedRecordingSettings(name, topic, e);
        } catch (ExecutionException e) {
            throw ServiceErrors.cannotRecordSettings(name, topic, e.getCause());
        }
        LOG.info("pipeline {}: its defining settings are recorded in topic {}", name, topic);
    }
}
