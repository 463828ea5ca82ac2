package io.tributary.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.testing.CommittedRecords;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Tag("integration")
@Timeout(300)
class BrokerClusterTest {
    @TempDir
    Path dir;

    /**
     * Three nodes in this JVM: a topic takes three replicas and min.insync.replicas 2 by default;
     * with one node stopped, transactions still commit (acks=all needs two in sync), and the node
     * started again catches up.
     */
    @Test
    void aTopicOfTheClusterHasThreeReplicasAndTransactionsGoOnWithOneNodeStopped() throws Exception {
        try (BrokerCluster cluster = BrokerCluster.start(dir, 3)) {
            String bootstrap = cluster.bootstrapServers();
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
                admin.createTopics(List.of(new NewTopic("t", java.util.Optional.of(2), java.util.Optional.empty()))).all().get();
                TopicDescription d = admin.describeTopics(List.of("t")).allTopicNames().get().get("t");
                assertThat(d.partitions()).allSatisfy(p -> assertThat(p.replicas()).hasSize(3));
                assertThat(admin.describeConfigs(List.of(new org.apache.kafka.common.config.ConfigResource(
                        org.apache.kafka.common.config.ConfigResource.Type.TOPIC, "t"))).all().get().values().iterator().next()
                        .get("min.insync.replicas").value()).isEqualTo("2");
            }
            try (KafkaProducer<String, String> p = producer(bootstrap)) {
                p.initTransactions();
                send(p, "before");
                cluster.stop(1);
                send(p, "while node 1 is stopped");
                cluster.start(1);
                cluster.stop(2);
                send(p, "while node 2 is stopped");
                cluster.start(2);
            }
            assertThat(readCommitted(bootstrap)).containsExactlyInAnyOrder("before", "while node 1 is stopped", "while node 2 is stopped");
        }
    }

    static KafkaProducer<String, String> producer(String bootstrap) {
        return new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap, "transactional.id", "tx-1"),
                new StringSerializer(), new StringSerializer());
    }

    static void send(KafkaProducer<String, String> p, String value) {
        p.beginTransaction();
        p.send(new ProducerRecord<>("t", 0, null, value));
        p.send(new ProducerRecord<>("t", 1, null, value));
        p.commitTransaction();
    }

    /** The committed values of partition 0 of topic {@code t} (each transaction writes one to each partition). */
    static List<String> readCommitted(String bootstrap) {
        return CommittedRecords.values(CommittedRecords.read(Map.of("bootstrap.servers", bootstrap), "t").stream()
                .filter(r -> r.partition() == 0).toList());
    }
}
