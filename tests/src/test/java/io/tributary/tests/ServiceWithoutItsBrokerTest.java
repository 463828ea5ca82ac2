package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.LoopbackPorts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A continuous service whose broker does not answer (down, or a wrong port): it says so within
 * seconds, naming kafka.bootstrap.servers, says it again while it waits, and a SIGTERM stops it
 * cleanly, exit code 0.
 */
@Tag("integration")
@Timeout(300)
class ServiceWithoutItsBrokerTest {
    @TempDir
    Path dir;

    @Test
    void aServiceWhoseBrokerDoesNotAnswerSaysSoWhileItWaitsAndStopsCleanly() throws Exception {
        int port = LoopbackPorts.stable(1)[0]; // nothing listens there
        Workspace ws = new Workspace(dir.resolve("pipeline"), QuickstartScenarios.SPEC.replace("trigger: availableNow\n", "")
                + "kafka:\n  bootstrap.servers: \"127.0.0.1:" + port + "\"\n");
        ws.addFile("part-0001.json", "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}");
        ChildProcess service = ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
        try {
            String said = "the Kafka cluster at 127.0.0.1:" + port + " (kafka.bootstrap.servers) does not answer (";
            service.awaitWhileAlive("the service to say twice that its broker does not answer", Duration.ofSeconds(180), Duration.ofMillis(200),
                    () -> service.err().split(java.util.regex.Pattern.quote(said), -1).length - 1 >= 2);
            assertThat(service.err()).contains("so far); still trying, for up to 5 minutes");

            assertThat(service.stop(60)).as("exit code after SIGTERM; stderr:\n%s", service.err()).isZero();
            assertThat(service.err()).contains("stopped while waiting for the Kafka cluster at 127.0.0.1:" + port)
                    .doesNotContain("error:");
        } finally {
            service.kill();
        }
    }
}
