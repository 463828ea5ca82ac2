package io.tributary.ingest;

import static io.tributary.ingest.IngestKit.readCommitted;
import static io.tributary.ingest.IngestKit.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.EmbeddedBroker;
import io.tributary.schema.Progress;
import io.tributary.schema.Schema;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker goes away for longer than the producer's delivery timeout while a batch's rows are
 * being sent: the batch fails with a cause Kafka calls retriable (what the service waits out),
 * and once the broker is back the next try publishes the file once.
 */
@Tag("integration")
@Timeout(180)
class BrokerOutageTest {
    static final Schema SCHEMA = Schema.parse("id INT");
    static final int ROWS = 1_000_000;

    @TempDir
    Path tmp;
    private EmbeddedBroker broker;
    private Thread stopping;

    @Test
    void rowsNotAcknowledgedBeforeTheirDeliveryTimeoutFailTheBatchAsRetriable() throws Exception {
        Path in = tmp.resolve("in");
        write(in, "a.json", "{\"id\": -1}\n", 1_000);
        broker = EmbeddedBroker.start(tmp.resolve("kafka"));
        int port = broker.port();
        // the bad line in b.json stops the broker, once, while rows are being sent
        BadRecordPolicy stopTheBroker = new BadRecordPolicy() {
            @Override
            public String name() {
                return "stop-the-broker";
            }

            @Override
            public Action onBadRecord(BadRecord bad) {
                if (stopping == null) {
                    stopping = new Thread(broker::close);
                    stopping.start();
                }
                return BadRecordPolicy.DROP.onBadRecord(bad);
            }
        };
        IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline("outage"), in, SCHEMA).onBadRecord(stopTheBroker).build();
        IngestKit.createTopics(broker, config, 2);
        Map<String, Object> props = new HashMap<>(IngestKit.props(broker));
        props.put("max.block.ms", 3000);
        props.put("request.timeout.ms", 2000);
        props.put("delivery.timeout.ms", 4000);
        props.put("default.api.timeout.ms", 3000);
        try (FileIngest ingest = new FileIngest(config, props)) {
            assertThat(ingest.runBatch().orElseThrow().numInputRows()).as("a.json, the broker up").isEqualTo(1);

            StringBuilder b = new StringBuilder();
            for (int i = 0; i < ROWS; i++) {
                b.append("{\"id\": ").append(i).append("}\n").append(i == ROWS / 4 ? "not json\n" : "");
            }
            write(in, "b.json", b.toString(), 2_000);
            assertThatThrownBy(ingest::runBatch)
                    .hasMessageContaining("batch 1 could not be published to Kafka")
                    .hasMessageContaining("nothing of it was published")
                    .satisfies(e -> assertThat(retriable(e)).as("a retriable cause in " + e).isTrue());

            stopping.join();
            broker = EmbeddedBroker.start(tmp.resolve("kafka"), port);
            Progress p = null;
            for (int attempt = 0; p == null && attempt < 20; attempt++) {
                try {
                    p = ingest.runBatch().orElseThrow();
                } catch (RuntimeException reconnecting) {
                    assertThat(retriable(reconnecting)).as("a retriable cause in " + reconnecting).isTrue();
                }
            }
            assertThat(p).as("a batch once the broker is back").isNotNull();
            assertThat(p.batchId()).isEqualTo(1);
            assertThat(p.sources().get(0).metrics()).containsEntry("numBadRows", 1L);
            List<ConsumerRecord<byte[], byte[]>> events = readCommitted(broker, config.eventsTopic());
            assertThat(events).hasSize(ROWS + 1);
            assertThat(events.stream().map(r -> IngestKit.text(r.value())).distinct().count()).as("distinct rows").isEqualTo(ROWS + 1);
        } finally {
            broker.close();
        }
    }

    private static boolean retriable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof RetriableException) {
                return true;
            }
        }
        return false;
    }
}
