package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Progress;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A continuous run's sink reads the topic while the ingest writes it: a batch takes the rows of
 * the transactions committed when it starts, not waiting for the one the ingest opened since.
 */
@Tag("integration")
@Timeout(value = 2, unit = TimeUnit.MINUTES) // a batch that waited for the open transaction would wait 10
class ContinuousSinkIT {
    private static final Schema SCHEMA = Schema.parse("id INT, user STRING");
    private static final RowJson ROWS = new RowJson(SCHEMA);

    @RegisterExtension
    static final TestKafka KAFKA = new TestKafka();

    @TempDir
    Path dir;

    @Test
    void aBatchTakesTheCommittedRowsWhileTheWriterHoldsItsNextTransactionOpen() throws Exception {
        String topic = KAFKA.newTopic("continuous", 1);
        SinkConfig config = SinkConfig.of(dir.resolve("out").toString(), SCHEMA, topic, "continuous-sink", "continuous/sink")
                .toBuilder().pendingTransactionWait(Duration.ofMinutes(10)).build();
        try (KafkaProducer<byte[], byte[]> ingest = producer()) {
            ingest.initTransactions();
            ingest.beginTransaction(); // the ingest's batch 0, committed
            ingest.send(new ProducerRecord<>(topic, ROWS.write(new Object[] {1, "a"})));
            ingest.commitTransaction();
            ingest.beginTransaction(); // its batch 1, being published
            ingest.send(new ProducerRecord<>(topic, ROWS.write(new Object[] {2, "b"})));
            ingest.flush();

            try (DeltaSink sink = DeltaSink.builder(config, KAFKA.client()).continuous(true).build()) {
                Progress first = sink.runBatch().orElseThrow();
                assertThat(first.numInputRows()).isEqualTo(1);
                assertThat(ids()).containsExactly(1);

                ingest.commitTransaction(); // returns before the commit marker is written: the batch waits for it
                Progress second = sink.runBatch().orElseThrow();
                assertThat(second.numInputRows()).isEqualTo(1);
                assertThat(ids()).containsExactly(1, 2);
            }
        }
        assertThat(DeltaTables.history(dir.resolve("out").toString())).extracting(TableCommit::addedRows).containsExactly(1L, 1L);
    }

    private java.util.List<Integer> ids() {
        return DeltaTables.readRows(dir.resolve("out").toString()).stream().map(r -> (Integer) r[0]).sorted().toList();
    }

    private static KafkaProducer<byte[], byte[]> producer() {
        Map<String, Object> p = new HashMap<>(KAFKA.client());
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "ingest-" + UUID.randomUUID());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return new KafkaProducer<>(p);
    }
}
