package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Windows and watermarks: revenue per user per 10-minute window, 5-minute watermark, as Spark computed it. */
@Tag("integration")
@Timeout(300)
class SeedWindowsScenarioTest {
    static final String SPEC = """
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
              lateRows: deadLetter
            outputMode: append
            sink:
              delta:
                path: agg/
            topic:
              partitions: 4
            trigger: availableNow
            """;

    @TempDir
    Path dir;

    @Test
    void closedWindowsAreWrittenOnceLateRowsDroppedAndTheLastWindowWaitsForLaterEvents() throws IOException {
        Workspace ws = new Workspace(dir, SPEC);
        String table = dir.resolve("agg").toString();
        ws.addFile("events-1.json",
                "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                "{\"id\": 2, \"user\": \"a\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:04:00Z\"}",
                "{\"id\": 3, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}",
                "{\"id\": 4, \"user\": \"a\", \"amt\": 2.0, \"ts\": \"2026-01-01T10:09:00Z\"}",
                "{\"id\": 5, \"user\": \"c\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:20:00Z\"}");
        ws.tributary("run").assertOk();
        assertThat(GoldenWindowsScenarioTest.table(table)).containsExactlyInAnyOrder(
                "{2026-01-01 10:00:00, 2026-01-01 10:10:00}|a|8.0",
                "{2026-01-01 10:00:00, 2026-01-01 10:10:00}|b|7.0");

        ws.addFile("late.json", "{\"id\": 6, \"user\": \"a\", \"amt\": 100.0, \"ts\": \"2026-01-01T10:05:00Z\"}");
        Workspace.Result late = ws.tributary("run").assertOk();
        long dropped = late.progress("revenue/aggregate").stream()
                .mapToLong(p -> p.at("/stateOperators/0/numRowsDroppedByWatermark").asLong()).sum();
        assertThat(dropped).as("numRowsDroppedByWatermark").isEqualTo(1);
        assertThat(GoldenWindowsScenarioTest.table(table)).hasSize(2);

        // the Kafka Streams state can be rebuilt from its changelog: losing it loses nothing
        deleteTree(dir.resolve(".tributary/revenue/streams"));
        ws.addFile("later.json", "{\"id\": 7, \"user\": \"a\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:36:00Z\"}");
        ws.tributary("run").assertOk();
        assertThat(GoldenWindowsScenarioTest.table(table)).containsExactlyInAnyOrder(
                "{2026-01-01 10:00:00, 2026-01-01 10:10:00}|a|8.0",
                "{2026-01-01 10:00:00, 2026-01-01 10:10:00}|b|7.0",
                "{2026-01-01 10:20:00, 2026-01-01 10:30:00}|c|1.0");

        // topic.trim: the events and results topics keep nothing the next stage committed; the late rows are kept
        String show = ws.tributary("checkpoint show").assertOk().out();
        assertThat(topicRanges(show, "events")).allMatch(r -> r[0] > 0 && r[0] == r[1]);
        assertThat(topicRanges(show, "results")).allMatch(r -> r[0] > 0 && r[0] == r[1]);
        assertThat(topicRanges(show, "late-rows")).allMatch(r -> r[0] == 0).anyMatch(r -> r[1] > 0);
    }

    /** The first and end offset of each partition of a topic of the revenue pipeline, from checkpoint show's "topics" lines. */
    private static List<long[]> topicRanges(String show, String topic) {
        Matcher line = Pattern.compile("tributary\\.revenue\\." + topic + "  \\{([^}]*)\\}").matcher(show);
        assertThat(line.find()).as("topic %s in:%n%s", topic, show).isTrue();
        List<long[]> ranges = new ArrayList<>();
        Matcher r = Pattern.compile("\\d+=(\\d+)\\.\\.(\\d+)").matcher(line.group(1));
        while (r.find()) {
            ranges.add(new long[] {Long.parseLong(r.group(1)), Long.parseLong(r.group(2))});
        }
        assertThat(ranges).isNotEmpty();
        return ranges;
    }

    /**
     * The aggregation keeps a batch's open windows in memory and writes them into its state store
     * and changelog at each commit: a window that collects rows over several batches and two
     * processes, with the local state deleted in between, still sums every row.
     */
    @Test
    void aWindowFilledOverBatchesAndRestartsKeepsEveryRow() throws IOException {
        Workspace ws = new Workspace(dir, SPEC.replace("format: json", "format: json\n    maxFilesPerTrigger: 1"));
        String table = dir.resolve("agg").toString();
        ws.addFileInOrder("f1.json", "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}");
        ws.addFileInOrder("f2.json",
                "{\"id\": 2, \"user\": \"a\", \"amt\": 2.0, \"ts\": \"2026-01-01T10:03:00Z\"}",
                "{\"id\": 3, \"user\": \"b\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:04:00Z\"}");
        ws.tributary("run").assertOk();
        assertThat(GoldenWindowsScenarioTest.table(table)).isEmpty();

        deleteTree(dir.resolve(".tributary/revenue/streams"));
        ws.addFileInOrder("f3.json", "{\"id\": 4, \"user\": \"a\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:08:00Z\"}");
        ws.tributary("run").assertOk();
        ws.addFileInOrder("f4.json", "{\"id\": 5, \"user\": \"c\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:40:00Z\"}");
        ws.tributary("run").assertOk();
        assertThat(GoldenWindowsScenarioTest.table(table)).containsExactlyInAnyOrder(
                "{2026-01-01 10:00:00, 2026-01-01 10:10:00}|a|8.0",
                "{2026-01-01 10:00:00, 2026-01-01 10:10:00}|b|1.0");
    }

    @Test
    void aQuietStreamKeepsItsLastWindowOpenUnlessTheIdleOptionClosesIt() {
        String[] events = {
            "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
            "{\"id\": 5, \"user\": \"c\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:20:00Z\"}"};
        Workspace spark = new Workspace(dir.resolve("spark"), SPEC);
        spark.addFile("events.json", events);
        spark.tributary("run").assertOk();
        spark.tributary("run").assertOk();
        assertThat(GoldenWindowsScenarioTest.table(dir.resolve("spark/agg").toString()))
                .as("Spark's behaviour: the last window waits for later events").containsExactly(
                        "{2026-01-01 10:00:00, 2026-01-01 10:10:00}|a|5.0");

        Workspace idle = new Workspace(dir.resolve("idle"), SPEC.replace("  lateRows: deadLetter", "  closeIdleWindowsAfter: 0 seconds"));
        idle.addFile("events.json", events);
        idle.tributary("run").assertOk();
        assertThat(GoldenWindowsScenarioTest.table(dir.resolve("idle/agg").toString())).containsExactlyInAnyOrder(
                "{2026-01-01 10:00:00, 2026-01-01 10:10:00}|a|5.0",
                "{2026-01-01 10:20:00, 2026-01-01 10:30:00}|c|1.0");
    }

    @Test
    void appendWithoutAWatermarkIsRefusedAtStartAsSparkDoes() {
        Workspace ws = new Workspace(dir, SPEC.replace("  watermark: 5 minutes\n", ""));
        Workspace.Result run = ws.tributary("run");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("Invalid streaming output mode: append")
                .contains("without watermark").contains("aggregate.watermark");
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    static long sum(Iterable<JsonNode> nodes, String pointer) {
        long s = 0;
        for (JsonNode n : nodes) {
            s += n.at(pointer).asLong();
        }
        return s;
    }
}
