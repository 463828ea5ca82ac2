package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A Kafka cluster that does not answer is said early, said again while the wait goes on, then named in one line. */
@Timeout(60)
class ClusterWaitTest {
    private static String closedServer() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return "127.0.0.1:" + s.getLocalPort();
        }
    }

    @Test
    void itIsSaidWithinFiveSecondsAndAgainEveryTenToThirtySeconds() {
        assertThat(ClusterWait.FIRST_WARNING).isLessThanOrEqualTo(Duration.ofSeconds(5));
        assertThat(ClusterWait.REPEAT).isBetween(Duration.ofSeconds(10), Duration.ofSeconds(30));
    }

    @Test
    void aClusterThatDoesNotAnswerIsSaidWhileWaitingThenGivenUpWithItsServersNamed() throws IOException {
        String server = closedServer();
        List<String> warnings = new CopyOnWriteArrayList<>();
        ClusterWait wait = new ClusterWait(Duration.ofMillis(300), Duration.ofMillis(300), warnings::add);
        assertThatThrownBy(() -> wait.await(Map.of("bootstrap.servers", server), Duration.ofSeconds(3), "kafka.default.api.timeout.ms", () -> false))
                .isInstanceOf(TributaryException.class)
                .isNotInstanceOf(StoppedWhileStarting.class)
                .hasMessage("the Kafka cluster at " + server + " (kafka.bootstrap.servers) did not answer in 3 s"
                        + " (kafka.default.api.timeout.ms); start it, or fix kafka.bootstrap.servers");
        assertThat(warnings).as("said while waiting, before giving up").isNotEmpty();
        assertThat(warnings).allMatch(w -> w.startsWith("the Kafka cluster at " + server + " (kafka.bootstrap.servers) does not answer ("))
                .allMatch(w -> w.endsWith("so far); still trying, for up to 3 s"));
    }

    @Test
    void aStopEndsTheWait() throws IOException {
        String server = closedServer();
        List<String> warnings = new CopyOnWriteArrayList<>();
        ClusterWait wait = new ClusterWait(Duration.ofMillis(300), Duration.ofMillis(300), warnings::add);
        assertThatThrownBy(() -> wait.await(Map.of("bootstrap.servers", server), Recovery.GIVE_UP_AFTER, null, () -> !warnings.isEmpty()))
                .isInstanceOf(StoppedWhileStarting.class)
                .hasMessage("stopped while waiting for the Kafka cluster at " + server + " (kafka.bootstrap.servers) to answer; nothing ran");
    }

    @Test
    void settingsThatMakeNoClientAreNamed() {
        ClusterWait wait = new ClusterWait();
        assertThatThrownBy(() -> wait.await(Map.of("bootstrap.servers", "127.0.0.1:9092", "security.protocol", "NOSUCH"),
                Duration.ofSeconds(5), null, () -> false))
                .isInstanceOf(TributaryException.class)
                .hasMessageStartingWith("the kafka: settings do not make a Kafka client for the Kafka cluster at 127.0.0.1:9092"
                        + " (kafka.bootstrap.servers): ");
    }
}
