package io.tributary.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.BrokerExtension;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Which exception a transactional producer gets from Kafka (4.4, the embedded broker) when the coordinator aborted
 * its transaction for its timeout, and when a second producer took its transactional id, and what
 * {@link ProducerFailure} makes of each: a Kafka upgrade that changes them fails here.
 */
@Tag("integration")
@Timeout(120)
class ProducerFailureTest {
    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();
    private static final int TIMEOUT_MS = 1000;

    @BeforeAll
    static void topic() throws Exception {
        try (Admin admin = Admin.create(KAFKA.client())) {
            admin.createTopics(List.of(new NewTopic("rows", 1, (short) 1))).all().get();
        }
    }

    @Test
    void aTransactionTheCoordinatorTimedOutFailsItsCommitAndTheProducerIsReplacedNotFenced() throws Exception {
        for (boolean sendAfter : new boolean[] {false, true}) {
            String id = "timed-out-" + sendAfter;
            try (KafkaProducer<String, String> producer = producer(id, TIMEOUT_MS)) {
                long began = System.currentTimeMillis();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>("rows", "a"));
                producer.flush();
                awaitAborted(id);
                if (sendAfter) {
                    producer.send(new ProducerRecord<>("rows", "b"));
                    producer.flush();
                }
                RuntimeException e = commitFailure(producer);
                assertThat(e).isInstanceOf(sendAfter ? InvalidProducerEpochException.class : InvalidTxnStateException.class);
                assertThat(ProducerFailure.of(e, System.currentTimeMillis() - began, TIMEOUT_MS)).isEqualTo(ProducerFailure.REPLACE);
            }
            // a new producer with the same transactional id goes on
            try (KafkaProducer<String, String> again = producer(id, 60_000)) {
                again.beginTransaction();
                again.send(new ProducerRecord<>("rows", "c"));
                again.commitTransaction();
            }
        }
    }

    @Test
    void aSecondProducerWithTheTransactionalIdFencesTheFirst() {
        for (boolean sendAfter : new boolean[] {false, true}) {
            String id = "taken-" + sendAfter;
            try (KafkaProducer<String, String> first = producer(id, 60_000)) {
                long began = System.currentTimeMillis();
                first.beginTransaction();
                first.send(new ProducerRecord<>("rows", "a"));
                first.flush();
                producer(id, 60_000).close(); // takes the id and goes: the first is fenced all the same
                if (sendAfter) {
                    first.send(new ProducerRecord<>("rows", "b"));
                    first.flush();
                }
                RuntimeException e = commitFailure(first);
                assertThat(e).isInstanceOf(sendAfter ? InvalidProducerEpochException.class : ProducerFencedException.class);
                assertThat(ProducerFailure.of(e, System.currentTimeMillis() - began, 60_000)).isEqualTo(ProducerFailure.FENCED);
            }
        }
    }

    @Test
    void anyOtherErrorIsLeftToTheCaller() {
        assertThat(ProducerFailure.of(new org.apache.kafka.common.errors.TimeoutException("no answer"), 0, 60_000))
                .isEqualTo(ProducerFailure.OTHER);
        assertThat(ProducerFailure.of(new IllegalStateException("wrapped", new InvalidTxnStateException("state")), 0, 60_000))
                .isEqualTo(ProducerFailure.REPLACE);
        assertThat(ProducerFailure.transactionTimeoutMs(Map.of("transaction.timeout.ms", "2500"))).isEqualTo(2500);
        assertThat(ProducerFailure.transactionTimeoutMs(Map.of())).isEqualTo(60_000);
    }

    private static RuntimeException commitFailure(KafkaProducer<String, String> producer) {
        try {
            producer.commitTransaction();
        } catch (RuntimeException e) {
            return e;
        }
        throw new AssertionError("the commit succeeded");
    }

    /** Waits until the coordinator aborted the open transaction of {@code id} (the broker looks every 2 s). */
    private static void awaitAborted(String id) {
        try (Admin admin = Admin.create(KAFKA.client())) {
            await("the coordinator aborts the transaction").atMost(Duration.ofSeconds(60)).until(() ->
                    admin.describeTransactions(List.of(id)).all().get().get(id).state() != TransactionState.ONGOING);
        }
    }

    private static KafkaProducer<String, String> producer(String id, int timeoutMs) {
        Map<String, Object> p = new HashMap<>(KAFKA.client());
        p.put("transactional.id", id);
        p.put("transaction.timeout.ms", timeoutMs);
        KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
        producer.initTransactions();
        return producer;
    }
}
