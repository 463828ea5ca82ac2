package io.tributary.ingest;

import static io.tributary.ingest.IngestKit.readCommitted;
import static io.tributary.ingest.IngestKit.text;
import static io.tributary.ingest.IngestKit.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.BrokerExtension;
import io.tributary.schema.Progress;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.testing.CapturedErr;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka leaves the ingest's producer unusable without another ingest having taken over (its transaction aborted by
 * the coordinator for running past {@code transaction.timeout.ms}): the batch runs again on a new producer and every
 * file is published once. A producer that really took the transactional id still stops the ingest.
 */
@Tag("integration")
@Timeout(180)
class ProducerRecoveryTest {
    static final Schema SCHEMA = Schema.parse("id INT, user STRING");

    @TempDir
    static Path tmp;
    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    @Test
    void aBatchTheCoordinatorAbortedRunsAgainOnANewProducerAndEachFileIsPublishedOnce() throws Exception {
        Path in = tmp.resolve("timed-out/in");
        IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline("timed-out"), in, SCHEMA).build();
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        Map<String, Object> props = new HashMap<>(IngestKit.props(KAFKA.broker()));
        props.put("transaction.timeout.ms", 2000);
        write(in, "a.json", "{\"id\": 1, \"user\": \"a\"}\n{\"id\": 2, \"user\": \"b\"}\n", 1_000_000);
        write(in, "b.json", "{\"id\": 3, \"user\": \"c\"}\n{\"id\": \n", 2_000_000);
        CapturedErr log = null;
        try (FileIngest ingest = new FileIngest(config, props); Admin admin = Admin.create(IngestKit.props(KAFKA.broker()))) {
            // the dead-letter topic goes: the batch sends a.json's rows, then waits on b.json's bad line for the topic,
            // its transaction open, until the coordinator aborted it for its timeout and the topic is back
            admin.deleteTopics(List.of(config.deadLetterTopic())).all().get();
            await("the dead-letter topic is gone").atMost(Duration.ofSeconds(60))
                    .until(() -> !admin.listTopics().names().get().contains(config.deadLetterTopic()));
            log = CapturedErr.start();
            CompletableFuture<Progress> batch = CompletableFuture.supplyAsync(() -> ingest.runBatch().orElseThrow());
            await("the coordinator aborts the batch's transaction").atMost(Duration.ofSeconds(60)).until(() -> {
                TransactionState s = admin.describeTransactions(List.of(config.transactionalId())).all().get()
                        .get(config.transactionalId()).state();
                return s == TransactionState.PREPARE_ABORT || s == TransactionState.COMPLETE_ABORT;
            });
            assertThat(batch).isNotDone();
            admin.createTopics(List.of(new NewTopic(config.deadLetterTopic(), 1, (short) 1))).all().get();

            Progress p = batch.get();
            assertThat(p.batchId()).isZero();
            assertThat(p.numInputRows()).isEqualTo(3);
            assertThat(ingest.runBatch()).as("nothing left").isEmpty();
            IngestStatus status = ingest.status();
            assertThat(status.files()).extracting(IngestedFile::path, IngestedFile::batchId)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("a.json", 0L), org.assertj.core.groups.Tuple.tuple("b.json", 0L));
            assertThat(status.nextBatchId()).isEqualTo(1);
        } finally {
            if (log != null) {
                log.close();
            }
        }
        assertThat(readCommitted(KAFKA.broker(), config.eventsTopic())).extracting(r -> text(r.value())).containsExactlyInAnyOrder(
                "{\"id\":1,\"user\":\"a\"}", "{\"id\":2,\"user\":\"b\"}", "{\"id\":3,\"user\":\"c\"}");
        assertThat(readCommitted(KAFKA.broker(), config.deadLetterTopic())).hasSize(1);
        assertThat(readCommitted(KAFKA.broker(), config.ingestLogTopic())).extracting(r -> text(r.key()))
                .containsExactly("a.json", "b.json", "__state__");
        assertThat(log.text()).contains("ingest of pipeline " + config.pipeline()
                + ": batch 0: the producer failed (InvalidProducerEpochException: ").contains("a new producer takes transactional.id "
                + config.transactionalId() + " over and the batch runs again from its start (attempt 2 of 3)");
    }

    @Test
    void aProducerThatTookTheTransactionalIdAndLeftStillStopsTheIngest() throws Exception {
        Path in = tmp.resolve("taken/in");
        IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline("taken"), in, SCHEMA).build();
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        write(in, "a.json", "{\"id\": 1, \"user\": \"a\"}\n", 1_000_000);
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            Map<String, Object> other = new HashMap<>(IngestKit.props(KAFKA.broker()));
            other.put("transactional.id", config.transactionalId());
            try (KafkaProducer<byte[], byte[]> taker = new KafkaProducer<>(other, new ByteArraySerializer(), new ByteArraySerializer())) {
                taker.initTransactions(); // takes the id, then goes
            }
            assertThatThrownBy(ingest::runBatch).isInstanceOf(TributaryException.class)
                    .hasMessageContaining("batch 0 of pipeline " + config.pipeline() + " was not published: another ingest with transactional.id "
                            + config.transactionalId() + " took over");
            assertThatThrownBy(ingest::runBatch).as("stopped, not tried again").isInstanceOf(TributaryException.class)
                    .hasMessageContaining("is closed");
        }
        assertThat(readCommitted(KAFKA.broker(), config.eventsTopic())).isEmpty();
        assertThat(readCommitted(KAFKA.broker(), config.ingestLogTopic())).isEmpty();
    }
}
