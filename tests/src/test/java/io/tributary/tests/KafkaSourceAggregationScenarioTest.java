package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.EmbeddedBroker;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A windowed aggregation over a topic another application writes, by {@code tributary run} with
 * {@code source.kafka} and {@code aggregate:}, into a Delta table: Spark's table after each run.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(300)
class KafkaSourceAggregationScenarioTest {
    @TempDir
    Path dir;
    private EmbeddedBroker broker;

    @BeforeEach
    void startBroker() throws Exception {
        broker = EmbeddedBroker.start(dir.resolve("kafka"));
    }

    @AfterEach
    void stopBroker() {
        broker.close();
    }

    private Map<String, Object> client() {
        return Map.of("bootstrap.servers", broker.bootstrapServers());
    }

    /**
     * golden/windows/case-901, runs 1 and 2: the rows another application writes to a three-partition
     * topic, aggregated by tributary run in windows into a Delta table; the second run starts where the
     * first ended (nothing counted twice) and the table is Spark's after each run.
     */
    @Test
    void aWindowedAggregationOverATopicLandsSparksTableAcrossRuns() throws Exception {
        try (Admin admin = Admin.create(client())) {
            admin.createTopics(List.of(new NewTopic("sales", 3, (short) 1))).all().get();
        }
        String spec = "name: sales\n"
                + "source:\n  kafka:\n    topics: [sales]\n    schema: \"id INT, user STRING, amt DOUBLE, ts TIMESTAMP\"\n"
                + "aggregate:\n  eventTime: ts\n  watermark: 5 minutes\n  window: 10 minutes\n  groupBy: [user]\n"
                + "  select: { t: sum(amt) }\noutputMode: append\n"
                + "sink:\n  delta:\n    path: agg/\ntopic:\n  partitions: 3\n"
                + "kafka:\n  bootstrap.servers: \"" + broker.bootstrapServers() + "\"\n";
        Workspace ws = new Workspace(dir, spec);
        for (int run = 1; run <= 2; run++) {
            try (KafkaProducer<String, String> p = new KafkaProducer<>(Map.of("bootstrap.servers", broker.bootstrapServers()),
                    new StringSerializer(), new StringSerializer())) {
                for (String row : GoldenWindowsScenarioTest.golden("case-901/run" + run + ".json").strip().split("\n")) {
                    p.send(new ProducerRecord<>("sales", row.replaceAll(".*\"id\": (\\d+).*", "$1"), row)).get();
                }
            }
            ws.tributary("run", "--trigger", "availableNow").assertOk();
            assertThat(GoldenWindowsScenarioTest.table(dir.resolve("agg").toString())).as("after run %d", run)
                    .containsExactlyInAnyOrderElementsOf(Golden.windowRows("windows/case-901/after-run" + run + ".txt"));
        }
    }
}
