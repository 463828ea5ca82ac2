package io.tributary.tests;

import static io.tributary.tests.SourceTopics.ids;
import static io.tributary.tests.SourceTopics.tableOffsets;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.sink.DeltaTables;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A continuous {@code tributary run} (its own process) over {@code topicPattern}: a topic created
 * while it runs is picked up at a later batch and read from its earliest offset, as Spark's
 * subscribePattern does; after SIGTERM the table holds every record once.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(300)
class KafkaSourceContinuousScenarioTest {
    @TempDir
    Path dir;
    private SourceTopics kafka;

    @BeforeEach
    void start() {
        kafka = new SourceTopics(dir);
    }

    @AfterEach
    void stop() {
        kafka.close();
    }

    @Test
    void aTopicCreatedWhileTheRunGoesOnIsReadFromItsEarliestOffset() throws Exception {
        kafka.create("events-eu", 2);
        kafka.produce("events-eu", 0, ids(1));
        kafka.produce("events-eu", 1, ids(2));
        Workspace ws = new Workspace(dir, kafka.spec("    topicPattern: \"events-.*\"\n")
                + "trigger: { processingTime: 1 second }\n");
        String table = dir.resolve("out").toString();
        ChildProcess run = ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
        try {
            awaitRows(table, 2, run);
            kafka.create("events-us", 1);
            kafka.produce("events-us", 0, ids(20, 21)); // written before the run sees the topic: read from its earliest
            kafka.produce("events-eu", 1, ids(3));
            awaitRows(table, 5, run);
            assertThat(run.stop(90)).as("exit code after SIGTERM; stderr:\n%s", run.err()).isZero();
            assertThat(SourceTopics.tableIds(dir)).containsExactly(1, 2, 3, 20, 21);
            assertThat(tableOffsets(dir)).isEqualTo(Map.of("events-eu", Map.of("0", 1L, "1", 2L), "events-us", Map.of("0", 2L)));
        } finally {
            run.kill();
        }
    }

    @Test
    void aRunKilledMidwayAndStartedAgainLeavesEveryRecordOfSeveralTopicsOnce() throws Exception {
        kafka.create("orders", 2);
        kafka.create("refunds", 1);
        int[] orders = java.util.stream.IntStream.range(0, 200).toArray();
        int[] refunds = java.util.stream.IntStream.range(1000, 1100).toArray();
        kafka.produce("orders", 0, ids(java.util.Arrays.copyOfRange(orders, 0, 120)));
        kafka.produce("orders", 1, ids(java.util.Arrays.copyOfRange(orders, 120, 200)));
        kafka.produce("refunds", 0, ids(refunds));
        Workspace ws = new Workspace(dir, kafka.spec("    topics: [orders, refunds]\n    maxOffsetsPerTrigger: 20\n"));
        String table = dir.resolve("out").toString();
        ChildProcess run = ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
        try {
            awaitRows(table, 40, run);
            run.kill(); // SIGKILL between or inside batches: no shutdown hook runs
        } finally {
            run.kill();
        }
        assertThat(DeltaTables.readRows(table).size()).as("killed before the end").isLessThan(300);
        ChildProcess again = ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
        try {
            awaitRows(table, 300, again);
            assertThat(again.stop(90)).as("exit code after SIGTERM; stderr:\n%s", again.err()).isZero();
        } finally {
            again.kill();
        }
        assertThat(SourceTopics.tableIds(dir)).as("each record once").hasSize(300);
        assertThat(tableOffsets(dir)).isEqualTo(Map.of("orders", Map.of("0", 120L, "1", 80L), "refunds", Map.of("0", 100L)));
    }

    private static void awaitRows(String table, int rows, ChildProcess run) {
        await("rows in the table").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).until(() -> {
            assertThat(run.alive()).as("the run goes on; stderr:\n%s", run.err()).isTrue();
            return DeltaTables.exists(table) && DeltaTables.readRows(table).size() >= rows;
        });
    }
}
