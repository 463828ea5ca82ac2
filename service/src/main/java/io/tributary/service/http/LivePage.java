package io.tributary.service.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.service.internal.Pipeline;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The live page at {@code /}: one HTML page, a script and a style sheet served from the jar (no
 * other host is asked for anything), and {@code /ui/data}, the JSON the script polls: the
 * {@link ProgressHistory}, the spec with its secrets masked, the instance, its uptime, and the
 * last error of a stage that is trying a batch again.
 */
final class LivePage {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String UI = "/io/tributary/service/http/ui/";
    /** An answer: status, content type, body. */
    record Response(int status, String type, byte[] body) {
        static Response json(Object value) {
            try {
                return new Response(200, "application/json", JSON.writeValueAsBytes(value));
            } catch (JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /**
     * What the page shows besides the progress records; each part is read when the page asks.
     * {@code spec} is shown as given: {@code PipelineSpec.describe()}, secrets masked.
     */
    record Sources(String pipeline, String trigger, Map<String, String> spec, Supplier<String> notReady,
                   Supplier<Map<String, Pipeline.Retrying>> retrying) {
    }

    private final ProgressHistory history;
    private final Sources sources;
    private final Map<String, Response> files = new LinkedHashMap<>();
    private volatile String host;

    LivePage(ProgressHistory history, Sources sources) {
        this.history = history;
        this.sources = sources;
        files.put("/", resource("index.html", "text/html; charset=utf-8"));
        files.put("/ui/page.js", resource("page.js", "text/javascript; charset=utf-8"));
        files.put("/ui/page.css", resource("page.css", "text/css; charset=utf-8"));
    }

    /** The answer to {@code path}, or null when the page has no such path. */
    Response answer(String path, String query) {
        if (path.equals("/ui/data")) {
            return Response.json(data(parameters(query)));
        }
        if (path.equals("/ui/batch")) {
            Map<String, String> q = parameters(query);
            ProgressHistory.Entry e = history.batch(q.getOrDefault("stage", ""), number(q.get("id"), -1));
            return e == null ? new Response(404, "text/plain", "no such batch held (the page keeps the last batches only)\n"
                    .getBytes(StandardCharsets.UTF_8)) : Response.json(e.progress());
        }
        return files.get(path.equals("/index.html") ? "/" : path);
    }

    /**
     * The page's data: the records after {@code since} (a sequence number), the lag samples after
     * {@code lagSince} (epoch ms), the last hour's buckets when {@code hour=1}, and on the first
     * call ({@code since=0}) the spec.
     */
    Map<String, Object> data(Map<String, String> q) {
        long since = number(q.get("since"), 0);
        Map<String, Object> out = new LinkedHashMap<>();
        long now = System.currentTimeMillis();
        out.put("pipeline", sources.pipeline());
        out.put("trigger", sources.trigger());
        out.put("instance", Map.of("host", host(), "pid", ProcessHandle.current().pid()));
        out.put("startedMs", ManagementFactory.getRuntimeMXBean().getStartTime());
        out.put("nowMs", now);
        String notReady = sources.notReady().get();
        out.put("ready", notReady == null);
        if (notReady != null) {
            out.put("notReady", notReady);
        }
        Map<String, Object> retrying = new LinkedHashMap<>();
        sources.retrying().get().forEach((stage, r) -> retrying.put(stage, r));
        out.put("retrying", retrying);
        out.put("stages", history.stages());
        out.put("seq", history.lastSeq());
        List<Map<String, Object>> batches = new ArrayList<>();
        for (ProgressHistory.Entry e : history.since(since)) {
            Map<String, Object> b = new LinkedHashMap<>();
            b.put("seq", e.seq());
            b.put("receivedMs", e.receivedMs());
            b.put("summary", e.summary().toMap(now));
            b.put("progress", e.progress());
            batches.add(b);
        }
        out.put("batches", batches);
        out.put("lag", history.lagSince(number(q.get("lagSince"), 0)));
        if ("1".equals(q.get("hour"))) {
            out.put("hour", history.hour());
        }
        if (since == 0) {
            out.put("spec", sources.spec());
        }
        return out;
    }

    private String host() {
        String h = host;
        if (h == null) {
            h = System.getenv("HOSTNAME");
            if (h == null || h.isBlank()) {
                try {
                    h = InetAddress.getLocalHost().getHostName();
                } catch (IOException e) {
                    h = "localhost";
                }
            }
            host = h;
        }
        return h;
    }

    static Map<String, String> parameters(String query) {
        Map<String, String> out = new LinkedHashMap<>();
        if (query == null || query.isEmpty()) {
            return out;
        }
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String k = eq < 0 ? pair : pair.substring(0, eq);
            String v = eq < 0 ? "" : pair.substring(eq + 1);
            out.put(java.net.URLDecoder.decode(k, StandardCharsets.UTF_8), java.net.URLDecoder.decode(v, StandardCharsets.UTF_8));
        }
        return out;
    }

    private static long number(String s, long otherwise) {
        try {
            return s == null ? otherwise : Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    private static Response resource(String name, String type) {
        try (InputStream in = LivePage.class.getResourceAsStream(UI + name)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks " + UI + name);
            }
            return new Response(200, type, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
