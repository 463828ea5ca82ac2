package io.tributary.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Tag("integration")
@Timeout(300)
class BrokerClusterProcessesTest {
    @TempDir
    Path dir;

    /**
     * Nodes as processes: one killed (SIGKILL), the others go on; started again, it rejoins. A class
     * of its own, so that it runs beside {@link BrokerClusterTest}'s in-process cluster.
     */
    @Test
    void aKilledNodeOfAClusterOfProcessesRejoins() throws Exception {
        try (BrokerCluster cluster = BrokerCluster.startProcesses(dir, 3, null)) {
            String bootstrap = cluster.bootstrapServers();
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
                admin.createTopics(List.of(new NewTopic("t", java.util.Optional.of(2), java.util.Optional.empty()))).all().get();
            }
            try (KafkaProducer<String, String> p = BrokerClusterTest.producer(bootstrap)) {
                p.initTransactions();
                BrokerClusterTest.send(p, "before");
                cluster.kill(3);
                assertThat(cluster.running(3)).isFalse();
                BrokerClusterTest.send(p, "while node 3 is dead");
                cluster.start(3);
                assertThat(cluster.running(3)).isTrue();
            }
            assertThat(BrokerClusterTest.readCommitted(bootstrap)).containsExactlyInAnyOrder("before", "while node 3 is dead");
        }
    }
}
