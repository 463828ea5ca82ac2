package io.tributary.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.BrokerExtension;
import io.tributary.schema.Progress;
import io.tributary.schema.Schema;
import io.tributary.settings.Values;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark's {@code current_timestamp()} in a stream of files: every row of a batch carries the batch's start, a time
 * between the start its progress line gives and the batch's commit; the next batch a later one.
 */
@Tag("integration")
@Timeout(180)
class BatchTimeIngestTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Schema SCHEMA = Schema.parse("id INT, ts TIMESTAMP");

    @TempDir
    static Path tmp;
    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    static Values sql(String query) {
        return Values.localized(List.of(TransformSettings.SQL, TransformSettings.JOIN_MAX_ROWS), s -> s, Map.of("sql", query)::get,
                (s, t, e) -> e);
    }

    private static String row(int id, String ts) {
        return "{\"id\":" + id + ",\"ts\":\"" + ts + "\"}\n";
    }

    @Test
    void everyRowOfABatchCarriesItsStartAndTheNextBatchALaterOne() throws Exception {
        Path in = tmp.resolve("in");
        Files.createDirectories(in);
        IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline("batch-time"), in, SCHEMA)
                .transform(sql("SELECT id, current_timestamp() AS at, now() AS n, current_date() AS day, localtimestamp() AS local, "
                        + "current_timezone() AS zone FROM source WHERE ts > current_timestamp() - INTERVAL 1 DAY"))
                .build();
        assertThat(config.outputSchema().toDdl()).isEqualTo("id INT, at TIMESTAMP, n TIMESTAMP, day DATE, local TIMESTAMP_NTZ, zone STRING");
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        List<Progress> progress = new ArrayList<>();
        String recent = Instant.now().minusSeconds(3600).toString(); // within the last day, dropped only by a clock a day late
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            Files.writeString(in.resolve("a.json"), row(1, recent) + row(2, recent) + row(9, "2020-01-01T00:00:00Z"));
            Files.writeString(in.resolve("b.json"), row(3, recent));
            progress.add(ingest.runBatch().orElseThrow());
            Files.writeString(in.resolve("c.json"), row(4, recent) + row(5, recent));
            progress.add(ingest.runBatch().orElseThrow());
        }
        List<Integer> ids = new ArrayList<>();
        Map<Integer, Set<String>> atByBatch = Map.of(0, new TreeSet<>(), 1, new TreeSet<>());
        for (ConsumerRecord<byte[], byte[]> r : IngestKit.readCommitted(KAFKA.broker(), config.eventsTopic())) {
            JsonNode row = JSON.readTree(r.value());
            if (!row.has("id")) {
                continue;
            }
            ids.add(row.get("id").asInt());
            int batch = row.get("id").asInt() <= 3 ? 0 : 1;
            Instant at = Instant.parse(row.get("at").asText());
            assertThat(row.get("n").asText()).isEqualTo(row.get("at").asText());
            assertThat(row.get("day").asText()).isEqualTo(LocalDate.ofInstant(at, ZoneOffset.UTC).toString());
            assertThat(row.get("local").asText() + "Z").isEqualTo(row.get("at").asText().replace("Z", "") + "Z");
            assertThat(row.get("zone").asText()).isEqualTo("UTC");
            atByBatch.get(batch).add(row.get("at").asText());
        }
        assertThat(ids).as("the row of 2020 is older than a day before its batch").containsExactlyInAnyOrder(1, 2, 3, 4, 5);
        for (int b = 0; b < 2; b++) {
            assertThat(atByBatch.get(b)).as("batch %d: one value for all its rows", b).hasSize(1);
            Instant at = Instant.parse(atByBatch.get(b).iterator().next());
            Progress p = progress.get(b);
            Instant start = Instant.parse(p.timestamp());
            Instant committed = start.plusMillis(p.durationMs().get("triggerExecution") + 1);
            assertThat(at).as("batch %d: after its start, before its commit", b).isBetween(start, committed);
        }
        assertThat(atByBatch.get(1).iterator().next()).isGreaterThan(atByBatch.get(0).iterator().next());
    }
}
