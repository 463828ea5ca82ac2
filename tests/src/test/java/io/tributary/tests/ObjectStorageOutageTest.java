package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.LoopbackPorts;
import io.tributary.sink.DeltaTables;
import io.tributary.storage.S3ServerExtension;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The S3 server under a running continuous service stops answering (its input folder and its
 * table are there) and comes back on the same port: the service waits the outage out as it does
 * a broker's, not ready meanwhile and saying why, then goes on; the table holds every row once.
 */
@Tag("integration")
@Timeout(400)
class ObjectStorageOutageTest {
    @RegisterExtension
    static final S3ServerExtension S3 = new S3ServerExtension(false, LoopbackPorts.stable(1)[0]);

    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void aServiceWaitsOutAnObjectStorageOutageNotReadyMeanwhileAndTheTableIsExact() throws Exception {
        Path bucket = S3.createBucket("outage");
        String table = "s3a://outage/bronze/orders/";
        Workspace ws = new Workspace(dir, QuickstartScenarios.SPEC.replace("name: quickstart", "name: outage")
                .replace("    path: in/", "    path: s3a://outage/landing/").replace("    path: out/", "    path: " + table)
                .replace("trigger: availableNow\n", "") + ObjectStorageScenariosTest.storageYaml(settings()));
        ObjectStorageScenariosTest.drop(bucket, "part-0001.json", row(1, "10:01"));
        ChildProcess service = ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
        try {
            int port = httpPort(service);
            awaitWhileAlive("the first file in the table", service, () -> ids(table).size() == 1);
            awaitWhileAlive("ready", service, () -> ready(port).statusCode() == 200);

            S3.stopServing();
            ObjectStorageScenariosTest.drop(bucket, "part-0002.json", row(2, "10:05"));
            // past the S3 client's own retries (two attempts here): the batch failed, and is tried again
            awaitWhileAlive("the stage trying its batch again", service, () -> service.err().contains("object storage does not answer:"
                    + " trying the batch again"));
            HttpResponse<String> notReady = ready(port);
            assertThat(notReady.statusCode()).as(notReady.body()).isEqualTo(503);
            assertThat(notReady.body()).contains("\"reason\":\"stage outage/").contains(" is trying a failed batch again (");
            awaitWhileAlive("a second failed try, the service still up", service,
                    () -> ready(port).body().matches("(?s).*is trying a failed batch again \\([2-9]\\d* failed so far\\).*"));

            S3.serveAgain();
            awaitWhileAlive("the second file in the table", service, () -> ids(table).size() == 2);
            awaitWhileAlive("ready again", service, () -> ready(port).statusCode() == 200);
            assertThat(service.stop(90)).as("exit code after SIGTERM; stderr:\n%s", service.err()).isZero();
            assertThat(ids(table)).as("the table once the service has ended").containsExactly(1, 2);
            assertThat(service.err()).doesNotContain("kept failing").doesNotContain("error:");
        } finally {
            service.kill();
        }
    }

    /**
     * The server's settings, with two attempts per request instead of ten: what is under test is the
     * service waiting out the outage batch by batch, and with ten each failed batch takes some 16 s
     * of the client's own backoff before the service sees it.
     */
    private static Map<String, String> settings() {
        Map<String, String> s = new java.util.TreeMap<>(S3.settings());
        s.put("fs.s3a.attempts.maximum", "2");
        return s;
    }

    private static String row(int id, String time) {
        return "{\"id\": " + id + ", \"user\": \"u\", \"amt\": 1.0, \"ts\": \"2026-01-01T" + time + ":00Z\"}";
    }

    private static List<Object> ids(String table) {
        return DeltaTables.exists(table, S3.storage())
                ? DeltaTables.readRows(table, S3.storage()).stream().map(r -> r[0]).sorted().toList() : List.of();
    }

    private HttpResponse<String> ready(int port) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health/ready")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static int httpPort(ChildProcess service) throws IOException {
        int[] port = {-1};
        awaitWhileAlive("the HTTP port in the log", service, () -> {
            Matcher m = Pattern.compile("serving http://127\\.0\\.0\\.1:(\\d+)/").matcher(service.err());
            port[0] = m.find() ? Integer.parseInt(m.group(1)) : -1;
            return port[0] > 0;
        });
        return port[0];
    }

    private static void awaitWhileAlive(String what, ChildProcess service, Callable<Boolean> condition) {
        await(what).atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250)).ignoreExceptionsMatching(e -> !(e instanceof AssertionError))
                .until(() -> {
                    assertThat(service.alive()).as("the service runs; stderr:\n%s", service.err()).isTrue();
                    return condition.call();
                });
    }
}
