package io.tributary.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real schema registry for tests: Apicurio Registry's distribution (a Quarkus application, from
 * Maven Central; a module's {@code -Pregistry} profile unpacks it into {@code apicurio.home}), run
 * as a child process on {@code apicurio.java} (Java 21 or later), in-memory, bound to 127.0.0.1,
 * and reached through its Confluent-compatible API ({@link #url()}). With a user, it requires HTTP
 * basic authentication (Quarkus' embedded users), as a Confluent registry with basic auth does.
 */
public final class SchemaRegistryServer implements AutoCloseable {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*(\\d+)");

    private final ChildProcess process;
    private final String url;
    private final String authorization;

    private SchemaRegistryServer(ChildProcess process, String url, String userInfo) {
        this.process = process;
        this.url = url;
        this.authorization = userInfo == null ? null
                : "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
    }

    /** Why no registry can start here (not unpacked, no Java 21), or null when one can. */
    public static String unavailable() {
        String home = System.getProperty("apicurio.home");
        if (home == null || !Files.exists(Path.of(home, "quarkus-run.jar"))) {
            return "no Apicurio Registry unpacked: run with -Pregistry";
        }
        String java = System.getProperty("apicurio.java", "");
        return Files.isExecutable(Path.of(java)) ? null
                : "Apicurio Registry needs Java 21 or later: -Dapicurio.java=PATH (now '" + java + "')";
    }

    /**
     * Starts a registry and waits until it answers.
     *
     * @param userInfo {@code user:password} the registry then requires of every request, or null for none
     */
    public static SchemaRegistryServer start(Path logs, String userInfo) throws IOException {
        int port = freePort();
        List<String> command = new ArrayList<>(List.of(System.getProperty("apicurio.java"), "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.http.port=" + port, "-Dquarkus.management.host=127.0.0.1", "-Dquarkus.management.port=" + freePort()));
        if (userInfo != null) {
            int colon = userInfo.indexOf(':');
            command.addAll(List.of("-Dapicurio.authn.enabled=true", "-Dapicurio.authn.mechanism.priority=basic",
                    "-Dquarkus.http.auth.basic=true", "-Dquarkus.security.users.embedded.plain-text=true",
                    "-Dquarkus.security.users.embedded.users." + userInfo.substring(0, colon) + "=" + userInfo.substring(colon + 1)));
        }
        command.addAll(List.of("-jar", "quarkus-run.jar"));
        ChildProcess process = ChildProcess.command(command).directory(Path.of(System.getProperty("apicurio.home")))
                .log(logs.resolve("apicurio-" + port + ".log")).start();
        SchemaRegistryServer server = new SchemaRegistryServer(process, "http://127.0.0.1:" + port + "/apis/ccompat/v7", userInfo);
        process.awaitWhileAlive("Apicurio Registry answering " + server.url, Duration.ofMinutes(5), Duration.ofMillis(500),
                () -> server.status("/subjects") == 200);
        return server;
    }

    /** A port nothing listens on now, on 127.0.0.1. */
    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** The Confluent-compatible API's root, as a serializer's {@code schema.registry.url}. */
    public String url() {
        return url;
    }

    /** The port the registry listens on. */
    public int port() {
        return URI.create(url).getPort();
    }

    private int status(String path) {
        try {
            HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(url + path)).GET();
            if (authorization != null) {
                r.header("Authorization", authorization);
            }
            return HTTP.send(r.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /**
     * Registers {@code schema} under {@code subject}, as a serializer with {@code auto.register.schemas}
     * does; its id.
     *
     * @param type {@code AVRO} (or null), {@code PROTOBUF}, {@code JSON}
     */
    public int register(String subject, String type, String schema) throws IOException, InterruptedException {
        String body = "{\"schema\": " + quoted(schema) + (type == null ? "" : ", \"schemaType\": " + quoted(type)) + "}";
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(url + "/subjects/" + subject + "/versions"))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json").POST(HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            r.header("Authorization", authorization);
        }
        HttpResponse<String> response = HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
        Matcher id = ID.matcher(response.body());
        if (response.statusCode() != 200 || !id.find()) {
            throw new IllegalStateException("the registry refused " + subject + ": HTTP " + response.statusCode() + " " + response.body());
        }
        return Integer.parseInt(id.group(1));
    }

    private static String quoted(String text) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> b.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return b.append('"').toString();
    }

    @Override
    public void close() throws InterruptedException {
        process.close();
    }
}
