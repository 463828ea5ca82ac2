package io.tributary.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.testing.CommittedRecords;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Tag("integration")
@Timeout(120)
class EmbeddedBrokerTest {
    @TempDir
    Path dir;

    @Test
    void transactionalRecordsSurviveARestartOnTheSameFolder() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(dir.resolve("kafka"))) {
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic("t", 2, (short) 1))).all().get();
            }
            try (KafkaProducer<String, String> p = new KafkaProducer<>(Map.of(
                    "bootstrap.servers", broker.bootstrapServers(), "transactional.id", "tx-1"),
                    new StringSerializer(), new StringSerializer())) {
                p.initTransactions();
                p.beginTransaction();
                p.send(new ProducerRecord<>("t", 0, null, "committed"));
                p.commitTransaction();
                p.beginTransaction();
                p.send(new ProducerRecord<>("t", 0, null, "aborted"));
                p.flush();
                p.abortTransaction();
            }
        }
        try (EmbeddedBroker broker = EmbeddedBroker.start(dir.resolve("kafka"))) {
            assertThat(readCommitted(broker.bootstrapServers())).containsExactly("committed");
        }
    }

    /**
     * The stop wakes KRaft's expiration reaper instead of waiting out its 200 ms poll: the thread is
     * there by Kafka's name while the broker runs (a Kafka that renames it fails here), it has ended
     * once the broker has stopped, and the stop was a clean one (the next start finds the marker).
     */
    @Test
    void aStopEndsTheRaftReaperAndIsClean() throws Exception {
        List<org.apache.kafka.server.util.ShutdownableThread> reapers;
        try (EmbeddedBroker broker = EmbeddedBroker.start(dir.resolve("kafka"))) {
            reapers = ShutdownNudge.threads();
            assertThat(reapers).extracting(Thread::getName).contains("raft-expiration-reaper");
        }
        assertThat(reapers).noneMatch(Thread::isAlive);
        assertThat(dir.resolve("kafka").resolve(EmbeddedBroker.CLEAN_SHUTDOWN_FILE)).exists();
    }

    /**
     * The folder as a process killed mid-transaction leaves it (copied while the broker runs: no
     * clean-shutdown file): the next start fences the dead registration with the controller
     * alone, then starts the broker; the committed record is there, and the transaction left
     * open is aborted when its transactional id starts again.
     */
    @Test
    void aStartAfterTheProcessDiedKeepsCommittedRecordsAndAbortsTheOpenTransaction() throws Exception {
        Path crashed = dir.resolve("crashed");
        try (EmbeddedBroker broker = EmbeddedBroker.start(dir.resolve("kafka"))) {
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic("t", 2, (short) 1))).all().get();
            }
            KafkaProducer<String, String> p = new KafkaProducer<>(Map.of(
                    "bootstrap.servers", broker.bootstrapServers(), "transactional.id", "tx-1"),
                    new StringSerializer(), new StringSerializer());
            p.initTransactions();
            p.beginTransaction();
            p.send(new ProducerRecord<>("t", 0, null, "committed"));
            p.commitTransaction();
            p.beginTransaction();
            p.send(new ProducerRecord<>("t", 1, null, "open when the process died"));
            p.flush();
            copy(dir.resolve("kafka"), crashed);
            p.close(Duration.ZERO);
        }
        assertThat(crashed.resolve(EmbeddedBroker.CLEAN_SHUTDOWN_FILE)).doesNotExist();
        try (EmbeddedBroker broker = EmbeddedBroker.start(crashed)) {
            try (KafkaProducer<String, String> p = new KafkaProducer<>(Map.of(
                    "bootstrap.servers", broker.bootstrapServers(), "transactional.id", "tx-1"),
                    new StringSerializer(), new StringSerializer())) {
                p.initTransactions();
            }
            assertThat(readCommitted(broker.bootstrapServers())).containsExactly("committed");
        }
        assertThat(crashed.resolve(EmbeddedBroker.CLEAN_SHUTDOWN_FILE)).as("a clean stop after the recovery").exists();
    }

    /**
     * A stop while a transaction is open on both partitions: the next start fences the last run
     * first; the transaction is aborted on both partitions when its transactional id starts again,
     * and a read_committed reader gets to the end of each.
     */
    @Test
    void aStopWithATransactionOpenIsAbortedOnEveryPartitionAfterTheRestart() throws Exception {
        Path kafka = dir.resolve("kafka");
        EmbeddedBroker first = EmbeddedBroker.start(kafka);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", first.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic("t", 2, (short) 1))).all().get();
        }
        KafkaProducer<String, String> open = producer(first);
        open.initTransactions();
        open.beginTransaction();
        open.send(new ProducerRecord<>("t", 0, null, "committed"));
        open.commitTransaction();
        open.beginTransaction();
        open.send(new ProducerRecord<>("t", 0, null, "open at the stop"));
        open.send(new ProducerRecord<>("t", 1, null, "open at the stop"));
        open.flush();
        first.close();
        open.close(Duration.ZERO);
        try (EmbeddedBroker broker = EmbeddedBroker.start(kafka)) {
            try (KafkaProducer<String, String> p = producer(broker)) {
                p.initTransactions();
            }
            assertThat(readCommitted(broker.bootstrapServers())).containsExactly("committed");
        }
    }

    private static KafkaProducer<String, String> producer(EmbeddedBroker broker) {
        return new KafkaProducer<>(Map.of("bootstrap.servers", broker.bootstrapServers(), "transactional.id", "tx-1"),
                new StringSerializer(), new StringSerializer());
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.copy(f, to.resolve(from.relativize(f).toString()));
            }
        }
    }

    private static List<String> readCommitted(String bootstrap) {
        return CommittedRecords.values(CommittedRecords.read(Map.of("bootstrap.servers", bootstrap), "t"));
    }
}
