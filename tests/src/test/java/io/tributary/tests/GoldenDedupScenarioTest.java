package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.schema.Timestamps;
import io.tributary.sink.DeltaTables;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code transform.dropDuplicates} through the whole pipeline (files, the events topic of three partitions,
 * the deduplication on Kafka Streams, the Delta sink) against Spark 4.2's golden cases (golden/dedup): after
 * each of four runs the table holds exactly the rows Spark's table held, late duplicates, duplicates after
 * their key expired and rows behind the watermark included; and {@code where} applies before the deduplication.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(300)
class GoldenDedupScenarioTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final String SPEC = """
            name: dedup
            source:
              files:
                path: in/
                format: json
                schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
                maxFilesPerTrigger: 1
            transform:
            %s
            sink:
              delta:
                path: out/
            topic:
              partitions: 3
            trigger: availableNow
            """;

    @TempDir
    Path dir;
    @RegisterExtension
    final PipelineBroker kafka = new PipelineBroker();

    private Workspace workspace(String transform) {
        return kafka.workspace(dir, SPEC.formatted(transform));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"within-watermark"})
    void eachRunLeavesSparksTable(String goldenCase) throws IOException {
        JsonNode c = JSON.readTree(golden(goldenCase + "/case.json"));
        List<String> keys = new ArrayList<>();
        c.get("keys").forEach(k -> keys.add(k.asText()));
        String delayKey = c.get("operator").asText().equals("withinWatermark") ? "withinWatermark" : "watermark";
        Workspace ws = workspace("  dropDuplicates: { keys: [" + String.join(", ", keys) + "], eventTime: ts, " + delayKey + ": "
                + c.get("watermark").asText() + " }");
        int run = 0;
        for (JsonNode files : c.get("runs")) {
            run++;
            for (JsonNode f : files) {
                ws.addFileInOrder(f.asText(), golden(goldenCase + "/" + f.asText()).strip().split("\n")); // file order = Spark's: oldest first
            }
            ws.tributary("run").assertOk();
            List<String> expected = golden(goldenCase + "/after-run" + run + ".txt").lines()
                    .filter(l -> !l.startsWith("#") && !l.startsWith("batches") && !l.isBlank()).toList();
            assertThat(table()).as("%s after run %d", goldenCase, run).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    @Test
    void whereAppliesBeforeTheDeduplication() {
        Workspace ws = workspace("  where: \"amt > 0\"\n  dropDuplicates: { keys: [id] }");
        ws.addFile("a.json",
                "{\"id\": 1, \"user\": \"a\", \"amt\": -1.0, \"ts\": \"2026-01-01T10:00:00Z\"}",
                "{\"id\": 1, \"user\": \"b\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                "{\"id\": 2, \"user\": \"c\", \"amt\": 2.0, \"ts\": \"2026-01-01T10:02:00Z\"}",
                "{\"id\": 1, \"user\": \"d\", \"amt\": 6.0, \"ts\": \"2026-01-01T10:03:00Z\"}");
        ws.tributary("run").assertOk();
        assertThat(table()).containsExactlyInAnyOrder("1|b|5.0|2026-01-01 10:01:00", "2|c|2.0|2026-01-01 10:02:00");
    }

    /** The table as the golden files print it: {@code id|user|amt|ts}. */
    private List<String> table() {
        List<String> rows = new ArrayList<>();
        String path = dir.resolve("out").toString();
        if (!DeltaTables.exists(path)) {
            return rows;
        }
        for (Object[] r : DeltaTables.readRows(path)) {
            String ts = r[3] == null ? "null" : Timestamps.formatMicros((Long) r[3]).replace('T', ' ').replace("Z", "");
            rows.add(r[0] + "|" + r[1] + "|" + r[2] + "|" + ts);
        }
        return rows;
    }

    static String golden(String resource) throws IOException {
        return Golden.read("dedup/" + resource);
    }
}
