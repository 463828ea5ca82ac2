package io.tributary.tests;

import static io.tributary.tests.SourceTopics.ids;
import static io.tributary.tests.SourceTopics.tableIds;
import static io.tributary.tests.SourceTopics.tableOffsets;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark's Kafka source options over topics another application writes: several topics
 * ({@code subscribe}), a pattern ({@code subscribePattern}, a topic created later read from its
 * earliest offset), and the table's offsets per topic-partition carrying each run on exactly once.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(300)
class KafkaSourceTopicsScenarioTest {
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
    void severalTopicsLandExactlyOnceWithTheirOffsetsPerTopicPartition() throws Exception {
        kafka.create("orders", 2);
        kafka.create("refunds", 1);
        kafka.produce("orders", 0, ids(1, 2));
        kafka.produce("orders", 1, ids(3));
        kafka.produce("refunds", 0, ids(10, 11));
        Workspace ws = new Workspace(dir, kafka.spec("    topics: [orders, refunds]\n"));

        Workspace.Result first = ws.tributary("run", "--trigger", "availableNow").assertOk();
        assertThat(tableIds(dir)).containsExactly(1, 2, 3, 10, 11);
        assertThat(tableOffsets(dir)).isEqualTo(Map.of("orders", Map.of("0", 2L, "1", 1L), "refunds", Map.of("0", 2L)));
        JsonNode source = first.progress("orders/sink").get(0).path("sources").get(0);
        assertThat(source.path("description").asText()).isEqualTo("KafkaV2[Subscribe[orders,refunds]]");
        assertThat(source.path("endOffset").path("refunds").path("0").asLong()).isEqualTo(2);

        kafka.produce("orders", 1, ids(4));
        kafka.produce("refunds", 0, ids(12));
        assertThat(ws.tributary("checkpoint show").assertOk().out()).as("the table's offsets and the lag, per topic-partition")
                .contains("  orders  0: table 2, end 2, lag 0; 1: table 1, end 2, lag 1\n", "  refunds  0: table 2, end 3, lag 1\n");
        ws.tributary("run", "--trigger", "availableNow").assertOk();
        ws.tributary("run", "--trigger", "availableNow").assertOk();
        assertThat(tableIds(dir)).as("each record once over three runs").containsExactly(1, 2, 3, 4, 10, 11, 12);
        assertThat(tableOffsets(dir)).isEqualTo(Map.of("orders", Map.of("0", 2L, "1", 2L), "refunds", Map.of("0", 3L)));

        Workspace.Result changed = new Workspace(dir, kafka.spec("    topics: [orders]\n")).tributary("run", "--trigger", "availableNow");
        assertThat(changed.exitCode()).isNotZero();
        assertThat(changed.err()).contains("holds the offsets of topics orders,refunds, but the source reads orders now");
    }

    @Test
    void aPatternReadsTheTopicsMatchingItAndATopicCreatedLaterFromItsEarliestOffset() throws Exception {
        kafka.create("events-eu", 1);
        kafka.create("audit", 1);
        kafka.produce("events-eu", 0, ids(1, 2));
        kafka.produce("audit", 0, ids(99));
        Workspace ws = new Workspace(dir, kafka.spec("    topicPattern: \"events-.*\"\n"));
        ws.tributary("run", "--trigger", "availableNow").assertOk();
        assertThat(tableIds(dir)).containsExactly(1, 2);

        kafka.create("events-us", 2);
        kafka.produce("events-us", 0, ids(20));
        kafka.produce("events-us", 1, ids(21, 22));
        kafka.produce("events-eu", 0, ids(3));
        ws.tributary("run", "--trigger", "availableNow").assertOk();
        assertThat(tableIds(dir)).as("events-us from its earliest offset; audit never").containsExactly(1, 2, 3, 20, 21, 22);
        assertThat(tableOffsets(dir)).isEqualTo(Map.of("events-eu", Map.of("0", 3L), "events-us", Map.of("0", 1L, "1", 2L)));

        ws.tributary("run", "--trigger", "availableNow").assertOk();
        assertThat(tableIds(dir)).containsExactly(1, 2, 3, 20, 21, 22);
    }

