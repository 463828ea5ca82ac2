package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.sink.DeltaTables;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The quickstart scenarios on the embedded broker, whose data lies in the pipeline's state folder. */
class QuickstartEmbeddedTest extends QuickstartScenarios {
    @Override
    String kafka() {
        return "";
    }

    @Test
    void lostStateIsRefusedNotDuplicated() throws Exception {
        Workspace ws = workspace(SPEC);
        String table = dir.resolve("out").toString();
        ws.addFile("part-0001.json",
                "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}");
        ws.tributary("run").assertOk();
        ws.addFile("part-0002.json", "{\"id\": 3, \"user\": \"c\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:20:00Z\"}");
        ws.tributary("run").assertOk();

        SeedWindowsScenarioTest.deleteTree(dir.resolve(".tributary")); // as deleting Spark's checkpoint folder
        Workspace.Result refused = ws.tributary("run");
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.err()).contains("state was lost").contains("a second time").contains("--reprocess");
        assertThat(DeltaTables.readRows(table)).as("nothing written twice").hasSize(3);

        ws.tributary("run", "--reprocess").assertOk();
        List<Object[]> rows = DeltaTables.readRows(table);
        assertThat(rows).as("what Spark does without its checkpoint: every row again").hasSize(6);
        assertThat(rows.stream().collect(java.util.stream.Collectors.groupingBy(r -> r[0], java.util.stream.Collectors.counting())))
                .containsExactlyInAnyOrderEntriesOf(java.util.Map.of(1, 2L, 2, 2L, 3, 2L));
    }}
