package io.tributary.service.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.testing.ChildProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Debian's Chromium, headless, driven over the DevTools protocol with the JDK's own WebSocket
 * client: navigate, evaluate JavaScript, take a screenshot, and collect every error the page
 * reports (uncaught exceptions, {@code console.error}, failed loads).
 */
final class Chromium implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** The flags that work on a machine without a display or an outside network. */
    private static final List<String> FLAGS = List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
            "--hide-scrollbars", "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0");

    private final ChildProcess process;
    private final WebSocket socket;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final List<String> errors = new CopyOnWriteArrayList<>();

    private Chromium(ChildProcess process, WebSocket socket) {
        this.process = process;
        this.socket = socket;
    }

    /** Where Chromium is: {@code CHROMIUM} in the environment, else Debian's {@code /usr/bin/chromium}. */
    static Optional<Path> find() {
        String env = System.getenv("CHROMIUM");
        for (String p : env == null ? List.of("/usr/bin/chromium", "/usr/bin/chromium-browser") : List.of(env)) {
            if (Files.isExecutable(Path.of(p))) {
                return Optional.of(Path.of(p));
            }
        }
        return Optional.empty();
    }

    /** Starts it with a new, empty profile in {@code dir} and attaches to its first tab. */
    static Chromium start(Path executable, Path dir, int width, int height) throws Exception {
        Path profile = Files.createDirectories(dir.resolve("profile"));
        List<String> cmd = new ArrayList<>(List.of(executable.toString()));
        cmd.addAll(FLAGS);
        cmd.add("--user-data-dir=" + profile);
        cmd.add("--window-size=" + width + "," + height);
        cmd.add("about:blank");
        ChildProcess p = ChildProcess.command(cmd).log(dir.resolve("chromium.log")).start();
        try {
            Path portFile = profile.resolve("DevToolsActivePort"); // the port it chose, once it listens
            p.awaitWhileAlive("chromium to start (" + portFile + ")", TIMEOUT, Duration.ofMillis(50),
                    () -> Files.exists(portFile) && !Files.readAllLines(portFile).isEmpty());
            int port = Integer.parseInt(Files.readAllLines(portFile).get(0).strip());
            HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
            JsonNode targets = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list")).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            String ws = null;
            for (JsonNode t : targets) {
                if (t.path("type").asText().equals("page")) {
                    ws = t.path("webSocketDebuggerUrl").asText();
                    break;
                }
            }
            if (ws == null) {
                throw new IllegalStateException("chromium shows no page target: " + targets);
            }
            Chromium[] self = new Chromium[1];
            WebSocket socket = http.newWebSocketBuilder().connectTimeout(TIMEOUT)
                    .buildAsync(URI.create(ws), new Listener(m -> self[0].receive(m))).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            self[0] = new Chromium(p, socket);
            self[0].call("Runtime.enable", Map.of());
            self[0].call("Log.enable", Map.of());
            self[0].call("Page.enable", Map.of());
            return self[0];
        } catch (Exception | AssertionError e) {
            p.close();
            throw e;
        }
    }

    /** Sends one DevTools command and waits for its result. */
    JsonNode call(String method, Map<String, ?> params) throws Exception {
        long id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        ObjectNode msg = JSON.createObjectNode().put("id", id).put("method", method);
        msg.set("params", JSON.valueToTree(params));
        socket.sendText(JSON.writeValueAsString(msg), true).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        JsonNode r = answer.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        if (r.has("error")) {
            throw new IllegalStateException(method + " failed: " + r.get("error"));
        }
        return r.path("result");
    }

    void navigate(String url) throws Exception {
        call("Page.navigate", Map.of("url", url));
    }

    /** The value of a JavaScript expression (JSON-serialisable); an exception in it fails the call. */
    JsonNode eval(String expression) throws Exception {
        JsonNode r = call("Runtime.evaluate", Map.of("expression", expression, "returnByValue", true, "awaitPromise", true));
        if (r.has("exceptionDetails")) {
            throw new IllegalStateException("evaluating " + expression + ": " + r.get("exceptionDetails"));
        }
        return r.path("result").path("value");
    }

    /** A PNG of the whole page, {@code width} pixels wide. */
    void screenshot(Path png, int width) throws Exception {
        int height = eval("document.documentElement.scrollHeight").asInt();
        call("Emulation.setDeviceMetricsOverride", Map.of("width", width, "height", height, "deviceScaleFactor", 1, "mobile", false));
        JsonNode shot = call("Page.captureScreenshot", Map.of("format", "png", "captureBeyondViewport", true));
        Files.createDirectories(png.toAbsolutePath().getParent());
        Files.write(png, Base64.getDecoder().decode(shot.path("data").asText()));
    }

    /** Every error the page reported so far: uncaught exceptions, console.error calls, failed loads. */
    List<String> errors() {
        return List.copyOf(errors);
    }

    private void receive(String text) {
        JsonNode m;
        try {
            m = JSON.readTree(text);
        } catch (IOException e) {
            errors.add("unreadable DevTools message: " + text);
            return;
        }
        if (m.has("id")) {
            CompletableFuture<JsonNode> f = pending.remove(m.get("id").asLong());
            if (f != null) {
                f.complete(m);
            }
            return;
        }
        JsonNode p = m.path("params");
        switch (m.path("method").asText()) {
            case "Runtime.exceptionThrown" -> errors.add("exception: " + p.path("exceptionDetails"));
            case "Runtime.consoleAPICalled" -> {
                if (p.path("type").asText().equals("error")) {
                    errors.add("console.error: " + p.path("args"));
                }
            }
            case "Log.entryAdded" -> {
                if (p.path("entry").path("level").asText().equals("error")) {
                    errors.add("log: " + p.path("entry").path("text").asText() + " " + p.path("entry").path("url").asText());
                }
            }
            default -> { }
        }
    }

    /** Joins a message's fragments and hands whole messages on. */
    private static final class Listener implements WebSocket.Listener {
        private final java.util.function.Consumer<String> onMessage;
        private final StringBuilder partial = new StringBuilder();

        Listener(java.util.function.Consumer<String> onMessage) {
            this.onMessage = onMessage;
        }

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String whole = partial.toString();
                partial.setLength(0);
                onMessage.accept(whole);
            }
            ws.request(1);
            return null;
        }
    }

    @Override
    public void close() {
        socket.abort();
        try {
            process.stop(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
