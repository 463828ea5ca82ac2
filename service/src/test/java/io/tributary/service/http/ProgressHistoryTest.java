package io.tributary.service.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Progress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The live page's memory: bounded, in order, and summed per 10 seconds for the last hour. */
class ProgressHistoryTest {
    private final AtomicLong now = new AtomicLong(1_767_261_600_000L); // 2026-01-01T10:00:00Z
    private final ProgressHistory history = new ProgressHistory(now::get);

    private static Progress ingest(long batchId, long rows, long deadLetters) {
        Map<String, Long> d = new LinkedHashMap<>();
        d.put("latestOffset", 5L);
        d.put("addBatch", 100L);
        d.put("triggerExecution", 120L);
        return new Progress("p/ingest", "r", "2026-01-01T10:00:00.000Z", batchId, rows, 2.0, 20.0, d,
                Map.of("watermark", "2026-01-01T09:55:00.000Z"), null,
                List.of(new Progress.Source("FileSource[in]", null, Map.of("logOffset", batchId), rows, Map.of("numBadRows", deadLetters))),
                new Progress.Sink("KafkaSink[t]", rows, Map.of("numDeadLetterRows", deadLetters, "numDroppedRows", 0)));
    }

    private static Progress sink(long batchId, long rows, long version, long files) {
        return new Progress("p/sink", "r", "2026-01-01T10:00:01.000Z", batchId, rows, 0, 0, Map.of("triggerExecution", 900L),
                Map.of("watermark", "1970-01-01T00:00:00.000Z"), List.of(Map.of("numRowsTotal", 7, "numRowsDroppedByWatermark", 2)),
                List.of(new Progress.Source("KafkaV2[Subscribe[t]]", null, Map.of("t", Map.of("0", 9)), rows, Map.of())),
                new Progress.Sink("DeltaSink[out]", rows, Map.of("deltaVersion", version, "numFiles", files)));
    }

    @Test
    void keepsTheLastHundredBatchesOfEachStage() {
        for (int i = 0; i < 130; i++) {
            history.add(ingest(i, i, 0));
        }
        history.add(sink(0, 5, 0, 1));
        List<ProgressHistory.Entry> all = history.since(0);
        assertThat(all).hasSize(ProgressHistory.BATCHES + 1);
        assertThat(all.get(0).progress().batchId()).isEqualTo(30);
        assertThat(all.get(all.size() - 1).progress().name()).isEqualTo("p/sink");
        assertThat(history.lastSeq()).isEqualTo(131);
        assertThat(history.since(129)).extracting(e -> e.progress().batchId()).containsExactly(129L, 0L);
        assertThat(history.batch("p/ingest", 129).progress().numInputRows()).isEqualTo(129);
        assertThat(history.batch("p/ingest", 3)).as("no longer held").isNull();
    }

    @Test
    void aBatchSummaryReadsPhasesGapStateAndTheTableOffTheRecord() {
        history.add(ingest(0, 4, 1));
        history.add(sink(0, 4, 6, 2));
        List<ProgressHistory.Entry> e = history.since(0);
        Map<String, Object> in = e.get(0).summary().toMap(now.get());
        assertThat(in).containsEntry("inputRows", 4L).containsEntry("triggerMs", 120L)
                .containsEntry("phasesMs", Map.of("latestOffset", 5L, "addBatch", 100L))
                .containsEntry("inputRowsPerSecond", 2.0).containsEntry("processedRowsPerSecond", 20.0)
                .containsEntry("watermarkGapMs", 5 * 60_000L).containsEntry("deadLetterRows", 1L).containsEntry("badRows", 1L)
                .doesNotContainKey("deltaVersion").doesNotContainKey("stateRows");
        Map<String, Object> out = e.get(1).summary().toMap(now.get());
        assertThat(out).containsEntry("deltaVersion", 6L).containsEntry("filesWritten", 2L).containsEntry("stateRows", 7L)
                .containsEntry("droppedByWatermark", 2L).containsEntry("outputRows", 4L)
                .as("a watermark of 1970 is no watermark yet").doesNotContainKey("watermarkGapMs");
    }

    @Test
    void theLastHourIsSummedInTenSecondBucketsAndForgottenAfterAnHour() {
        history.declare("p/ingest");
        history.declare("p/sink");
        history.add(ingest(0, 3, 0));
        now.addAndGet(4_000);
        history.add(ingest(1, 5, 2));
        now.addAndGet(10_000);
        history.add(ingest(2, 7, 0));
        Map<String, List<Map<String, Object>>> hour = history.hour();
        assertThat(hour.keySet()).containsExactly("p/ingest", "p/sink");
        assertThat(hour.get("p/sink")).isEmpty();
        List<Map<String, Object>> buckets = hour.get("p/ingest");
        assertThat(buckets).hasSize(2);
        assertThat(buckets.get(0)).containsEntry("batches", 2).containsEntry("inputRows", 8L).containsEntry("triggerMs", 240L)
                .containsEntry("deadLetterRows", 2L).containsEntry("inputRowsPerSecond", 0.8).containsEntry("batchId", 1L)
                .containsEntry("processedRowsPerSecond", Progress.rate(8, 240));
        assertThat(buckets.get(1)).containsEntry("batches", 1).containsEntry("inputRows", 7L);

        now.addAndGet(ProgressHistory.HOUR_MS - 5_000);
        history.add(ingest(3, 1, 0));
        assertThat(history.hour().get("p/ingest")).extracting(b -> b.get("inputRows")).containsExactly(7L, 1L);
        now.addAndGet(10_000);
        assertThat(history.hour().get("p/ingest")).extracting(b -> b.get("inputRows")).containsExactly(1L);
    }

    @Test
    void lagSamplesAreKeptForAnHour() {
        history.lag(Map.of("p/sink", 12L));
        now.addAndGet(2_000);
        history.lag(Map.of("p/sink", 3L));
        assertThat(history.lagSince(0)).extracting(s -> s.byStage().get("p/sink")).containsExactly(12L, 3L);
        assertThat(history.lagSince(now.get() - 1)).extracting(s -> s.byStage().get("p/sink")).containsExactly(3L);
        now.addAndGet(ProgressHistory.HOUR_MS);
        history.lag(Map.of("p/sink", 0L));
        assertThat(history.lagSince(0)).extracting(s -> s.byStage().get("p/sink")).containsExactly(0L);
    }
}
