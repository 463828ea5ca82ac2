package io.tributary.service.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.service.metrics.PipelineMetrics;
import io.tributary.service.spec.PipelineSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A web page of another site that made its name resolve to 127.0.0.1 (DNS rebinding) is refused:
 * its browser's requests carry that name as their Host. Requests are written on a raw socket, as
 * a browser sends them; every answer tells the browser not to sniff types, and the page's
 * Content-Security-Policy allows its own script and style sheet only.
 */
class HostHeaderTest {
    private PipelineMetrics metrics;
    private StatusServer server;

    @TempDir
    Path dir;

    @BeforeEach
    void start() {
        metrics = new PipelineMetrics("orders");
        ProgressHistory history = new ProgressHistory(System::currentTimeMillis);
        LivePage page = new LivePage(history, new LivePage.Sources("orders", "default", Map.of("name", "orders"), () -> null, Map::of));
        server = StatusServer.start("127.0.0.1", 0, metrics, () -> null, page);
    }

    @AfterEach
    void stop() {
        server.close();
        metrics.close();
    }

    /** The status line, the headers and the body of a GET of {@code path} with {@code host} as its Host header (none when null). */
    static String get(int port, String path, String host) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            OutputStream out = s.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\n" + (host == null ? "" : "Host: " + host + "\r\n") + "Connection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aForeignHostIsRefusedOnEveryPathWithOneLine() throws Exception {
        int port = server.port();
        for (String path : List.of("/progress", "/ui/data?since=0", "/metrics", "/health/ready", "/")) {
            String answer = get(port, path, "rebind.attacker.example:" + port);
            assertThat(answer).as(path).startsWith("HTTP/1.1 403 ").endsWith("\r\n\r\nHost 'rebind.attacker.example:" + port
                    + "' is not a name this service answers to (127.0.0.1, ::1, localhost); add it to http.allowedHosts\n");
        }
    }

    @Test
    void theLoopbackNamesAreAnsweredOnAnyPort() throws Exception {
        int port = server.port();
        for (String host : List.of("127.0.0.1:" + port, "localhost:" + port, "LocalHost", "[::1]:" + port, "localhost:9999")) {
            assertThat(get(port, "/progress", host)).as(host).startsWith("HTTP/1.1 200 ");
        }
        assertThat(get(port, "/health/live", null)).as("HTTP/1.0-style, no Host").startsWith("HTTP/1.1 200 ");
    }

    @Test
    void everyAnswerForbidsSniffingAndThePageRunsOnlyItsOwnCode() throws Exception {
        int port = server.port();
        for (String path : List.of("/", "/ui/page.js", "/ui/data?since=0", "/progress", "/nothing")) {
            assertThat(header(get(port, path, "127.0.0.1:" + port), "X-Content-Type-Options")).as(path).isEqualTo("nosniff");
        }
        String page = get(port, "/", "localhost:" + port);
        assertThat(header(page, "Content-Security-Policy")).isEqualTo("default-src 'none'; script-src 'self'; style-src 'self';"
                + " img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
        assertThat(page).contains("<script src=\"/ui/page.js\"></script>");
    }

    /** The value of header {@code name} (names are case-insensitive), or null. */
    private static String header(String answer, String name) {
        for (String line : answer.substring(0, answer.indexOf("\r\n\r\n")).split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
                return line.substring(colon + 1).strip();
            }
        }
        return null;
    }

    @Test
    void theSpecsAllowedHostsAreAnsweredAndOthersStillRefused() throws Exception {
        Path spec = dir.resolve("pipeline.yaml");
        Files.writeString(spec, """
                name: orders
                source: { files: { path: in/, format: json, schema: "id INT" } }
                sink: { delta: { path: out/ } }
                http:
                  port: 0
                  allowedHosts: [tributary.internal, Pipeline.Example.]
                """);
        Map<String, String> none = new LinkedHashMap<>();
        try (ServiceEndpoints endpoints = ServiceEndpoints.start(PipelineSpec.load(spec, none, none))) {
            int port = endpoints.boundPort().orElseThrow();
            assertThat(get(port, "/health/live", "tributary.internal:" + port)).startsWith("HTTP/1.1 200 ");
            assertThat(get(port, "/health/live", "pipeline.example")).startsWith("HTTP/1.1 200 ");
            assertThat(get(port, "/health/live", "localhost:" + port)).startsWith("HTTP/1.1 200 ");
            assertThat(get(port, "/ui/data?since=0", "other.example:" + port)).startsWith("HTTP/1.1 403 ").endsWith("Host 'other.example:"
                    + port + "' is not a name this service answers to (127.0.0.1, ::1, localhost, pipeline.example, tributary.internal);"
                    + " add it to http.allowedHosts\n");
        }
    }

    @Test
    void aWildcardBindAnswersAnyNameUnlessTheSettingNarrowsIt() {
        assertThat(AllowedHosts.of("0.0.0.0", List.of()).allows("tributary-7f9c:8080")).isTrue();
        assertThat(AllowedHosts.of("::", List.of()).allows("10.0.0.7:8080")).isTrue();
        AllowedHosts narrowed = AllowedHosts.of("0.0.0.0", List.of("tributary.internal"));
        assertThat(narrowed.allows("tributary.internal:8080")).isTrue();
        assertThat(narrowed.allows("localhost:8080")).isTrue();
        assertThat(narrowed.allows("rebind.attacker.example:8080")).isFalse();
        assertThat(narrowed.allows("0.0.0.0:8080")).as("the wildcard is no name").isFalse();
        assertThat(AllowedHosts.of("127.0.0.1", List.of("*")).allows("anything:1")).isTrue();
        assertThat(AllowedHosts.of("192.168.4.2", List.of()).allows("192.168.4.2:8080")).as("the bound address").isTrue();
    }
}
