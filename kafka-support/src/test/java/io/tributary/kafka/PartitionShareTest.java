package io.tributary.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.BrokerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A pipeline's share of a topic among its instances, in a real consumer group. */
@Tag("integration")
class PartitionShareTest {
    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    /** While set, the group's leader below leaves partitions 2 and 3 without an owner, as a lost second round does. */
    static final AtomicBoolean WITHHOLD = new AtomicBoolean(true);

    /**
     * A stable group that leaves partitions without an owner (the second round of a cooperative
     * rebalance that never came) gets another rebalance from the share, which assigns them.
     */
    @Test
    void partitionsAStableGroupLeftWithoutAnOwnerAreAssignedAgain() throws Exception {
        String topic = "shared";
        String group = "tributary-p-sink";
        try (Admin admin = Admin.create(KAFKA.client())) {
            TopicCreation.create(admin, List.of(new NewTopic(topic, Optional.of(4), Optional.empty())));
            TopicCreation.awaitVisible(admin, List.of(topic));
        }
        AtomicBoolean stop = new AtomicBoolean();
        Set<Integer> leaderOwns = java.util.concurrent.ConcurrentHashMap.newKeySet();
        Thread leader = new Thread(() -> {
            // the first member, so the group's leader: it computes every assignment with the withholding assignor
            try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(leaderProps(group))) {
                c.subscribe(List.of(topic));
                while (!stop.get()) {
                    c.poll(Duration.ofMillis(100));
                    leaderOwns.clear();
                    c.assignment().forEach(tp -> leaderOwns.add(tp.partition()));
                }
            }
        });
        leader.start();
        try {
            await("the leader's first assignment").atMost(Duration.ofSeconds(30)).until(() -> !leaderOwns.isEmpty());
            try (PartitionShare share = PartitionShare.join(KAFKA.client(), group, topic, "b");
                 Admin admin = Admin.create(KAFKA.client())) {
                await("a stable group of two members with partitions 2 and 3 unowned").atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(200)).until(() -> {
                            ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group)).all().get().get(group);
                            return d.groupState() == GroupState.STABLE && d.members().size() == 2 && owned(d).equals(Set.of(0, 1));
                        });
                WITHHOLD.set(false); // from now on the leader assigns every partition, once a rebalance asks it to
                await("every partition has an owner again").atMost(PartitionShare.COVERAGE_CHECK.multipliedBy(6))
                        .pollInterval(Duration.ofMillis(200)).until(() -> {
                            ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group)).all().get().get(group);
                            return owned(d).equals(Set.of(0, 1, 2, 3));
                        });
                await("the share and the leader own the four partitions between them").atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                    Set<Integer> both = new TreeSet<>(share.owned());
                    both.addAll(leaderOwns);
                    assertThat(both).containsExactly(0, 1, 2, 3);
                });
            }
        } finally {
            stop.set(true);
            leader.join(30_000);
        }
    }

    private static Set<Integer> owned(ConsumerGroupDescription d) {
        Set<Integer> out = new TreeSet<>();
        for (MemberDescription m : d.members()) {
            m.assignment().topicPartitions().forEach(tp -> out.add(tp.partition()));
        }
        return out;
    }

    private static Map<String, Object> leaderProps(String group) {
        Map<String, Object> p = new HashMap<>(KAFKA.client());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "a");
        p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 6000);
        p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 1500);
        p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, WithholdingAssignor.class.getName());
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return p;
    }

    /** Kafka's cooperative-sticky assignor, but without partitions 2 and 3 while {@link #WITHHOLD} is set. */
    public static final class WithholdingAssignor implements ConsumerPartitionAssignor {
        private final CooperativeStickyAssignor sticky = new CooperativeStickyAssignor();

        @Override
        public String name() {
            return sticky.name();
        }

        @Override
        public List<RebalanceProtocol> supportedProtocols() {
            return sticky.supportedProtocols();
        }

        @Override
        public java.nio.ByteBuffer subscriptionUserData(Set<String> topics) {
            return sticky.subscriptionUserData(topics);
        }

        @Override
        public void onAssignment(Assignment assignment, ConsumerGroupMetadata metadata) {
            sticky.onAssignment(assignment, metadata);
        }

        @Override
        public GroupAssignment assign(Cluster metadata, GroupSubscription subscriptions) {
            GroupAssignment all = sticky.assign(metadata, subscriptions);
            if (!WITHHOLD.get()) {
                return all;
            }
            Map<String, Assignment> kept = new HashMap<>();
            all.groupAssignment().forEach((member, a) -> {
                List<TopicPartition> partitions = new ArrayList<>(a.partitions());
                partitions.removeIf(tp -> tp.partition() >= 2);
                kept.put(member, new Assignment(partitions, a.userData()));
            });
            return new GroupAssignment(kept);
        }
    }
}
