package io.tributary.kafka;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This process's share of a topic's partitions among the instances of a pipeline: a member of a
 * Kafka consumer group that never fetches a record, only takes part in the group's assignment.
 * Kafka decides who owns which partition (cooperative-sticky: a rebalance moves only the
 * partitions that must move, the others keep working), and the owner reads the records with a
 * consumer of its own, from where its progress says (the Delta table, the ingest log).
 *
 * <p>Membership is static ({@code group.instance.id} = the instance's id): an instance that
 * restarts within the session timeout gets its partitions back without a rebalance; one that
 * does not return loses them to the others after {@link #SESSION_TIMEOUT} (Kafka's smallest
 * allowed by default). A second process with the same instance id fences the first, which then
 * owns nothing and says why ({@link #fencedBy()}).
 *
 * <p>The group's work runs on a thread of its own, so that a rebalance completes while the owner
 * works. A partition is taken away only between two pieces of work: the owner holds
 * {@link #lock()} around each, and the revocation waits for it, so the partition's new owner
 * starts from the progress the old one committed last ({@link ConsumerRebalanceListener}'s
 * contract). An owner that stalled past the session timeout loses its partitions without that
 * wait: its next commit must check that its progress still stands (the sink's offsets in the
 * table, the ingest's transactional id).
 *
 * <p>A cooperative rebalance gives a moving partition to its new owner in a second round, which
 * the old owner starts by rejoining once it revoked it. An old owner SIGKILLed between the rounds
 * and back under its static instance id within the session timeout takes its stored (empty)
 * assignment without a rebalance, and the second round never comes: the partition has no owner,
 * for good. So each member looks at the group every {@link #COVERAGE_CHECK}, and when a stable
 * group leaves a partition of the topic without an owner twice in a row, it asks for a rebalance
 * ({@link KafkaConsumer#enforceRebalance}), which assigns it.
 */
public final class PartitionShare implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionShare.class);
    /** The group session timeout: how long a dead instance keeps its partitions (the broker's smallest by default). */
    public static final Duration SESSION_TIMEOUT = Duration.ofSeconds(6);
    private static final Duration HEARTBEAT = Duration.ofMillis(1500);
    private static final Duration POLL = Duration.ofMillis(100);
    /** How often a member checks that every partition of the topic has an owner. */
    static final Duration COVERAGE_CHECK = Duration.ofSeconds(5);
    /**
     * How soon a topic created to match a shared pattern is assigned to an instance (the consumers' metadata age); an
     * aggregation over a Kafka source sees a partition or topic added while it runs as soon.
     */
    public static final Duration PATTERN_REFRESH = Duration.ofSeconds(5);

    private final String group;
    /** What the group shares: one topic's name, or a Kafka source's topics ({@link KafkaSubscription#description()}). */
    private final String topic;
    /** A Kafka source's topics or pattern, shared as one set of topic-partitions; null: the partitions of {@link #topic}. */
    private final KafkaSubscription subscription;
    private final String instanceId;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Map<String, Object> adminProps;
    private Admin admin;
    private long nextCheck;
    private Set<TopicPartition> unownedBefore = Set.of();
    private final ReentrantLock work = new ReentrantLock();
    private final Thread thread;
    private final CountDownLatch assigned = new CountDownLatch(1);
    private volatile Set<Integer> owned = Set.of();
    private volatile Set<TopicPartition> ownedPartitions = Set.of();
    /** Counts the changes of {@link #owned()}: a holder of the lock that saw another number must look again. */
    private volatile long generation;
    private volatile String fencedBy;
    private volatile RuntimeException failure;
    private volatile boolean closing;

    private PartitionShare(Map<String, Object> clientProps, String group, String topic, KafkaSubscription subscription,
                           String instanceId) {
        this.group = group;
        this.topic = topic;
        this.subscription = subscription;
        this.instanceId = instanceId;
        Map<String, Object> props = consumerProps(clientProps, group, instanceId);
        if (subscription != null && subscription.pattern() != null) {
            // a topic created to match the pattern joins the group's assignment at the next metadata refresh (Kafka's default: 5 minutes)
            props.putIfAbsent(ConsumerConfig.METADATA_MAX_AGE_CONFIG, (int) PATTERN_REFRESH.toMillis());
        }
        this.consumer = new KafkaConsumer<>(props);
        this.adminProps = new HashMap<>();
        clientProps.forEach((k, v) -> {
            if (AdminClientConfig.configNames().contains(k)) {
                adminProps.put(k, v);
            }
        });
        adminProps.put(AdminClientConfig.CLIENT_ID_CONFIG, group + "-" + instanceId + "-check");
        this.nextCheck = System.nanoTime();
        this.thread = new Thread(this::run, "tributary-share-" + group);
        thread.setDaemon(true);
    }

    /**
     * Joins group {@code group} for {@code topic}'s partitions as instance {@code instanceId}; the
     * share is empty until the group's first assignment ({@link #awaitAssignment}).
     */
    public static PartitionShare join(Map<String, Object> clientProps, String group, String topic, String instanceId) {
        PartitionShare share = new PartitionShare(clientProps, group, topic, null, instanceId);
        share.consumer.subscribe(List.of(topic), share.listener());
        share.thread.start();
        return share;
    }

    /**
     * Joins group {@code group} for the topic-partitions of a Kafka source's {@code subscription} (its
     * topics, or those its pattern matches, a topic created later included) as instance
     * {@code instanceId}: the group shares them as one set ({@link #ownedTopicPartitions()}).
     */
    public static PartitionShare join(Map<String, Object> clientProps, String group, KafkaSubscription subscription, String instanceId) {
        PartitionShare share = new PartitionShare(clientProps, group, subscription.description(), subscription, instanceId);
        if (subscription.pattern() != null) {
            share.consumer.subscribe(subscription.pattern(), share.listener());
        } else {
            share.consumer.subscribe(subscription.topics(), share.listener());
        }
        share.thread.start();
        return share;
    }

    static Map<String, Object> consumerProps(Map<String, Object> clientProps, String group, String instanceId) {
        Map<String, Object> p = new HashMap<>();
        for (Map.Entry<String, Object> e : clientProps.entrySet()) {
            if (ConsumerConfig.configNames().contains(e.getKey())) {
                p.put(e.getKey(), e.getValue());
            }
        }
        p.putIfAbsent(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int) SESSION_TIMEOUT.toMillis());
        p.putIfAbsent(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int) HEARTBEAT.toMillis());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instanceId);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, group + "-" + instanceId);
        // the client-side session timeout and cooperative rebalancing are the classic protocol's
        p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest"); // never read: every partition stays paused
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return p;
    }

    private ConsumerRebalanceListener listener() {
        return new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                consumer.pause(consumer.assignment());
                if (!partitions.isEmpty()) {
                    change(partitions, true);
                    LOG.info("{}: instance {} now owns partition(s) {} of {}", group, instanceId, numbers(partitions), topic);
                }
                assigned.countDown();
            }

            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                if (partitions.isEmpty()) {
                    return;
                }
                work.lock(); // the piece of work in flight ends first (and commits its progress)
                try {
                    change(partitions, false);
                } finally {
                    work.unlock();
                }
                LOG.info("{}: instance {} handed over partition(s) {} of {}", group, instanceId, numbers(partitions), topic);
            }

            @Override
            public void onPartitionsLost(Collection<TopicPartition> partitions) {
                if (!partitions.isEmpty()) {
                    change(partitions, false);
                    LOG.warn("{}: instance {} lost partition(s) {} of {} (it did not answer the group in time); its next commit "
                            + "for them is refused if another instance committed meanwhile", group, instanceId, numbers(partitions), topic);
                }
            }
        };
    }

    private synchronized void change(Collection<TopicPartition> partitions, boolean add) {
        Set<TopicPartition> now = new java.util.HashSet<>(ownedPartitions);
        if (add) {
            now.addAll(partitions);
        } else {
            now.removeAll(partitions);
        }
        Set<Integer> numbers = new TreeSet<>();
        now.forEach(tp -> numbers.add(tp.partition()));
        ownedPartitions = Set.copyOf(now);
        owned = java.util.Collections.unmodifiableSet(numbers);
        generation++;
    }

    /** The partitions' numbers for one topic; topic:partition for a Kafka source's topics. */
    private Object numbers(Collection<TopicPartition> partitions) {
        if (subscription != null) {
            return new TreeSet<>(partitions.stream().map(tp -> tp.topic() + ":" + tp.partition()).toList());
        }
        Set<Integer> out = new TreeSet<>();
        partitions.forEach(tp -> out.add(tp.partition()));
        return out;
    }

    private void run() {
        try {
            while (!closing) {
                consumer.poll(POLL);
                if (System.nanoTime() - nextCheck > 0) {
                    nextCheck = System.nanoTime() + COVERAGE_CHECK.toNanos();
                    checkCoverage();
                }
            }
        } catch (WakeupException e) {
            // close() asked
        } catch (FencedInstanceIdException e) {
            fencedBy = "another process joined group " + group + " with instance id " + instanceId
                    + "; give each instance of the pipeline its own instance.id (TRIBUTARY_INSTANCE_ID)";
            LOG.error("{}: {}", group, fencedBy);
            change(consumer.assignment(), false);
        } catch (RuntimeException e) {
            failure = e;
            LOG.error("{}: the group membership of instance {} failed: {}", group, instanceId, e.toString());
            change(List.copyOf(ownedPartitions), false);
        } finally {
            assigned.countDown();
            try {
                // a clean stop leaves the group at once: the others take the partitions without waiting for the session timeout
                consumer.close(CloseOptions.groupMembershipOperation(closing && fencedBy == null
                        ? CloseOptions.GroupMembershipOperation.LEAVE_GROUP : CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP)
                        .withTimeout(Duration.ofSeconds(5)));
            } catch (RuntimeException e) {
                LOG.debug("{}: closing the group member: {}", group, e.toString());
            }
            if (admin != null) {
                admin.close(Duration.ofSeconds(5));
            }
        }
    }

    /**
     * Asks for a rebalance when a stable group has left the same partitions of the topic without
     * an owner at two checks in a row (a second round of a cooperative rebalance that never came).
     */
    private void checkCoverage() {
        Set<TopicPartition> unowned;
        try {
            if (admin == null) {
                admin = Admin.create(adminProps);
            }
            ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group)).all()
                    .get(COVERAGE_CHECK.toMillis(), TimeUnit.MILLISECONDS).get(group);
            if (d.groupState() != GroupState.STABLE) {
                unownedBefore = Set.of();
                return;
            }
            unowned = new java.util.HashSet<>();
            List<PartitionInfo> all = new java.util.ArrayList<>();
            if (subscription == null) {
                all.addAll(consumer.partitionsFor(topic, COVERAGE_CHECK));
            } else {
                consumer.listTopics(COVERAGE_CHECK).forEach((t, parts) -> {
                    if (subscription.subscribes(t)) {
                        all.addAll(parts);
                    }
                });
            }
            for (PartitionInfo p : all) {
                unowned.add(new TopicPartition(p.topic(), p.partition()));
            }
            for (MemberDescription m : d.members()) {
                unowned.removeAll(m.assignment().topicPartitions());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            LOG.debug("{}: checking that every partition has an owner: {}", group, e.toString());
            return; // the next check tries again
        }
        if (!unowned.isEmpty() && unowned.equals(unownedBefore)) {
            LOG.warn("{}: partition(s) {} of {} have had no owner since the last rebalance; instance {} asks the group for another",
                    group, numbers(unowned), topic, instanceId);
            consumer.enforceRebalance("partitions " + numbers(unowned) + " of " + topic + " have no owner");
            unowned = Set.of();
        }
        unownedBefore = unowned;
    }

    /** Waits up to {@code timeout} for the group's first assignment (which may give this instance nothing); false if none came. */
    public boolean awaitAssignment(Duration timeout) throws InterruptedException {
        return assigned.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The partitions this instance owns now (their numbers: for a group of one topic). */
    public Set<Integer> owned() {
        return owned;
    }

    /** The topic-partitions this instance owns now. */
    public Set<TopicPartition> ownedTopicPartitions() {
        return ownedPartitions;
    }

    /** Changes with every change of {@link #owned()}. */
    public long generation() {
        return generation;
    }

    /**
     * Held around each piece of work on the owned partitions (a batch and its commit): a rebalance
     * takes a partition away only once it is released.
     */
    public ReentrantLock lock() {
        return work;
    }

    /** Why this instance owns nothing for good (another process took its instance id), or null. */
    public String fencedBy() {
        return fencedBy;
    }

    /** The error that ended the membership, or null. */
    public RuntimeException failure() {
        return failure;
    }

    public String group() {
        return group;
    }

    public String instanceId() {
        return instanceId;
    }

    /** Leaves the group (the others take the partitions at once) and waits for the membership thread. */
    @Override
    public void close() {
        closing = true;
        consumer.wakeup();
        try {
            thread.join(Duration.ofSeconds(30).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
