package io.tributary.topology.internal;

import io.tributary.kafka.KafkaSubscription;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.errors.StreamsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The changelog topics of the sub-topology that reads a Kafka source ({@link KafkaSourceFront}'s stores): Kafka Streams
 * runs one task per partition number of the source's topics, and refuses to assign them while a changelog has fewer
 * partitions than that ("Existing internal topic ... has invalid partitions"). A partition added to a source topic, or a
 * topic created to match the pattern with more partitions than the others, adds tasks: their changelogs grow first, as
 * Spark's Kafka source takes such partitions in while it runs.
 */
public final class SourceChangelogs {
    private static final Logger LOG = LoggerFactory.getLogger(SourceChangelogs.class);

    private final Map<String, Object> adminProps;
    private final String applicationId;
    private final KafkaSubscription subscription;
    /** The changelog topics of the stores of the sub-topology that reads the source. */
    private final List<String> changelogs;

    public SourceChangelogs(Map<String, Object> adminProps, String applicationId, KafkaSubscription subscription, Topology topology) {
        this.adminProps = Map.copyOf(adminProps);
        this.applicationId = applicationId;
        this.subscription = subscription;
        this.changelogs = changelogs(applicationId, subscription, topology.describe());
    }

    /** The changelog topics of the stores of the sub-topology whose source reads {@code subscription}. */
    static List<String> changelogs(String applicationId, KafkaSubscription subscription, TopologyDescription description) {
        List<String> out = new ArrayList<>();
        for (TopologyDescription.Subtopology sub : description.subtopologies()) {
            boolean readsSource = sub.nodes().stream().anyMatch(n -> n instanceof TopologyDescription.Source s && reads(s, subscription));
            if (readsSource) {
                sub.nodes().forEach(n -> {
                    if (n instanceof TopologyDescription.Processor p) {
                        p.stores().forEach(store -> out.add(applicationId + "-" + store + "-changelog"));
                    }
                });
            }
        }
        return List.copyOf(out);
    }

    private static boolean reads(TopologyDescription.Source source, KafkaSubscription subscription) {
        if (subscription.pattern() != null) {
            return source.topicPattern() != null && source.topicPattern().pattern().equals(subscription.pattern().pattern());
        }
        return source.topicSet() != null && source.topicSet().containsAll(subscription.topics());
    }

    /**
     * True when {@code e} is Kafka Streams refusing one of these changelogs for its partition count (tasks that a partition
     * added to the source made): {@link #grow()}, then a new instance of the application, assigns them.
     */
    public boolean refusedBy(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            String m = c.getMessage();
            if (c instanceof StreamsException && m != null && m.contains("invalid partitions")
                    && changelogs.stream().anyMatch(m::contains)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Gives each changelog topic of the source's sub-topology that exists as many partitions as the source has tasks now
     * (its topics' largest partition count). Returns true when one grew.
     */
    public boolean grow() {
        try (Admin admin = Admin.create(adminProps)) {
            List<String> topics = subscription.pattern() == null ? subscription.topics()
                    : admin.listTopics().names().get().stream().filter(subscription::subscribes).toList();
            Map<String, TopicDescription> sources = admin.describeTopics(topics).allTopicNames().get();
            int tasks = sources.values().stream().mapToInt(d -> d.partitions().size()).max().orElse(0);
            List<String> present = new ArrayList<>(admin.listTopics().names().get());
            present.retainAll(changelogs);
            Map<String, NewPartitions> grow = new HashMap<>();
            admin.describeTopics(present).allTopicNames().get().forEach((topic, d) -> {
                if (d.partitions().size() < tasks) {
                    grow.put(topic, NewPartitions.increaseTo(tasks));
                }
            });
            if (grow.isEmpty()) {
                return false;
            }
            admin.createPartitions(grow).all().get();
            LOG.info("{}: the source {} has {} tasks now: changelog topics {} grew to as many partitions", applicationId,
                    subscription.description(), tasks, grow.keySet());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw KafkaSourceErrors.interrupted(e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.InvalidPartitionsException) {
                return true; // another instance grew them first
            }
            throw KafkaSourceErrors.cannotReadSource("the partitions of " + subscription.description() + " and its changelog topics",
                    e.getCause());
        }
    }
}
