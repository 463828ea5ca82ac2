package io.tributary.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProgressTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Progress ingestBatch() {
        Map<String, Long> duration = new LinkedHashMap<>();
        duration.put("addBatch", 120L);
        duration.put("triggerExecution", 150L);
        return new Progress("quickstart/ingest", "run-1", "2026-01-01T10:00:00.000Z", 3, 2,
                Progress.rate(2, 1000), Progress.rate(2, 150), duration,
                Map.of("watermark", "2026-01-01T10:05:00.000Z"),
                List.of(Map.of("numRowsTotal", 4, "numRowsDroppedByWatermark", 1)),
                List.of(new Progress.Source("FileStreamSource[in/]", Map.of("logOffset", 2), Map.of("logOffset", 3), 2,
                        Map.of("numBadRows", 0))),
                new Progress.Sink("DeltaSink[out/]", 2, Map.of("deltaVersion", 4)));
    }

    @Test
    void timestampsAlwaysCarryMillisecondsAsSparksDo() {
        assertThat(Progress.timestamp(1_767_261_600_000L)).isEqualTo("2026-01-01T10:00:00.000Z");
        assertThat(Progress.timestamp(1_767_261_600_042L)).isEqualTo("2026-01-01T10:00:00.042Z");
        assertThat(Progress.timestamp(0)).isEqualTo("1970-01-01T00:00:00.000Z");
    }

    @Test
    void jsonHasSparksFieldNamesInSparksOrder() throws Exception {
        JsonNode n = JSON.readTree(ingestBatch().toJson());
        List<String> names = iterable(n.fieldNames());
        assertThat(names).containsExactly("name", "runId", "timestamp", "batchId", "numInputRows", "inputRowsPerSecond",
                "processedRowsPerSecond", "durationMs", "eventTime", "stateOperators", "sources", "sink");
        assertThat(n.get("batchId").asLong()).isEqualTo(3);
        assertThat(n.get("numInputRows").asLong()).isEqualTo(2);
        assertThat(n.get("inputRowsPerSecond").asDouble()).isEqualTo(2.0);
        assertThat(n.get("processedRowsPerSecond").asDouble()).isEqualTo(13.333);
        assertThat(n.at("/durationMs/triggerExecution").asLong()).isEqualTo(150);
        assertThat(iterable(n.get("durationMs").fieldNames())).containsExactly("addBatch", "triggerExecution");
        assertThat(n.at("/eventTime/watermark").asText()).isEqualTo("2026-01-01T10:05:00.000Z");
        assertThat(n.at("/stateOperators/0/numRowsDroppedByWatermark").asLong()).isEqualTo(1);
        JsonNode source = n.get("sources").get(0);
        assertThat(iterable(source.fieldNames()))
                .containsExactly("description", "startOffset", "endOffset", "numInputRows", "metrics");
        assertThat(source.at("/startOffset/logOffset").asLong()).isEqualTo(2);
        assertThat(source.at("/endOffset/logOffset").asLong()).isEqualTo(3);
        assertThat(source.at("/metrics/numBadRows").asLong()).isZero();
        assertThat(iterable(n.get("sink").fieldNames())).containsExactly("description", "numOutputRows", "metrics");
        assertThat(n.at("/sink/numOutputRows").asLong()).isEqualTo(2);
        assertThat(n.at("/sink/metrics/deltaVersion").asLong()).isEqualTo(4);
    }

    @Test
    void jsonIsOneLine() {
        assertThat(ingestBatch().toJson()).doesNotContain("\n");
    }

    @Test
    void nullsAreOmittedEverywhere() throws Exception {
        Progress p = new Progress("p/s", "r", "t", 0, 0, 0.0, 0.0, Map.of("triggerExecution", 1L), null, null,
                List.of(new Progress.Source("KafkaV2[Subscribe[t]]", null, Map.of("t", Map.of("0", 5)), 0, null)),
                new Progress.Sink("s", 0, null));
        String json = p.toJson();
        assertThat(json).doesNotContain("null");
        JsonNode n = JSON.readTree(json);
        assertThat(n.has("eventTime")).isFalse();
        assertThat(n.has("stateOperators")).isFalse();
        assertThat(n.at("/sources/0").has("startOffset")).isFalse();
        assertThat(n.at("/sources/0").has("metrics")).isFalse();
        assertThat(n.at("/sources/0/endOffset/t/0").asLong()).isEqualTo(5);
        assertThat(n.get("sink").has("metrics")).isFalse();
        assertThat(n.get("numInputRows").asLong()).isZero();
        assertThat(n.get("inputRowsPerSecond").asDouble()).isZero();
    }

    @Test
    void rateIsRowsPerSecondRoundedToThreeDecimals() {
        assertThat(Progress.rate(3, 1000)).isEqualTo(3.0);
        assertThat(Progress.rate(1, 3)).isEqualTo(333.333);
        assertThat(Progress.rate(10, 0)).isZero();
        assertThat(Progress.rate(10, -5)).isZero();
        assertThat(Progress.rate(0, 100)).isZero();
    }

    private static List<String> iterable(java.util.Iterator<String> it) {
        List<String> out = new java.util.ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }
}
