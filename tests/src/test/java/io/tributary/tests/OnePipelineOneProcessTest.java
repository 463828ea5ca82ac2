package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.sink.DeltaTables;
import java.nio.file.Path;
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
            long deadline = System.currentTimeMillis() + 120_000;
            while (!DeltaTables.exists(dir.resolve("out").toString()) && System.currentTimeMillis() < deadline) {
                Thread.sleep(200);
            }
            Workspace.Result second = ws.tributary("run", "--trigger", "availableNow");
            assertThat(second.exitCode()).isEqualTo(1);
            assertThat(second.err()).contains("already running on state folder").contains("stop the other one first");
            Workspace.Result show = ws.tributary("checkpoint show");
            assertThat(show.exitCode()).as("checkpoint show must not start a second broker on the folder").isEqualTo(1);

            ws.addFile("part-0002.json", "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}");
            while (DeltaTables.readRows(dir.resolve("out").toString()).size() < 2 && System.currentTimeMillis() < deadline) {
                Thread.sleep(200);
            }
            assertThat(DeltaTables.readRows(dir.resolve("out").toString())).as("the first process went on").hasSize(2);
        } finally {
            service.kill();
        }
    }
}
