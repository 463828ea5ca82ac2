package io.tributary.service.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tributary.schema.Progress;
import io.tributary.service.internal.ServiceErrors;
import io.tributary.service.metrics.PipelineMetrics;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service's HTTP endpoints, on the JDK's own HTTP server: {@code /health/live} (200 while the
 * process serves), {@code /health/ready} (200 once every stage runs and the broker answers, else
 * 503 with the reason), {@code /metrics} (Prometheus text) and {@code /progress} (the last progress
 * record of every stage, a JSON array: Spark's {@code lastProgress}), {@code /instance} (what this
 * process owns of the pipeline's work when several instances share it); with a {@link LivePage},
 * the page at {@code /} and the data it polls under {@code /ui/}. A request whose Host header
 * {@link AllowedHosts} does not accept gets 403 and one line; every answer says
 * {@code X-Content-Type-Options: nosniff} and carries {@link #CONTENT_SECURITY_POLICY}.
 */
public final class StatusServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StatusServer.class);
    private static final String JSON = "application/json";
    /**
     * Every answer's: the page runs its own script and style sheet only (no inline code, nothing
     * from another host), asks only this server for data, and is framed by no other page.
     */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
            + " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private final HttpServer server;
    private final ExecutorService executor;

    private StatusServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Listens on {@code host:port} (port 0: any free port).
     *
     * @param notReady null when the service is ready, else why it is not
     */
    public static StatusServer start(String host, int port, PipelineMetrics metrics, Supplier<String> notReady) {
        return start(host, port, metrics, notReady, null);
    }

    /** As {@link #start(String, int, PipelineMetrics, Supplier)}, with the live page when {@code page} is not null. */
    static StatusServer start(String host, int port, PipelineMetrics metrics, Supplier<String> notReady, LivePage page) {
        return start(host, port, AllowedHosts.of(host, List.of()), metrics, notReady, page, () -> "{\"instance\":null}\n");
    }

    /**
     * As {@link #start(String, int, PipelineMetrics, Supplier, LivePage)}, answering only requests
     * whose Host {@code allowed} accepts, with {@code /instance} answering {@code instance}'s JSON.
     */
    static StatusServer start(String host, int port, AllowedHosts allowed, PipelineMetrics metrics, Supplier<String> notReady,
                              LivePage page, Supplier<String> instance) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(host, port), 16);
        } catch (IOException e) {
            throw ServiceErrors.cannotServeHttp(host, port, e.getMessage(), e);
        }
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "tributary-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", ex -> {
            if (allowed.allows(ex.getRequestHeaders().getFirst("Host"))) {
                handle(ex, metrics, notReady, page, instance);
            } else {
                try (ex) {
                    send(ex, 403, "text/plain; charset=utf-8", "Host '" + ex.getRequestHeaders().getFirst("Host") + "' is not a name this"
                            + " service answers to (" + allowed + "); add it to http.allowedHosts\n");
                }
            }
        });
        server.start();
        StatusServer s = new StatusServer(server, executor);
        LOG.info("serving http://{}:{}/ ({}health/live, health/ready, metrics, progress)", host, s.port(), page == null ? "" : "the live page, ");
        return s;
    }

    /** The port it listens on. */
    public int port() {
        return server.getAddress().getPort();
    }

    private static void handle(HttpExchange ex, PipelineMetrics metrics, Supplier<String> notReady, LivePage page,
                               Supplier<String> instance) throws IOException {
        try (ex) {
            String method = ex.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                send(ex, 405, "text/plain", "only GET and HEAD\n");
                return;
            }
            switch (ex.getRequestURI().getPath()) {
                case "/health/live" -> send(ex, 200, JSON, "{\"status\":\"live\"}\n");
                case "/health/ready" -> {
                    String why = notReady.get();
                    if (why == null) {
                        send(ex, 200, JSON, "{\"status\":\"ready\"}\n");
                    } else {
                        send(ex, 503, JSON, "{\"status\":\"not ready\",\"reason\":\"" + why.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}\n");
                    }
                }
                case "/metrics" -> send(ex, 200, "text/plain; version=0.0.4; charset=utf-8", metrics.scrape());
                case "/progress" -> send(ex, 200, JSON,
                        metrics.lastProgress().stream().map(Progress::toJson).collect(Collectors.joining(",\n", "[", "]\n")));
                case "/instance" -> send(ex, 200, JSON, instance.get());
                default -> {
                    LivePage.Response r = page == null ? null : page.answer(ex.getRequestURI().getPath(), ex.getRequestURI().getRawQuery());
                    if (r == null) {
                        send(ex, 404, "text/plain", "not found; try " + (page == null ? "" : "/ (the live page), ")
                                + "/health/live, /health/ready, /metrics, /progress or /instance\n");
                    } else {
                        ex.getResponseHeaders().set("Cache-Control", "no-cache");
                        send(ex, r.status(), r.type(), r.body());
                    }
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("HTTP {} failed: {}", ex.getRequestURI(), e.toString());
        }
    }

    private static void send(HttpExchange ex, int status, String type, String body) throws IOException {
        send(ex, status, type, body.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange ex, int status, String type, byte[] bytes) throws IOException {
        ex.getResponseHeaders().set("Content-Type", type);
        ex.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        ex.getResponseHeaders().set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        boolean head = ex.getRequestMethod().equals("HEAD");
        ex.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
