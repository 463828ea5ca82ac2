package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.dockerjava.api.DockerClient;
import io.tributary.sink.DeltaTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.MountableFile;

/**
 * Tributary's image as the compose stack runs it: the container against a Kafka container on one
 * network, the compose example's spec mounted at /etc/tributary/pipeline.yaml and the input and
 * table folders bind-mounted. A file dropped in is in the table; SIGTERM (docker stop) exits 0.
 */
@Tag("containers")
@Testcontainers(disabledWithoutDocker = true)
@Timeout(600)
class TributaryImageTest {
    private static final Duration WAIT = Duration.ofMinutes(3);

    @TempDir
    Path dir;

    @Test
    void theImageIngestsADroppedFileAndExitsZeroOnSigterm() throws Exception {
        Path in = writable(dir.resolve("in"));
        Path tables = writable(dir.resolve("tables"));
        Path spec = Path.of("../examples/compose/pipeline.yaml").toAbsolutePath();   // the tests run in tests/
        try (Network network = Network.newNetwork();
                KafkaContainer kafka = ContainerImages.onLoopback(new KafkaContainer(ContainerImages.kafka())
                        .withNetwork(network).withNetworkAliases("kafka").withListener("kafka:19092"));
                GenericContainer<?> tributary = new GenericContainer<>(ContainerImages.tributary())) {
            kafka.start();
            ContainerImages.onLoopback(tributary).withNetwork(network)
                    .withEnv("TRIBUTARY_KAFKA_BOOTSTRAP_SERVERS", "kafka:19092")
                    .withCopyFileToContainer(MountableFile.forHostPath(spec), "/etc/tributary/pipeline.yaml")
                    .withFileSystemBind(in.toString(), "/data/in", BindMode.READ_WRITE)
                    .withFileSystemBind(tables.toString(), "/data/tables", BindMode.READ_WRITE)
                    .withExposedPorts(8080)
                    .waitingFor(Wait.forHttp("/health/ready").forStatusCode(200).withStartupTimeout(WAIT))
                    .start();
            assertThat(tributary.execInContainer("id", "-u").getStdout().trim()).as("the image's user").isEqualTo("10001");

            Path tmp = in.resolve(".part-0001.json.tmp");
            Files.writeString(tmp, """
                    {"id": 1, "user": "a", "amt": 5.0, "ts": "2026-01-01T10:01:00Z"}
                    {"id": 2, "user": "b", "amt": 7.0, "ts": "2026-01-01T10:05:00Z"}
                    """);
            Files.move(tmp, in.resolve("part-0001.json"));
            String table = tables.resolve("quickstart").toString();
            try {
                await("the dropped file's 2 rows in " + table).atMost(WAIT).pollInterval(Duration.ofMillis(200))
                        .until(() -> DeltaTables.exists(table) && DeltaTables.readRows(table).size() == 2);
            } catch (ConditionTimeoutException e) {
                throw new AssertionError(e.getMessage() + "; the container's logs:\n" + tributary.getLogs(), e);
            }

            DockerClient docker = tributary.getDockerClient();
            String id = tributary.getContainerId();
            docker.stopContainerCmd(id).withTimeout(60).exec();
            Long exitCode = docker.inspectContainerCmd(id).exec().getState().getExitCodeLong();
            assertThat(exitCode).as("exit code after SIGTERM; logs:\n%s", tributary.getLogs()).isZero();
            assertThat(DeltaTables.readRows(table)).as("the table after the stop").hasSize(2);
        }
    }

    /** A folder the image's user (uid 10001) can write, as a bind mount needs. */
    private static Path writable(Path folder) throws IOException {
        Files.createDirectories(folder);
        return Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxrwxrwx"));
    }
}
