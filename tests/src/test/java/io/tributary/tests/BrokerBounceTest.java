package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.EmbeddedBroker;
import io.tributary.broker.LoopbackPorts;
import io.tributary.schema.Topics;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.TopicTail;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A broker bounce under a running service: the pipeline waits, goes on, and the table is exact. */
@Tag("integration")
@Timeout(400)
class BrokerBounceTest {
    @TempDir
    Path dir;

    @Test
    void theServiceWaitsOutABrokerBounceAndTheTableIsExact() throws Exception {
        int port = LoopbackPorts.stable(1)[0]; // nothing listens there until a broker does
        Path kafkaDir = dir.resolve("kafka");
        EmbeddedBroker broker = EmbeddedBroker.start(kafkaDir, port);
        Workspace ws = new Workspace(dir, QuickstartScenarios.SPEC.replace("trigger: availableNow",
                "trigger: { processingTime: 1 second }\nkafka:\n  bootstrap.servers: \"127.0.0.1:" + port + "\"\n"));
        String table = dir.resolve("out").toString();
        ws.addFile("part-0001.json", "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}");
        ChildProcess service = ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
        try {
            awaitRows(table, 1, service);
            broker.close();
            ws.addFile("part-0002.json", "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}");
            // the outage: five seconds of triggers that cannot reach the broker, and the service runs through them
            await("the service runs while the broker is down").during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(10))
                    .until(service::alive);
            broker = EmbeddedBroker.start(kafkaDir, port);
            ws.addFile("part-0003.json", "{\"id\": 3, \"user\": \"c\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:20:00Z\"}");
            awaitRows(table, 3, service);
            assertThat(service.alive()).as("the service is still running; stderr:\n%s", service.err()).isTrue();
            // a duplicate would be in the table by now: the sink has committed every row of its topic
            await("the sink has taken every row of " + Topics.events("quickstart")).atMost(Duration.ofMinutes(2))
                    .until(() -> TopicTail.sinkCaughtUp(Map.of("bootstrap.servers", "127.0.0.1:" + port), table, Topics.events("quickstart")));
            assertThat(service.stop(90)).as("exit code after SIGTERM; stderr:\n%s", service.err()).isZero();
            assertThat(DeltaTables.readRows(table)).as("the table once the service has ended")
                    .extracting(r -> r[0]).containsExactlyInAnyOrder(1, 2, 3);
        } finally {
            service.kill();
            broker.close();
        }
    }

    private static void awaitRows(String table, int rows, ChildProcess service) throws IOException {
        await("rows in the table").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250)).until(() -> {
            assertThat(service.alive()).as("the service is running; stderr:\n%s", service.err()).isTrue();
            return DeltaTables.exists(table) && DeltaTables.readRows(table).size() >= rows;
        });
        assertThat(DeltaTables.readRows(table)).as("rows in the table; service stderr:\n%s", service.err()).hasSize(rows);
    }
}