    @Test
    void startingOffsetsPerPartitionStartANewTableAndTheTableOffsetsWinAfterwards() throws Exception {
        kafka.create("orders", 2);
        kafka.produce("orders", 0, ids(0, 1, 2, 3, 4));
        kafka.produce("orders", 1, ids(10, 11, 12));
        Workspace ws = new Workspace(dir, kafka.spec("    topics: [orders]\n    startingOffsets: '{\"orders\":{\"0\":3,\"1\":-2}}'\n"));
        ws.tributary("run", "--trigger", "availableNow").assertOk();
        assertThat(tableIds(dir)).containsExactly(3, 4, 10, 11, 12);

        kafka.produce("orders", 0, ids(5));
        ws.tributary("run", "--trigger", "availableNow").assertOk();
        assertThat(tableIds(dir)).as("the table's offsets, not startingOffsets, say where the second run starts")
                .containsExactly(3, 4, 5, 10, 11, 12);
    }

    @Test
    void startingOffsetsLatestIsKeptByTheTableFromTheFirstRunEvenWithNothingToRead() throws Exception {
        kafka.create("orders", 2);
        kafka.produce("orders", 0, ids(1, 2));
        kafka.produce("orders", 1, ids(3));
        Workspace ws = new Workspace(dir, kafka.spec("    topics: [orders]\n    startingOffsets: latest\n"));
        ws.tributary("run", "--trigger", "availableNow").assertOk();
        assertThat(tableIds(dir)).as("nothing written before the start").isEmpty();
        assertThat(tableOffsets(dir)).as("the start, kept as Spark's checkpoint keeps it").isEqualTo(Map.of("orders", Map.of("0", 2L, "1", 1L)));

        kafka.produce("orders", 0, ids(4));
        kafka.produce("orders", 1, ids(5));
        Workspace again = new Workspace(dir, kafka.spec("    topics: [orders]\n    startingOffsets: earliest\n"));
        again.tributary("run", "--trigger", "availableNow").assertOk();
        assertThat(tableIds(dir)).as("the records written after the first run's start; the table's offsets win over startingOffsets")
                .containsExactly(4, 5);
    }

    @Test
    void startingTimestampStartsAtTheFirstRecordAtOrAfterItInEachPartition() throws Exception {
        kafka.create("orders", 2);
        long t = 1_700_000_000_000L;
        kafka.produce("orders", 0, t - 1000, null, ids(1)[0], null, null);
        kafka.produce("orders", 0, t, null, ids(2)[0], null, null);
        kafka.produce("orders", 1, t - 5, null, ids(10)[0], null, null);
        kafka.produce("orders", 1, t + 5, null, ids(11)[0], null, null);
        Workspace ws = new Workspace(dir, kafka.spec("    topics: [orders]\n    startingTimestamp: " + t + "\n"));
        ws.tributary("run", "--trigger", "availableNow").assertOk();
        assertThat(tableIds(dir)).containsExactly(2, 11);
    }

