package io.tributary.service.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.testing.ChildProcess;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The monitoring profile's Prometheus side, for real: Debian's Prometheus runs the compose
 * stack's {@code prometheus.yml} (pointed at the service on 127.0.0.1, scraping every second)
 * with its {@code alerts.yml}, against the distribution's service on a windowed pipeline that
 * receives a bad row and a late row. Every query of the Grafana dashboard must evaluate and
 * return series, the headline panels must show what the progress records say, every alert rule
 * must evaluate, and the dead-letter and late-row alerts must fire.
 */
@Tag("integration")
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class PrometheusMonitoringTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path MONITORING = Path.of("..", "examples", "compose", "monitoring").toAbsolutePath().normalize();
    private static final Path DASHBOARD = Path.of("..", "docs", "grafana", "tributary.json").toAbsolutePath().normalize();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void theDashboardsQueriesAndTheAlertsWorkOnARealPrometheus() throws Exception {
        Path prometheus = find().orElse(null);
        Assumptions.assumeTrue(prometheus != null,
                "no Prometheus at /usr/bin/prometheus (apt-get install prometheus, or set PROMETHEUS): the monitoring test is skipped");
        Path spec = dir.resolve("revenue").resolve("pipeline.yaml");
        Files.createDirectories(spec.getParent());
        Files.writeString(spec, String.join("\n",
                "name: revenue",
                "source: { files: { path: in/, format: json, maxFilesPerTrigger: 1, onBadRecord: deadLetter,"
                        + " schema: \"id INT, user STRING, amt DOUBLE, ts TIMESTAMP\" } }",
                "aggregate: { eventTime: ts, watermark: 5 minutes, window: 10 minutes, groupBy: [user], select: { t: sum(amt) } }",
                "outputMode: append",
                "sink: { delta: { path: agg/ } }", ""));
        int port = freePort();
        try (ServiceProcess service = ServiceProcess.start(spec, Map.of());
                PrometheusProcess prom = PrometheusProcess.start(prometheus, dir.resolve("prometheus"), port, service.port())) {
            // Prometheus sees the counters at zero first: increase() counts only what happens between scrapes
            service.await("Prometheus to scrape the service's counters",
                    () -> !query(port, "tributary_ingest_rows_bad_total").path("data").path("result").isEmpty());
            service.drop("revenue/ingest", "a.json", row(1, "ann", 5, "10:01"), "{not json", row(2, "bob", 7, "10:02"));
            service.drop("revenue/ingest", "b.json", row(3, "bob", 2, "10:21"));
            // the watermark is 10:16 now: the row of 10:03 is late
            service.drop("revenue/ingest", "c.json", row(4, "ann", 4, "10:41"), row(5, "cid", 1, "10:03"));
            service.await("the sink's commit of the closed windows",
                    () -> service.records("revenue/sink").stream().mapToLong(r -> r.at("/sink/numOutputRows").asLong()).sum() >= 3);
            // the headline panels hold what the progress records say
            long version = service.last("revenue/sink").at("/sink/metrics/deltaVersion").asLong();
            service.await("the table's version in Prometheus", () -> value(port, "max(tributary_sink_delta_version)") == version);
            long committed = service.records("revenue/sink").stream().mapToLong(r -> r.at("/sink/numOutputRows").asLong()).sum();
            assertThat(value(port, "sum(tributary_stage_rows_output_total{stage=~\".*/sink\"})")).as("rows committed").isEqualTo(committed);
            assertThat(value(port, "sum(tributary_ingest_rows_bad_total)")).as("bad rows").isEqualTo(1);
            assertThat(value(port, "sum(tributary_aggregate_rows_late_total)")).as("rows dropped by watermark").isEqualTo(1);

            // every query of the dashboard evaluates and returns series (rates need two scrapes in their range)
            List<String> queries = dashboardQueries();
            assertThat(queries).hasSizeGreaterThan(15);
            List<String> empty = new ArrayList<>();
            service.await(() -> "every dashboard query to return series; none yet for " + empty, () -> {
                empty.clear();
                for (String q : queries) {
                    JsonNode r = query(port, q);
                    assertThat(r.path("status").asText()).as("%s: %s", q, r).isEqualTo("success");
                    if (r.path("data").path("result").isEmpty()) {
                        empty.add(q);
                    }
                }
                return empty.isEmpty();
            });

            // every rule of alerts.yml is loaded and evaluates; bad and late rows fire their alerts
            service.await("every alert rule to evaluate", () -> {
                JsonNode rules = api(port, "/api/v1/rules").path("data").path("groups").path(0).path("rules");
                for (JsonNode rule : rules) {
                    assertThat(rule.path("health").asText()).as("rule %s: %s", rule.path("name").asText(), rule.path("lastError").asText())
                            .isNotEqualTo("err");
                }
                return rules.size() == 6 && rules.findValues("health").stream().allMatch(h -> h.asText().equals("ok"));
            });
            service.await("the dead-letter and late-row alerts", () -> firing(port).containsAll(List.of("TributaryDeadLetters", "TributaryLateRows")));
            // rows wait for the sink for a moment after each file: an alert of a stuck service may turn pending then, never stay so
            List<String> stuck = List.of("TributaryDown", "TributaryNotReady", "TributaryNoCommit");
            List<String> alerts = new ArrayList<>();
            service.await(() -> "no alert of a stuck service pending on a healthy one; pending or firing: " + alerts, () -> {
                alerts.clear();
                alerts.addAll(firing(port));
                return java.util.Collections.disjoint(alerts, stuck);
            });
        }
    }

    /** Prometheus' own binary: {@code PROMETHEUS} in the environment, else Debian's. */
    private static Optional<Path> find() {
        String env = System.getenv("PROMETHEUS");
        Path p = Path.of(env == null ? "/usr/bin/prometheus" : env);
        return Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
    }

    /** The dashboard's queries, with Grafana's variables as "All" and its rate interval as one minute. */
    private static List<String> dashboardQueries() throws IOException {
        List<String> out = new ArrayList<>();
        for (JsonNode e : JSON.readTree(DASHBOARD.toFile()).findValues("expr")) {
            out.add(e.asText().replace("$pipeline", ".*").replace("$stage", ".*").replace("$__rate_interval", "1m"));
        }
        return out;
    }

    /** The names of the alerts pending or firing. */
    private static TreeSet<String> firing(int port) throws Exception {
        TreeSet<String> names = new TreeSet<>();
        for (JsonNode a : api(port, "/api/v1/alerts").path("data").path("alerts")) {
            names.add(a.path("labels").path("alertname").asText());
        }
        return names;
    }

    private static double value(int port, String promql) throws Exception {
        JsonNode result = query(port, promql).path("data").path("result");
        return result.isEmpty() ? Double.NaN : result.path(0).path("value").path(1).asDouble();
    }

    private static JsonNode query(int port, String promql) throws Exception {
        return api(port, "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
    }

    private static JsonNode api(int port, String path) throws Exception {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return JSON.readTree(r.body());
        } catch (ConnectException e) {
            return JSON.missingNode(); // Prometheus is still starting
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String row(int id, String user, double amt, String time) {
        return "{\"id\": " + id + ", \"user\": \"" + user + "\", \"amt\": " + amt + ", \"ts\": \"2026-01-01T" + time + ":00Z\"}";
    }

    /** Prometheus in a child process, on the compose stack's configuration aimed at 127.0.0.1. */
    private static final class PrometheusProcess implements AutoCloseable {
        private final ChildProcess process;

        private PrometheusProcess(ChildProcess process) {
            this.process = process;
        }

        static PrometheusProcess start(Path binary, Path folder, int port, int servicePort) throws IOException, InterruptedException {
            Files.createDirectories(folder);
            String config = Files.readString(MONITORING.resolve("prometheus.yml"))
                    .replace("tributary:8080", "127.0.0.1:" + servicePort)
                    .replace("/etc/prometheus/alerts.yml", MONITORING.resolve("alerts.yml").toString())
                    .replaceAll("(scrape|evaluation)_interval: 5s", "$1_interval: 1s");
            assertThat(config).as("the compose configuration, aimed here").contains("127.0.0.1:" + servicePort, "alerts.yml", "interval: 1s");
            Path file = folder.resolve("prometheus.yml");
            Files.writeString(file, config);
            ChildProcess p = ChildProcess.command(binary.toString(), "--config.file=" + file, "--storage.tsdb.path=" + folder.resolve("data"),
                    "--web.listen-address=127.0.0.1:" + port).log(folder.resolve("prometheus.log")).start();
            PrometheusProcess prom = new PrometheusProcess(p);
            // until it is ready, Prometheus answers its API with 503 and a text body
            try {
                Awaitility.await("Prometheus ready on port " + port).atMost(Duration.ofMinutes(2))
                        .pollInterval(Duration.ofMillis(200)).ignoreException(ConnectException.class)
                        .until(() -> HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/-/ready")).build(),
                                HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
            } catch (RuntimeException e) {
                prom.close();
                throw e;
            }
            return prom;
        }

        @Override
        public void close() throws InterruptedException {
            process.stop(20);
        }
    }
}
