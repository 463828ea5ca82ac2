package io.tributary.source;

import static io.tributary.source.TestTable.row;
import static io.tributary.source.TestTable.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.BrokerExtension;
import io.tributary.schema.Progress;
import io.tributary.schema.TributaryException;
import io.tributary.testing.CapturedErr;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Delta source's producer left unusable by Kafka without another instance taking over (its transaction aborted
 * by the coordinator for running past {@code transaction.timeout.ms}): the batch runs again on a new producer and
 * its rows are published once. A producer that really took the transactional id still stops the source.
 */
@Tag("integration")
@Timeout(180)
class ProducerRecoveryTest {
    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    @TempDir
    Path dir;

    @Test
    void aBatchTheCoordinatorAbortedRunsAgainOnANewProducerAndItsRowsArePublishedOnce() throws Exception {
        TestTable t = TestTable.create(dir.resolve("bronze"), DeltaSourceTest.SCHEMA, DeltaSourceTest.KERNEL, Map.of());
        t.append(rows(row(1, "a", 1.0), row(2, "b", 2.0)));
        DeltaSourceConfig c = DeltaSourceConfig.builder("timed-out", t.path).build();
        Map<String, Object> props = new HashMap<>(KAFKA.client());
        props.put("transaction.timeout.ms", 2000);
        CapturedErr log = null;
        try (DeltaSource source = new DeltaSource(c, props); Admin admin = Admin.create(KAFKA.client())) {
            source.start();
            // the progress topic goes: the batch sends its rows, then waits for the topic to send its progress record,
            // its transaction open, until the coordinator aborted it for its timeout and the topic is back
            admin.deleteTopics(List.of(c.progressTopic())).all().get();
            await("the progress topic is gone").atMost(Duration.ofSeconds(60))
                    .until(() -> !admin.listTopics().names().get().contains(c.progressTopic()));
            log = CapturedErr.start();
            CompletableFuture<Progress> batch = CompletableFuture.supplyAsync(() -> source.runBatch().orElseThrow());
            await("the coordinator aborts the batch's transaction").atMost(Duration.ofSeconds(60)).until(() -> {
                TransactionState s = admin.describeTransactions(List.of(c.transactionalId())).all().get().get(c.transactionalId()).state();
                return s == TransactionState.PREPARE_ABORT || s == TransactionState.COMPLETE_ABORT;
            });
            assertThat(batch).isNotDone();
            DeltaSource.createTopics(KAFKA.client(), c);

            Progress p = batch.get();
            assertThat(p.batchId()).isZero();
            assertThat(p.numInputRows()).isEqualTo(2);
            assertThat(source.runBatch()).as("nothing left").isEmpty();
        } finally {
            if (log != null) {
                log.close();
            }
        }
        try (DeltaSource restarted = new DeltaSource(c, KAFKA.client())) {
            assertThat(restarted.runBatch()).as("the stored progress is after the batch").isEmpty();
        }
        assertThat(TopicReader.values(KAFKA.broker().bootstrapServers(), c.topic()))
                .containsExactlyInAnyOrder(DeltaSourceTest.json(1, "a", 1.0), DeltaSourceTest.json(2, "b", 2.0));
        assertThat(log.text()).contains("delta-source " + t.path + " of pipeline timed-out: batch 0: the producer"
                + " failed (InvalidProducerEpochException: ").contains("a new producer takes transactional.id " + c.transactionalId()
                + " over and the batch runs again from its start (attempt 2 of 3)");
    }

    @Test
    void aProducerThatTookTheTransactionalIdAndLeftStillStopsTheSource() {
        TestTable t = TestTable.create(dir.resolve("bronze"), DeltaSourceTest.SCHEMA, DeltaSourceTest.KERNEL, Map.of());
        t.append(rows(row(1, "a", 1.0)));
        DeltaSourceConfig c = DeltaSourceConfig.builder("taken", t.path).build();
        try (DeltaSource source = new DeltaSource(c, KAFKA.client())) {
            source.start();
            Map<String, Object> other = new HashMap<>(KAFKA.client());
            other.put("transactional.id", c.transactionalId());
            try (KafkaProducer<byte[], byte[]> taker = new KafkaProducer<>(other, new ByteArraySerializer(), new ByteArraySerializer())) {
                taker.initTransactions(); // takes the id, then goes
            }
            for (int run = 0; run < 2; run++) { // the second as the first: never on a new producer
                assertThatThrownBy(source::runBatch).isInstanceOf(TributaryException.class)
                        .hasMessageContaining("another process took over transactional.id " + c.transactionalId());
            }
        }
        assertThat(TopicReader.values(KAFKA.broker().bootstrapServers(), c.topic())).isEmpty();
    }
}