    @Test
    void startingOffsetsThatMissAPartitionAreRefusedAsSparkDoes() throws Exception {
        kafka.create("orders", 2);
        kafka.produce("orders", 0, ids(1));
        Workspace ws = new Workspace(dir, kafka.spec("    topics: [orders]\n    startingOffsets: '{\"orders\":{\"0\":0}}'\n"));
        Workspace.Result r = ws.tributary("run", "--trigger", "availableNow");
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.err()).contains("startingOffsets gives no offset for [orders-1]", "-2 for earliest, -1 for latest");
    }

    @Test
    void maxOffsetsPerTriggerSplitsAnAvailableNowRunIntoBatchesInProportionToEachPartitionsLag() throws Exception {
        kafka.create("orders", 2);
        kafka.produce("orders", 0, ids(1, 2, 3, 4, 5, 6, 7, 8));
        kafka.produce("orders", 1, ids(11, 12, 13, 14));
        Workspace ws = new Workspace(dir, kafka.spec("    topics: [orders]\n    maxOffsetsPerTrigger: 3\n"));
        Workspace.Result r = ws.tributary("run", "--trigger", "availableNow").assertOk();
        assertThat(tableIds(dir)).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 14);
        List<JsonNode> batches = r.progress("orders/sink").stream().filter(p -> p.path("numInputRows").asLong() > 0).toList();
        assertThat(batches).allSatisfy(b -> assertThat(b.path("numInputRows").asLong()).isLessThanOrEqualTo(3));
        assertThat(batches).hasSizeGreaterThanOrEqualTo(4);
        // Spark's split of the first batch: 8 and 4 behind, 3 offsets: floor(3 * 8/12) = 2 and floor(3 * 4/12) = 1
        assertThat(batches.get(0).path("sources").get(0).path("endOffset").path("orders").path("0").asLong()).isEqualTo(2);
        assertThat(batches.get(0).path("sources").get(0).path("endOffset").path("orders").path("1").asLong()).isEqualTo(1);
    }

    @Test
    void anAvailableNowRunEndsAtTheEndOffsetsItsFirstBatchSawWhileAProducerGoesOn() throws Exception {
        kafka.create("orders", 1);
        kafka.produce("orders", 0, ids(java.util.stream.IntStream.range(0, 50).toArray()));
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger(50);
        Thread producer = new Thread(() -> {
            try {
                while (!stop.get()) { // each send acknowledged before the next: a steady stream, never a pause
                    kafka.produce("orders", 0, ids(next.getAndIncrement()));
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Workspace ws = new Workspace(dir, kafka.spec("    topics: [orders]\n"));
        producer.start();
        Workspace.Result r;
        try {
            r = ws.tributary("run", "--trigger", "availableNow");
        } finally {
            stop.set(true);
            producer.join();
        }
        r.assertOk();
        long landed = tableIds(dir).size();
        assertThat(landed).as("every record written before the run started, not all written while it ran").isGreaterThanOrEqualTo(50)
                .isLessThan(next.get());
        assertThat(tableOffsets(dir).get("orders").get("0")).isEqualTo(landed);

        ws.tributary("run", "--trigger", "availableNow").assertOk();
        assertThat(tableIds(dir)).as("the next run reads the rest, each once").hasSize(next.get());
    }

    @Test
    void recordsRetentionDeletedBeforeTheTableReadThemStopTheRunNamingTheGap() throws Exception {
        kafka.create("orders", 1);
        kafka.produce("orders", 0, ids(1, 2));
        Workspace ws = new Workspace(dir, kafka.spec("    topics: [orders]\n"));
        ws.tributary("run", "--trigger", "availableNow").assertOk();
        kafka.produce("orders", 0, ids(3, 4, 5, 6));
        kafka.deleteBefore("orders", 0, 4); // retention: offsets 2 and 3 (ids 3, 4) gone before the table read them

        Workspace.Result r = ws.tributary("run", "--trigger", "availableNow");
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.err()).contains("topic orders partition 0: the table's next offset is 2 but the earliest offset still in the"
                + " partition is 4 (2 records deleted by retention");
        assertThat(tableIds(dir)).containsExactly(1, 2);

        Workspace skip = new Workspace(dir, kafka.spec("    topics: [orders]\n    failOnDataLoss: false\n"));
        Workspace.Result ok = skip.tributary("run", "--trigger", "availableNow").assertOk();
        assertThat(tableIds(dir)).containsExactly(1, 2, 5, 6);
        JsonNode metrics = ok.progress("orders/sink").get(0).path("sources").get(0).path("metrics");
        assertThat(metrics.path("numRecordsLost").asLong()).isEqualTo(2);
    }

    @Test
    void anAbortedTransactionsRecordsAreNeverRead() throws Exception {
        kafka.create("orders", 1);
        kafka.create("refunds", 1);
        kafka.produceInTransaction("orders", true, ids(1, 2));
        kafka.produceInTransaction("orders", false, ids(66, 67));
        kafka.produceInTransaction("orders", true, ids(3));
        kafka.produce("refunds", 0, ids(10));
        Workspace ws = new Workspace(dir, kafka.spec("    topics: [orders, refunds]\n"));
        ws.tributary("run", "--trigger", "availableNow").assertOk();
        assertThat(tableIds(dir)).as("read_committed: the aborted records 66 and 67 are not rows").containsExactly(1, 2, 3, 10);
        assertThat(tableOffsets(dir).get("orders").get("0")).as("past the commit markers").isEqualTo(8L);
    }

    @Test
    void severalTopicsUpsertByKeyAcrossRuns() throws Exception {
        kafka.create("orders", 2);
        kafka.create("corrections", 1);
        kafka.produce("orders", 0, "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0}", "{\"id\": 2, \"user\": \"b\", \"amt\": 7.5}");
        kafka.produce("orders", 1, "{\"id\": 3, \"user\": \"c\", \"amt\": 1.0}");
        Workspace ws = new Workspace(dir, kafka.spec("    topics: [orders, corrections]\n")
                .replace("    path: out/\n", "    path: out/\n    mode: upsert\n    keys: [id]\n"));
        ws.tributary("run", "--trigger", "availableNow").assertOk();
        kafka.produce("corrections", 0, "{\"id\": 2, \"user\": \"b\", \"amt\": 8.0}");
        ws.tributary("run", "--trigger", "availableNow").assertOk();
        assertThat(io.tributary.sink.DeltaTables.readRows(dir.resolve("out").toString())).extracting(r -> r[0] + "=" + r[2])
                .containsExactlyInAnyOrder("1=5.0", "2=8.0", "3=1.0");
        assertThat(tableOffsets(dir)).isEqualTo(Map.of("orders", Map.of("0", 2L, "1", 1L), "corrections", Map.of("0", 1L)));
    }

    @Test
    void startingOffsetsBelowWhatRetentionKeptStopTheFirstRunUnlessFailOnDataLossIsFalse() throws Exception {
        kafka.create("orders", 1);
        kafka.produce("orders", 0, ids(1, 2, 3, 4));
        kafka.deleteBefore("orders", 0, 2);
        Workspace ws = new Workspace(dir, kafka.spec("    topics: [orders]\n    startingOffsets: '{\"orders\":{\"0\":1}}'\n"));
        Workspace.Result r = ws.tributary("run", "--trigger", "availableNow");
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.err()).contains("topic orders partition 0: the table's next offset is 1 but the earliest offset still in the"
                + " partition is 2");
        new Workspace(dir, kafka.spec("    topics: [orders]\n    startingOffsets: '{\"orders\":{\"0\":1}}'\n    failOnDataLoss: false\n"))
                .tributary("run", "--trigger", "availableNow").assertOk();
        assertThat(tableIds(dir)).containsExactly(3, 4);
    }

    @Test
    void contradictorySettingsAreRefusedAtStartInOneLineNamingTheKeys() throws Exception {
        kafka.create("orders", 1);
        assertRefused("    topics: [orders]\n    topicPattern: \"ord.*\"\n",
                "keys 'source.kafka.topics' and 'source.kafka.topicPattern' are both given");
        assertRefused("    topics: [orders]\n    startingOffsets: '{\"refunds\":{\"0\":1}}'\n",
                "key 'source.kafka.startingOffsets' gives offsets of topic refunds, which source.kafka.topics ([orders]) does not read");
        assertRefused("    topics: [orders]\n    startingOffsets: latest\n    startingTimestamp: 1000\n",
                "keys 'source.kafka.startingOffsets' and 'source.kafka.startingTimestamp' are both given");
        assertRefused("    topics: [orders]\n    startingOffsets: '{\"orders\":{\"0\":\"x\"}}'\n",
                "is not a partition number and an offset of at least -2");
        assertRefused("    topics: [orders]\n    maxOffsetsPerTrigger: 0\n", "key 'source.kafka.maxOffsetsPerTrigger' is '0': not above 0");
    }

    private void assertRefused(String source, String message) {
        Workspace ws = new Workspace(dir, kafka.spec(source));
        Workspace.Result r = ws.tributary("run", "--trigger", "availableNow");
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.err()).contains(message);
        assertThat(r.err().lines().filter(l -> l.contains(message)).count()).as("one line:\n%s", r.err()).isEqualTo(1);
    }
}
