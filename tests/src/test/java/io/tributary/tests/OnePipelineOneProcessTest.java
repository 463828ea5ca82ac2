package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.sink.DeltaTables;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Spark's "never share one checkpoint between two queries": a second process on the same state is refused. */
@Tag("integration")
@Timeout(300)
class OnePipelineOneProcessTest {
    @TempDir
    Path dir;

    @Test
    void aSecondProcessOnTheSameStateIsRefusedBeforeItTouchesAnything() throws Exception {
        Workspace ws = new Workspace(dir, QuickstartScenarios.SPEC.replace("trigger: availableNow", "trigger: { processingTime: 1 second }"));
        ws.addFile("part-0001.json", "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}");
        ChildProcess service = ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
        try {
            await("the first process's table").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                    .until(() -> DeltaTables.exists(dir.resolve("out").toString()));
            Workspace.Result second = ws.tributary("run", "--trigger", "availableNow");
            assertThat(second.exitCode()).isEqualTo(1);
            assertThat(second.err()).contains("already running on state folder").contains("stop the other one first")
                    .as("names the running process and its endpoints").contains("(pid " + service.pid() + ", http://127.0.0.1:");
            Workspace.Result secondService = ws.tributary("run");
            assertThat(secondService.err()).as("a second service is told of the lock before it binds its HTTP port")
                    .contains("already running on state folder").doesNotContain("cannot serve HTTP");
            Workspace.Result show = ws.tributary("checkpoint show");
            assertThat(show.exitCode()).as("checkpoint show must not start a second broker on the folder").isEqualTo(1);

            ws.addFile("part-0002.json", "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}");
            await("the first process goes on").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                    .untilAsserted(() -> assertThat(DeltaTables.readRows(dir.resolve("out").toString())).hasSize(2));
        } finally {
            service.kill();
        }
    }
}
