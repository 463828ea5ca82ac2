package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.EmbeddedBroker;
import io.tributary.sink.DeltaTables;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
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
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
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
            Thread.sleep(5_000);
            broker = EmbeddedBroker.start(kafkaDir, port);
            ws.addFile("part-0003.json", "{\"id\": 3, \"user\": \"c\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:20:00Z\"}");
            awaitRows(table, 3, service);
            assertThat(service.alive()).as("the service is still running; stderr:\n%s", service.err()).isTrue();
            Thread.sleep(2_000);
            assertThat(DeltaTables.readRows(table)).extracting(r -> r[0]).containsExactlyInAnyOrder(1, 2, 3);
        } finally {
            service.kill();
            broker.close();
        }
    }

    private static void awaitRows(String table, int rows, ChildProcess service) throws Exception {
        long deadline = System.currentTimeMillis() + 180_000;
        while (System.currentTimeMillis() < deadline && service.alive()
                && (!DeltaTables.exists(table) || DeltaTables.readRows(table).size() < rows)) {
            Thread.sleep(250);
        }
        assertThat(DeltaTables.exists(table) ? DeltaTables.readRows(table).size() : 0)
                .as("rows in the table; service stderr:\n%s", service.err()).isEqualTo(rows);
    }
}
