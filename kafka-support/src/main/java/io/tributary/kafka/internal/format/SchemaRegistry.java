package io.tributary.kafka.internal.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A schema registry, through Confluent's REST API (which Confluent Schema Registry serves, and
 * Apicurio Registry and others under their Confluent-compatible path): a schema by its id
 * ({@code GET /schemas/ids/{id}}), kept once fetched, since an id's schema never changes; a
 * subject's latest version ({@code GET /subjects/{subject}/versions/latest}). A registry that
 * does not answer, or answers 5xx, is an outage the run loop waits out as it does a broker's
 * ({@link FormatErrors#registryUnreachable}); a refusal (401, 403) stops the run.
 */
public final class SchemaRegistry {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** A schema as the registry holds it: its id, its type (AVRO, PROTOBUF, JSON) and its text. */
    public record Registered(int id, String type, String schema) {
    }

    private final String url;
    private final String authorization;
    private final HttpClient http;
    private final Map<Integer, Registered> byId = new ConcurrentHashMap<>();

    /** @param userInfo {@code user:password} for HTTP basic authentication, or null */
    public SchemaRegistry(String url, String userInfo) {
        this.url = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        this.authorization = userInfo == null ? null
                : "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
        this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    }

    public String url() {
        return url;
    }

    /**
     * The schema of {@code id}, or null when the registry has none; {@code serialized}: a Protobuf
     * schema as its FileDescriptorProto, base64 ({@code ?format=serialized}), rather than .proto text.
     */
    public Registered byId(int id, boolean serialized) {
        Registered known = byId.get(id);
        if (known != null) {
            return known;
        }
        JsonNode body = get("/schemas/ids/" + id + (serialized ? "?format=serialized" : ""));
        if (body == null) {
            return null;
        }
        Registered r = new Registered(id, body.path("schemaType").asText("AVRO"), body.path("schema").asText());
        byId.put(id, r);
        return r;
    }

    /** The latest version of {@code subject}; refused in one line when the registry has no such subject. */
    public Registered latest(String subject) {
        JsonNode body = get("/subjects/" + URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20") + "/versions/latest");
        if (body == null) {
            throw FormatErrors.noSubject(url, subject);
        }
        return new Registered(body.path("id").asInt(), body.path("schemaType").asText("AVRO"), body.path("schema").asText());
    }

    /** The JSON of {@code path}, or null on 404. */
    private JsonNode get(String path) {
        HttpResponse<String> response;
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + path)).timeout(TIMEOUT)
                    .header("Accept", "application/vnd.schemaregistry.v1+json, application/json");
            if (authorization != null) {
                request.header("Authorization", authorization);
            }
            response = http.send(request.GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw FormatErrors.registryUnreachable(url + path, e.toString(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw FormatErrors.registryUnreachable(url + path, "interrupted", e);
        } catch (IllegalArgumentException e) {
            throw FormatErrors.badRegistryUrl(url, e.getMessage());
        }
        int status = response.statusCode();
        if (status == 404) {
            return null;
        }
        if (status >= 500 || status == 408 || status == 429) {
            throw FormatErrors.registryUnreachable(url + path, "HTTP " + status + " " + brief(response.body()), null);
        }
        if (status != 200) {
            throw FormatErrors.registryRefused(url + path, status, brief(response.body()));
        }
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw FormatErrors.registryRefused(url + path, status, "not JSON: " + brief(response.body()));
        }
    }

    private static String brief(String body) {
        String b = body == null ? "" : body.strip();
        return b.length() > 300 ? b.substring(0, 300) + "..." : b;
    }
}
