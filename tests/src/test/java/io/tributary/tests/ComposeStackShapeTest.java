package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.sink.DeltaTables;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code docker-compose.yml} runs: a fresh pipeline as a continuous service (no trigger)
 * next to a new broker it does not own, files in the input folder at start and one dropped later,
 * then SIGTERM. On such a broker a topic just created reaches the broker's metadata seconds later
 * (it creates its 50 transaction-state partitions meanwhile): a stage must wait for its topic.
 */
@Tag("integration")
@Timeout(600)
class ComposeStackShapeTest {
    private static final long WAIT_MS = 240_000;

    @TempDir
    Path dir;

    @Test
    void aFreshServiceOnANewBrokerIngestsTheFilesAndStopsCleanly() throws Exception {
        try (StandaloneBroker broker = StandaloneBroker.start(dir.resolve("broker"))) {
            Workspace ws = new Workspace(dir.resolve("pipeline"), """
                    name: compose
                    source:
                      files:
                        path: in/
                        format: json
                        schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
                    sink:
                      delta:
                        path: out/
                    topic:
                      partitions: 4
                    kafka:
                      bootstrap.servers: "%s"
                    """.formatted(broker.bootstrapServers()));
            String table = ws.dir.resolve("out").toString();
            ws.addFile("part-0001.json",
                    "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                    "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}");
            ChildProcess service = ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
            try {
                await(service, "the rows of the file present at start", () -> ids(table).equals(List.of(1, 2)));
                ws.addFile("part-0002.json", "{\"id\": 3, \"user\": \"c\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:20:00Z\"}");
                await(service, "the rows of the file dropped later", () -> ids(table).equals(List.of(1, 2, 3)));

                assertThat(service.stop(120)).as("exit code after SIGTERM; stderr:\n%s", service.err()).isZero();
                assertThat(service.err()).doesNotContain("error:").doesNotContain("Exception");
            } finally {
                service.kill();
            }
        }
    }

    @Test
    void aFreshAggregationServiceOnANewBrokerWritesClosedWindowsAndStopsCleanly() throws Exception {
        // this broker creates topics that clients ask about (auto.create.topics.enable), as some do
        try (StandaloneBroker broker = StandaloneBroker.start(dir.resolve("broker"), true)) {
            Workspace ws = new Workspace(dir.resolve("pipeline"), """
                    name: revenue
                    source:
                      files:
                        path: in/
                        format: json
                        schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
                    aggregate:
                      eventTime: ts
                      watermark: 5 minutes
                      window: 10 minutes
                      groupBy: [user]
                      select: { t: sum(amt) }
                    outputMode: append
                    sink:
                      delta:
                        path: agg/
                    kafka:
                      bootstrap.servers: "%s"
                    """.formatted(broker.bootstrapServers()));
            String table = ws.dir.resolve("agg").toString();
            ws.addFile("part-0001.json",
                    "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                    "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}");
            ChildProcess service = ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
            try {
                await(service, "the ingest of the file present at start",
                        () -> service.out().contains("\"name\":\"revenue/ingest\"") && service.out().contains("\"numInputRows\":2"));
                // 10:20 moves the watermark to 10:15: the window [10:00, 10:10) closes and is written
                ws.addFile("part-0002.json", "{\"id\": 3, \"user\": \"c\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:20:00Z\"}");
                await(service, "the closed window's rows", () -> GoldenWindowsScenarioTest.table(table).size() == 2);
                assertThat(GoldenWindowsScenarioTest.table(table)).containsExactlyInAnyOrder(
                        "{2026-01-01 10:00:00, 2026-01-01 10:10:00}|a|5.0",
                        "{2026-01-01 10:00:00, 2026-01-01 10:10:00}|b|7.0");

                assertThat(service.stop(120)).as("exit code after SIGTERM; stderr:\n%s", service.err()).isZero();
                assertThat(service.err()).doesNotContain("error:").doesNotContain("Exception");
            } finally {
                service.kill();
            }
        }
    }

    private static List<Integer> ids(String table) {
        if (!DeltaTables.exists(table)) {
            return List.of();
        }
        return DeltaTables.readRows(table).stream().map(r -> (Integer) r[0]).sorted().collect(Collectors.toList());
    }

    /** Polls {@code done} until it holds; fails at once, with the service's output, if the service ended. */
    private static void await(ChildProcess service, String what, Check done) {
        service.awaitWhileAlive(what, Duration.ofMillis(WAIT_MS), Duration.ofMillis(200), done::holds);
    }

    private interface Check {
        boolean holds() throws Exception;
    }
}
