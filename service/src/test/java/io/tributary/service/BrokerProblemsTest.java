package io.tributary.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.service.internal.StateLock;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Kafka cluster that cannot be reached, and a pipeline that already runs: each is one line on
 * stderr that names the setting, the servers or the running process, and exit code 1.
 */
@Timeout(120)
class BrokerProblemsTest {
    @TempDir
    Path dir;

    private Path spec(String extra) throws IOException {
        Files.createDirectories(dir.resolve("in"));
        Path spec = dir.resolve("pipeline.yaml");
        Files.writeString(spec, """
                name: p
                source:
                  files:
                    path: in/
                    schema: "id INT"
                sink:
                  delta:
                    path: out/
                state: state/
                trigger: availableNow
                """ + extra);
        return spec;
    }

    private static CliRun tributary(String... args) {
        return CliRun.of(args);
    }

    /** A port on 127.0.0.1 that nothing listens on: a broker that is down. */
    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Test
    void anUnresolvableBootstrapHostIsOneLineNamingTheSettingAndTheHost() throws IOException {
        Path spec = spec("kafka:\n  bootstrap.servers: \"nosuchhost.invalid:9092\"\n");
        String expected = "tributary: error: kafka.bootstrap.servers: host nosuchhost.invalid does not resolve to an address"
                + " (nosuchhost.invalid:9092); fix the host name, or leave the setting out to run the embedded broker";
        CliRun run = tributary("run", spec.toString());
        assertThat(run.code()).isEqualTo(1);
        assertThat(run.line()).isEqualTo(expected);
        CliRun show = tributary("checkpoint", "show", spec.toString());
        assertThat(show.code()).isEqualTo(1);
        assertThat(show.line()).isEqualTo(expected);
    }

    @Test
    void aBootstrapServerWithoutPortIsOneLine() throws IOException {
        CliRun run = tributary("run", spec("kafka:\n  bootstrap.servers: \"localhost\"\n").toString());
        assertThat(run.code()).isEqualTo(1);
        assertThat(run.line()).isEqualTo("tributary: error: kafka.bootstrap.servers: 'localhost' is not host:port;"
                + " give the broker's address as host:port (e.g. kafka:9092), several separated by commas");
    }

    @Test
    void checkpointShowWithTheBrokerDownSaysItDoesNotAnswer() throws IOException {
        int port = closedPort();
        Path spec = spec("kafka:\n  bootstrap.servers: \"127.0.0.1:" + port + "\"\n  default.api.timeout.ms: 2000\n"
                + "  request.timeout.ms: 2000\n");
        CliRun show = tributary("checkpoint", "show", spec.toString());
        assertThat(show.code()).isEqualTo(1);
        assertThat(show.line()).isEqualTo("tributary: error: the Kafka cluster at 127.0.0.1:" + port + " (kafka.bootstrap.servers)"
                + " did not answer in 2 s (kafka.default.api.timeout.ms); start it, or fix kafka.bootstrap.servers");
    }

    @Test
    void aBoundedRunAgainstABrokerThatIsDownGivesUpAtKafkasOwnTimeout() throws IOException {
        int port = closedPort();
        Path spec = spec("kafka:\n  bootstrap.servers: \"127.0.0.1:" + port + "\"\n  default.api.timeout.ms: 2000\n"
                + "  request.timeout.ms: 2000\n");
        CliRun run = tributary("run", spec.toString());
        assertThat(run.code()).isEqualTo(1);
        assertThat(run.line()).isEqualTo("tributary: error: the Kafka cluster at 127.0.0.1:" + port + " (kafka.bootstrap.servers)"
                + " did not answer in 2 s (kafka.default.api.timeout.ms); start it, or fix kafka.bootstrap.servers");
    }

    @Test
    void kafkaTimeoutsAClientWouldRefuseAreOneLineWithKafkasRuleBeforeAnyClient() throws IOException {
        // Kafka's rule: default.api.timeout.ms is at least request.timeout.ms (30 s unless set)
        Path spec = spec("kafka:\n  default.api.timeout.ms: 2000\n"); // on the embedded broker, which would answer
        CliRun run = tributary("run", spec.toString());
        assertThat(run.code()).isEqualTo(1);
        assertThat(run.line()).startsWith("tributary: error: spec ").endsWith(": key 'kafka.default.api.timeout.ms' is 2000, below"
                + " 'kafka.request.timeout.ms' (Kafka's default, 30000); Kafka's clients need default.api.timeout.ms >= request.timeout.ms:"
                + " raise kafka.default.api.timeout.ms to at least 30000 or set kafka.request.timeout.ms");
        assertThat(spec.resolveSibling("state")).as("nothing started: no state folder, no broker").doesNotExist();
    }

    @Test
    void aSecondRunOfARunningPipelineIsToldOfTheRunningOneNotOfItsHttpPort() throws IOException {
        List<AutoCloseable> held = new ArrayList<>();
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            // the running pipeline: it holds the state lock and serves HTTP on its port
            Path spec = spec("http:\n  port: " + taken.getLocalPort() + "\n");
            StateLock running = StateLock.acquire(dir.resolve("state"), "p");
            held.add(running);
            running.describe(", http://127.0.0.1:" + taken.getLocalPort() + "/");

            CliRun second = tributary("run", spec.toString());
            assertThat(second.code()).isEqualTo(1);
            assertThat(second.line()).isEqualTo("tributary: error: pipeline p is already running on state folder " + dir.resolve("state")
                    + " (pid " + ProcessHandle.current().pid() + ", http://127.0.0.1:" + taken.getLocalPort() + "/);"
                    + " one process per pipeline state: stop the other one first (its /progress and /metrics endpoints show where it stands)");
        } finally {
            for (AutoCloseable c : held) {
                try {
                    c.close();
                } catch (Exception ignored) {
                    // the test's own lock
                }
            }
        }
    }
}
