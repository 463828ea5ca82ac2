package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A marker that closes more windows than a transaction may hold closes them in steps, a commit
 * each: the results topic ends up with exactly what one step would have written (rows, their
 * order, each marker after its own rows with its batch's counts), whatever arrives in between.
 */
class ChunkedCloseTest {
    private static final int CHUNK = 3;
    private static final String[] USERS = {"a", "b", "c"};

    @TempDir
    Path stateDir;

    /** Row {@code i}: user {@code i mod 3}, 7 minutes after the one before from 10:00, amount {@code i}. */
    private static String row(int i) {
        Instant ts = Instant.parse("2026-01-01T10:00:00Z").plusSeconds(420L * i);
        return "{\"id\":" + i + ",\"user\":\"" + USERS[i % USERS.length] + "\",\"amt\":" + i + ".0,\"ts\":\"" + ts + "\"}";
    }

    /** The watermark after rows up to {@code i}: their latest event time less the 5 minutes' delay. */
    private static long watermarkAfter(int i) {
        return Instant.parse("2026-01-01T10:00:00Z").plusSeconds(420L * i - 300).toEpochMilli();
    }

    /** What the results topic got: result rows as lines, markers as their JSON. */
    private static List<String> lines(List<AggregationDriver.Output> out) {
        return out.stream().map(o -> o.marker() ? "marker " + o.value() : o.line()).toList();
    }

    private interface Run {
        void feed(AggregationDriver d, List<String> out);
    }

    private List<String> run(Path dir, long chunk, Run run) {
        try (AggregationDriver d = new AggregationDriver(GoldenWindowsTest.goldenSpec(), dir, false, chunk)) {
            List<String> out = new ArrayList<>();
            run.feed(d, out);
            d.finishClosings();
            out.addAll(lines(d.drain()));
            return out;
        }
    }

    @Test
    void aClosingInStepsWritesWhatOneStepWouldHave() {
        Run batches = (d, out) -> {
            int next = 0;
            for (int batch = 0; batch < 4; batch++) {
                for (int end = next + 12; next < end; next++) {
                    d.row(row(next));
                }
                d.marker(batch, batch == 0 ? null : watermarkAfter(next - 13));
                d.finishClosings();
                out.addAll(lines(d.drain()));
            }
            d.marker(4, watermarkAfter(next - 1)); // the no-data batch: every window but the last closes
        };
        List<String> once = run(stateDir.resolve("once"), Long.MAX_VALUE, batches);
        List<String> steps = run(stateDir.resolve("steps"), CHUNK, batches);
        assertThat(once.stream().filter(l -> !l.startsWith("marker"))).as("windows closed").hasSize(46);
        assertThat(steps).isEqualTo(once);
    }

    @Test
    void rowsAndAMarkerThatArriveWhileAClosingIsPendingWaitTheirTurn() {
        long[] pendingSeen = {0};
        Run interleaved = (d, out) -> {
            for (int i = 0; i < 30; i++) {
                d.row(row(i));
            }
            d.marker(0, null);
            d.marker(1, watermarkAfter(29)); // closes 28 windows: 10 steps of 3 in the small chunk
            pendingSeen[0] = Math.max(pendingSeen[0], d.pendingCloses());
            List<AggregationDriver.Output> firstStep = d.drain();
            out.addAll(lines(firstStep));
            if (d.pendingCloses() > 0) {
                assertThat(firstStep).as("one step: the chunk and the rest of its last window start (two windows a start here)")
                        .hasSizeLessThanOrEqualTo(CHUNK + 1);
            }
            d.row(row(3)); // 10:21, its window ended long before the watermark: late, dropped
            d.row(row(31)); // 13:37: a window no closing touches
            d.marker(2, watermarkAfter(31)); // waits for batch 1's closing, then closes the 13:10 and 13:20 windows
            pendingSeen[0] = Math.max(pendingSeen[0], d.pendingCloses());
        };
        List<String> once = run(stateDir.resolve("once"), Long.MAX_VALUE, interleaved);
        List<String> steps = run(stateDir.resolve("steps"), CHUNK, interleaved);
        assertThat(pendingSeen[0]).as("markers pending at once in the chunked run").isEqualTo(2);
        assertThat(steps).isEqualTo(once);
        List<String> markers = steps.stream().filter(l -> l.startsWith("marker")).toList();
        assertThat(markers).hasSize(3);
        assertThat(markers.get(2)).contains("\"batchId\":2").contains("\"" + AggregateMetrics.MARKER_ROWS_DROPPED + "\":1");
        assertThat(steps.get(steps.size() - 1)).as("the last marker follows every row").isEqualTo(markers.get(2));
    }
}
