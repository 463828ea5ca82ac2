package io.tributary.service.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live page in a real browser: the distribution's service runs a windowed pipeline
 * continuously, files arrive, and headless Chromium opens {@code /}. The charts and the batch table
 * must show exactly the batches the service printed, a batch's record opens on click, the spec
 * hides the secret, the last-hour view sums the same rows, and the page reports no JavaScript
 * error. The screenshot is left in {@code target/live-page.png}.
 */
@Tag("integration")
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class LivePageBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SECRET = "pw-that-must-not-show";
    private static final int WIDTH = 1400;

    @TempDir
    Path dir;

    @Test
    void thePageDrawsTheBatchesTheServicePrinted() throws Exception {
        Path chromium = Chromium.find().orElse(null);
        Assumptions.assumeTrue(chromium != null,
                "no headless Chromium at /usr/bin/chromium (apt-get install chromium, or set CHROMIUM): the live page's browser test is skipped");
        Path spec = dir.resolve("revenue").resolve("pipeline.yaml");
        Files.createDirectories(spec.resolveSibling("in"));
        Files.writeString(spec, String.join("\n",
                "name: revenue",
                "source: { files: { path: in/, format: json, maxFilesPerTrigger: 1, schema: \"id INT, user STRING, amt DOUBLE, ts TIMESTAMP\" } }",
                "aggregate: { eventTime: ts, watermark: 5 minutes, window: 10 minutes, groupBy: [user], select: { t: sum(amt) } }",
                "outputMode: append",
                "sink: { delta: { path: agg/ } }", ""));
        try (ServiceProcess service = ServiceProcess.start(spec, Map.of("TRIBUTARY_KAFKA_SASL_JAAS_CONFIG",
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"" + SECRET + "\";"))) {
            int port = service.port();
            // three files, three ingest batches; each later file moves the watermark past the window before it
            service.drop("revenue/ingest", "a.json", row(1, "ann", 5, "10:01"), row(2, "bob", 7, "10:02"), row(3, "ann", 1, "10:04"));
            service.drop("revenue/ingest", "b.json", row(4, "bob", 2, "10:21"), row(5, "cid", 3, "10:23"));
            service.drop("revenue/ingest", "c.json", row(6, "ann", 4, "10:41"));
            service.await("the sink's commit of the windows the watermark closed",
                    () -> service.records("revenue/sink").stream().mapToLong(r -> r.path("numInputRows").asLong()).sum() >= 4);
            List<JsonNode> printed = service.records(null);

            try (Chromium browser = Chromium.start(chromium, dir, WIDTH, 1000)) {
                browser.navigate("http://127.0.0.1:" + port + "/");
                service.await("the page to show every batch the service printed", () -> shown(browser).containsAll(keys(printed)));

                // the batch table holds each record's input rows; the input-rows chart one point per batch with the same value
                JsonNode table = browser.eval("[...document.querySelectorAll('#batches tbody tr')].map(tr => ({stage: tr.dataset.stage,"
                        + " batchId: Number(tr.dataset.batchId), rows: tr.querySelector('.c-rows').textContent}))");
                JsonNode points = browser.eval("[...document.querySelectorAll('[data-chart=inputRows] g[data-series] circle')].map(c =>"
                        + " ({stage: c.parentNode.dataset.series, batchId: Number(c.dataset.batchId), value: Number(c.dataset.value)}))");
                for (JsonNode r : printed) {
                    String stage = r.get("name").asText();
                    long id = r.get("batchId").asLong();
                    JsonNode row = find(table, stage, id);
                    assertThat(row != null).as("table row of %s batch %d", stage, id).isTrue();
                    assertThat(row.get("rows").asText().replace(",", "")).as("its input rows").isEqualTo(r.get("numInputRows").asText());
                    JsonNode point = find(points, stage, id);
                    assertThat(point != null).as("input-rows point of %s batch %d", stage, id).isTrue();
                    assertThat(point.get("value").asLong()).as("its value").isEqualTo(r.get("numInputRows").asLong());
                }
                assertThat(browser.eval("[...document.querySelectorAll('[data-chart]')].map(c => c.dataset.chart)").toString())
                        .contains("inputRate", "processRate", "duration", "watermarkGap", "stateRows", "dropped", "deltaVersion", "files");
                JsonNode lastAggregate = last(printed, "revenue/aggregate");
                assertThat(browser.eval("[...document.querySelectorAll('[data-chart=stateRows] circle')].map(c => Number(c.dataset.value)).pop()").asLong())
                        .isEqualTo(lastAggregate.at("/stateOperators/0/numRowsTotal").asLong());

                // a click on a sink batch opens its whole progress record
                JsonNode sinkBatch = last(printed, "revenue/sink");
                browser.eval("document.querySelector('#batches tr[data-stage=\"revenue/sink\"][data-batch-id=\"" + sinkBatch.get("batchId").asLong()
                        + "\"]').click()");
                JsonNode opened = JSON.readTree(browser.eval("document.getElementById('detail-json').textContent").asText());
                assertThat(opened.equals(LivePageBrowserTest::sameValue, sinkBatch)).as("the opened record %s", opened).isTrue();

                assertThat(browser.eval("document.querySelector('#spec tr[data-key=\"kafka.sasl.jaas.config\"] td:last-child').textContent").asText())
                        .isEqualTo("******");
                assertThat(browser.eval("document.body.innerText").asText()).doesNotContain(SECRET).contains("ready");
                browser.screenshot(Path.of("target", "live-page.png"), WIDTH);

                // the last hour: 10-second buckets, the same rows in all
                browser.eval("document.querySelector('#range button[data-range=hour]').click()");
                long ingestRows = printed.stream().filter(r -> r.get("name").asText().equals("revenue/ingest"))
                        .mapToLong(r -> r.get("numInputRows").asLong()).sum();
                service.await("the last hour's buckets", () -> browser.eval("[...document.querySelectorAll("
                        + "'[data-chart=inputRows] g[data-series=\"revenue/ingest\"] circle')].reduce((s, c) => s + Number(c.dataset.value), 0)")
                        .asLong() == ingestRows);
                browser.screenshot(Path.of("target", "live-page-hour.png"), WIDTH);

                assertThat(browser.eval("document.body.dataset.jsErrors || ''").asText()).as("errors the page recorded").isEmpty();
                assertThat(browser.errors()).as("errors Chromium reported").isEmpty();
            }
        }
    }

    /** JSON values compared as JavaScript sees them: 0.0 and 0 are one number. */
    private static int sameValue(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return Double.compare(a.doubleValue(), b.doubleValue());
        }
        return a.equals(b) ? 0 : 1;
    }

    /** The (stage, batch id) pairs the page's batch table shows. */
    private static List<String> shown(Chromium browser) throws Exception {
        List<String> out = new ArrayList<>();
        for (JsonNode k : browser.eval("[...document.querySelectorAll('#batches tbody tr')].map(tr => tr.dataset.stage + '#' + tr.dataset.batchId)")) {
            out.add(k.asText());
        }
        return out;
    }

    private static List<String> keys(List<JsonNode> records) {
        return records.stream().map(r -> r.get("name").asText() + "#" + r.get("batchId").asLong()).toList();
    }

    private static JsonNode find(JsonNode list, String stage, long batchId) {
        for (JsonNode n : list) {
            if (n.get("stage").asText().equals(stage) && n.get("batchId").asLong() == batchId) {
                return n;
            }
        }
        return null;
    }

    private static JsonNode last(List<JsonNode> records, String stage) {
        return records.stream().filter(r -> r.get("name").asText().equals(stage)).reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("no progress record of " + stage));
    }

    private static String row(int id, String user, double amt, String time) {
        return "{\"id\": " + id + ", \"user\": \"" + user + "\", \"amt\": " + amt + ", \"ts\": \"2026-01-01T" + time + ":00Z\"}";
    }
}
