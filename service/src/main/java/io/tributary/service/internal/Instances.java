package io.tributary.service.internal;

import io.tributary.ingest.FileIngest;
import io.tributary.ingest.IngestConfig;
import io.tributary.schema.PipelineStage;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.service.spec.Settings;
import io.tributary.source.DeltaSource;
import io.tributary.source.DeltaSourceConfig;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.TopicPartition;

/**
 * Several processes ("instances") of one pipeline, each with its own state folder, on one Kafka
 * cluster: they share the pipeline's work through Kafka's own mechanisms. The sink's partitions
 * through its consumer group, the aggregation's tasks through Kafka Streams, and the source
 * through a lease ({@link LeasedSource}): one instance runs it, the others stand by.
 */
public final class Instances {
    private Instances() {
    }

    /**
     * Who owns what of the pipeline's work now, as Kafka's groups say (for {@code checkpoint show}):
     * per role ({@code ingest lease}, {@code delta-source lease}, {@code aggregate}, {@code dedup}, {@code sink}), each
     * member's instance id and the partitions of the role's topic it holds ({@code topic:partition} where
     * the group holds several topics' partitions). Roles whose group has no
     * member are left out.
     */
    public static Map<String, Map<String, List<String>>> owners(Map<String, Object> client, PipelineSpec spec) {
        String p = spec.name();
        Map<String, String> groups = new java.util.LinkedHashMap<>();
        groups.put("tributary-" + p + "-ingest", "ingest lease");
        groups.put("tributary-" + p + "-delta-source", "delta-source lease");
        groups.put("tributary-" + p + "-aggregate", "aggregate");
        groups.put("tributary-" + p + "-dedup", "dedup");
        groups.put("tributary-" + p + "-sink", "sink");
        Map<String, Map<String, List<String>>> out = new java.util.LinkedHashMap<>();
        try (Admin admin = Admin.create(client)) {
            Map<String, org.apache.kafka.common.KafkaFuture<ConsumerGroupDescription>> described =
                    admin.describeConsumerGroups(groups.keySet()).describedGroups();
            for (Map.Entry<String, String> g : groups.entrySet()) {
                String group = g.getKey();
                ConsumerGroupDescription d;
                try {
                    d = described.get(group).get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof org.apache.kafka.common.errors.GroupIdNotFoundException) {
                        continue; // no instance ever ran this stage (a pipeline without an aggregation, a file source...)
                    }
                    throw e;
                }
                if (d.members().isEmpty()) {
                    continue;
                }
                Map<String, List<String>> members = new java.util.TreeMap<>();
                // a group over several topics (a Kafka source's topics or pattern) names each partition with its topic
                boolean severalTopics = d.members().stream().flatMap(m -> m.assignment().topicPartitions().stream())
                        .map(TopicPartition::topic).distinct().count() > 1;
                for (MemberDescription m : d.members()) {
                    String id = m.groupInstanceId().orElse(m.consumerId());
                    if (id.startsWith(group + "-")) {
                        id = id.substring(group.length() + 1); // Kafka Streams' member: <application id>-<instance id>
                    }
                    members.put(id, m.assignment().topicPartitions().stream()
                            .sorted(java.util.Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition))
                            .map(tp -> severalTopics ? tp.topic() + ":" + tp.partition() : String.valueOf(tp.partition())).toList());
                }
                out.put(g.getValue(), members);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ServiceErrors.interruptedDescribingGroups(p, e);
        } catch (ExecutionException e) {
            throw ServiceErrors.cannotDescribeGroups(p, e.getCause());
        }
        return out;
    }

    /**
     * Whether this run is one of several instances of the pipeline that share its work: on a Kafka
     * cluster the spec names (the embedded broker belongs to one process), with a continuous trigger
     * (a bounded run takes the whole pipeline, alone). A single instance so started is a group of one.
     * A Kafka source's partitions are shared too, those of several topics or a pattern as one set.
     */
    public static boolean shared(PipelineSpec spec) {
        return spec.map(Settings.KAFKA).containsKey("bootstrap.servers") && !spec.trigger().bounded();
    }

    /** {@code instance.id}, or this host's name (letters, digits, '.', '-' and '_' kept, others as '-'). */
    static String id(PipelineSpec spec) {
        if (spec.has(Settings.INSTANCE_ID)) {
            return spec.string(Settings.INSTANCE_ID);
        }
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            try {
                host = java.nio.file.Files.readString(java.nio.file.Path.of("/etc/hostname")).strip();
            } catch (java.io.IOException | RuntimeException e) {
                host = null;
            }
        }
        if (host == null || host.isBlank()) {
            try {
                host = java.net.InetAddress.getLocalHost().getHostName();
            } catch (java.io.IOException e) {
                host = "localhost";
            }
        }
        String id = host.replaceAll("[^A-Za-z0-9._-]", "-");
        return id.length() > 100 ? id.substring(0, 100) : id;
    }

    /** {@code aggregate.standbyReplicas}, or 1 when instances share the pipeline (a task then moves to a warm copy), else 0. */
    static int standbyReplicas(PipelineSpec spec) {
        if (spec.has(Settings.STANDBY_REPLICAS)) {
            return spec.integer(Settings.STANDBY_REPLICAS);
        }
        return shared(spec) ? 1 : 0;
    }

    /** The file source of a shared pipeline: active on the instance that holds the ingest's lease. */
    static PipelineStage leasedIngest(PipelineSpec spec, Map<String, Object> client, IngestConfig config) {
        String name = spec.name() + "/ingest";
        LeasedSource<FileIngest> leased = new LeasedSource<>(name, client, "tributary-" + spec.name() + "-ingest",
                config.ingestLogTopic(), id(spec), () -> new FileIngest(config, client));
        return leased;
    }

    /** The Delta source of a shared pipeline: active on the instance that holds its lease. */
    static PipelineStage leasedDeltaSource(PipelineSpec spec, Map<String, Object> client, DeltaSourceConfig config) {
        DeltaSource.createTopics(client, config); // the lease is a partition of the source's progress topic
        LeasedSource<DeltaSource> leased = new LeasedSource<>(config.stageName(), client, "tributary-" + spec.name() + "-delta-source",
                config.progressTopic(), id(spec), () -> {
                    DeltaSource source = new DeltaSource(config, client);
                    try {
                        source.start();
                    } catch (RuntimeException e) {
                        source.close();
                        throw e;
                    }
                    return source;
                });
        return leased;
    }
}
