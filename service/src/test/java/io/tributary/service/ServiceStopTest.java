package io.tributary.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.sink.DeltaTables;
import io.tributary.testing.ChildProcess;
import io.tributary.testing.Specs;
import io.tributary.testing.InputFiles;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution's {@code bin/tributary run} as a service in a child process, as a container
 * runs it: ready over HTTP, a new file reaches the table, SIGTERM exits 0, and the next start
 * resumes exactly. Logs are JSON and never show the secret passed in the environment.
 */
@Tag("integration")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ServiceStopTest {
    private static final String SECRET = "s3cr3t-do-not-log";
    private static final Path BIN = Path.of("target", "dist", "bin", "tributary").toAbsolutePath();
    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void sigtermFinishesTheBatchExitsZeroAndTheNextRunResumesExactly() throws Exception {
        Path spec = Specs.copyQuickstartExample(dir.resolve("quickstart"));
        Path stderr = dir.resolve("service.err");
        ChildProcess service = start(List.of("run", spec.toString(), "--trigger", "default", "--set", "http.port=0"),
                dir.resolve("service.out"), stderr);
        try {
            int port = awaitPort(stderr, service);
            await("ready", service, () -> status(port, "/health/ready") == 200);
            assertThat(body(port, "/metrics")).contains("tributary_pipeline_ready{pipeline=\"quickstart\"} 1.0");

            InputFiles.place(spec.resolveSibling("in"), "part-0002.json",
                    "{\"id\": 3, \"user\": \"c\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:20:00Z\"}");
            await("the new file in the table", service, () -> tableIds(spec).size() == 3);
            await("the sink's metrics", service, () -> body(port, "/metrics")
                    .contains("tributary_stage_rows_output_total{pipeline=\"quickstart\",stage=\"quickstart/sink\"} 3.0"));
            assertThat(body(port, "/progress")).contains("\"name\":\"quickstart/sink\"");

            // a file arrives just before the stop: whether its batch runs now or at the next start, it lands once
            InputFiles.place(spec.resolveSibling("in"), "part-0003.json",
                    "{\"id\": 4, \"user\": \"d\", \"amt\": 2.0, \"ts\": \"2026-01-01T10:21:00Z\"}");
            int exit = service.stop(90); // SIGTERM
            assertThat(exit).as("exited after SIGTERM").isNotEqualTo(-1);
            assertThat(exit).as("exit code after SIGTERM; stderr:\n%s", Files.readString(stderr)).isZero();
        } finally {
            service.close();
        }

        ChildProcess again = start(List.of("run", spec.toString()), dir.resolve("again.out"), dir.resolve("again.err"));
        int againExit = again.waitFor(180);
        assertThat(againExit).isNotEqualTo(-1);
        assertThat(againExit).as("second run; stderr:\n%s", Files.readString(dir.resolve("again.err"))).isZero();
        assertThat(tableIds(spec)).containsExactlyInAnyOrder(1, 2, 3, 4);

        ChildProcess show = start(List.of("checkpoint", "show", spec.toString()), dir.resolve("show.out"), dir.resolve("show.err"));
        assertThat(show.waitFor(180)).isNotEqualTo(-1);
        assertThat(Files.readString(dir.resolve("show.out"))).contains("kafka.sasl.jaas.config = ******").doesNotContain(SECRET);

        ObjectMapper json = new ObjectMapper();
        for (String log : List.of("service.err", "again.err", "show.err")) {
            String text = Files.readString(dir.resolve(log));
            assertThat(text).as(log).doesNotContain(SECRET);
            for (String line : text.lines().toList()) {
                assertThat(isJsonLogLine(json, line)).as("a JSON log line in %s: %s", log, line).isTrue();
            }
        }
    }

    private static boolean isJsonLogLine(ObjectMapper json, String line) {
        try {
            return json.readTree(line).has("message");
        } catch (IOException e) {
            return false;
        }
    }

    private static ChildProcess start(List<String> args, Path out, Path err) throws IOException {
        return ChildProcess.command(Stream.concat(Stream.of(BIN.toString()), args.stream()).toList()).output(out, err)
                .env("JAVA_HOME", System.getProperty("java.home"))
                .env("TRIBUTARY_LOG_FORMAT", "json")
                .env("TRIBUTARY_KAFKA_SASL_JAAS_CONFIG",
                        "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"" + SECRET + "\";")
                .start();
    }

    private static int awaitPort(Path stderr, ChildProcess p) {
        Pattern serving = Pattern.compile("serving http://127\\.0\\.0\\.1:(\\d+)/");
        int[] port = {-1};
        await("the HTTP port in the log", p, () -> {
            Matcher m = serving.matcher(read(stderr));
            if (m.find()) {
                port[0] = Integer.parseInt(m.group(1));
            }
            return port[0] > 0;
        });
        return port[0];
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            return "";
        }
    }

    private int status(int port, String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException | InterruptedException e) {
            return -1;
        }
    }

    private String body(int port, String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException | InterruptedException e) {
            return "";
        }
    }

    private static List<Integer> tableIds(Path spec) {
        String table = spec.resolveSibling("out").toString();
        return DeltaTables.readRows(table).stream().map(r -> (Integer) r[0]).toList();
    }

    /** Waits up to two minutes for {@code done}; fails at once if the service ended. Either failure shows the service's log. */
    private static void await(String what, ChildProcess p, BooleanSupplier done) {
        p.awaitWhileAlive(what, Duration.ofMinutes(2), Duration.ofMillis(100), done::getAsBoolean);
    }
}
