package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.TableCommit;
import io.tributary.testing.Specs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark's "checkpoints give you exactly-once": three runs of the quickstart pipeline, each a
 * new process, and the bad-record modes. The scenarios are written once and run against each
 * kind of Kafka a subclass gives: the embedded broker, an external broker, a Testcontainers one.
 */
@Tag("integration")
@Timeout(300)
abstract class QuickstartScenarios {
    static final String SPEC = Specs.QUICKSTART;

    @TempDir
    Path dir;

    /** The spec's {@code kafka:} section for the Kafka under test; empty for the embedded broker. */
    abstract String kafka();

    Workspace workspace(String spec) {
        return new Workspace(dir, spec + kafka());
    }

    @Test
    void threeRunsPickUpOnlyNewFiles() {
        Workspace ws = workspace(SPEC);
        String table = dir.resolve("out").toString();
        ws.addFile("part-0001.json",
                "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}");

        Workspace.Result run1 = ws.tributary("run").assertOk();
        JsonNode sink1 = single(run1.progress("quickstart/sink"));
        assertThat(sink1.get("batchId").asLong()).isZero();
        assertThat(sink1.get("numInputRows").asLong()).isEqualTo(2);
        assertThat(sink1.at("/sink/metrics/deltaVersion").asLong()).isZero();
        JsonNode ingest1 = single(run1.progress("quickstart/ingest"));
        assertThat(ingest1.get("batchId").asLong()).isZero();
        assertThat(ingest1.get("numInputRows").asLong()).isEqualTo(2);
        assertThat(run1.summary().get("numInputRows").asLong()).isEqualTo(2);
        assertThat(DeltaTables.readRows(table)).hasSize(2);
        assertThat(DeltaTables.latestVersion(table)).isZero();

        Workspace.Result run2 = ws.tributary("run").assertOk();
        JsonNode idle = single(run2.progress("quickstart/sink"));
        assertThat(idle.get("numInputRows").asLong()).as("Spark's run 2: a progress line with 0 rows").isZero();
        assertThat(idle.get("batchId").asLong()).as("the next batch id").isEqualTo(1);
        assertThat(single(run2.progress("quickstart/ingest")).get("numInputRows").asLong()).isZero();
        assertThat(run2.summary().get("numInputRows").asLong()).isZero();
        assertThat(DeltaTables.latestVersion(table)).as("no new Delta version").isZero();

        ws.addFile("part-0002.json", "{\"id\": 3, \"user\": \"c\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:20:00Z\"}");
        Workspace.Result run3 = ws.tributary("run").assertOk();
        JsonNode sink3 = single(run3.progress("quickstart/sink"));
        assertThat(sink3.get("batchId").asLong()).isEqualTo(1);
        assertThat(sink3.get("numInputRows").asLong()).isEqualTo(1);
        assertThat(single(run3.progress("quickstart/ingest")).get("batchId").asLong()).isEqualTo(1);
        assertThat(DeltaTables.latestVersion(table)).isEqualTo(1);

        List<Object[]> rows = DeltaTables.readRows(table);
        assertThat(rows).extracting(r -> r[0]).containsExactlyInAnyOrder(1, 2, 3);
        Object[] first = rows.stream().filter(r -> r[0].equals(1)).findFirst().orElseThrow();
        assertThat(Arrays.asList(first)).containsExactly(1, "a", 5.0, 1767261660000000L);

        String checkpoint = ws.tributary("checkpoint show").assertOk().out();
        assertThat(checkpoint).contains("batch 0  part-0001.json  2 rows").contains("batch 1  part-0002.json  1 rows")
                .contains("version 0  STREAMING UPDATE  batch 0  2 rows").contains("version 1  STREAMING UPDATE  batch 1  1 rows");

        List<TableCommit> history = DeltaTables.history(table);
        assertThat(history).extracting(TableCommit::operation).containsOnly("STREAMING UPDATE");
        assertThat(history).extracting(TableCommit::txnVersion).containsExactly(0L, 1L);
    }

    @Test
    void badRowsGoToTheDeadLetterTopicAndTheRestFlows() {
        Workspace ws = workspace(SPEC);
        ws.addFile("mixed.json",
                "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                "{\"id\": \"two\", \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}",
                "{\"id\": 3, \"user\": \"c\"",
                "{\"id\": 4, \"user\": \"d\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:20:00Z\"}");
        Workspace.Result run = ws.tributary("run").assertOk();
        JsonNode ingest = single(run.progress("quickstart/ingest"));
        assertThat(ingest.get("numInputRows").asLong()).isEqualTo(2);
        assertThat(ingest.at("/sources/0/metrics/numBadRows").asLong()).isEqualTo(2);
        assertThat(DeltaTables.readRows(dir.resolve("out").toString())).extracting(r -> r[0]).containsExactlyInAnyOrder(1, 4);
    }

    @Test
    void failModeStopsAtTheBadLineAndPublishesNothing() {
        Workspace ws = workspace(SPEC.replace("format: json", "format: json\n    onBadRecord: fail"));
        ws.addFile("mixed.json",
                "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                "{\"id\": 2, \"user\": \"b\", \"amt\": \"seven\", \"ts\": \"2026-01-01T10:05:00Z\"}");
        Workspace.Result run = ws.tributary("run");
        assertThat(run.exitCode()).isNotZero();
        assertThat(run.err()).contains("mixed.json:2").contains("amt");
        assertThat(Files.exists(dir.resolve("out/_delta_log"))).isFalse();
    }

    @Test
    void aFailingStageEndsTheContinuousServiceWithItsError() {
        Workspace ws = workspace(SPEC.replace("format: json", "format: json\n    onBadRecord: fail"));
        ws.addFile("mixed.json",
                "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                "{\"id\": 2, \"user\": \"b\", \"amt\": \"seven\", \"ts\": \"2026-01-01T10:05:00Z\"}");
        // the stages run on threads of their own here: the ingest's failure must stop the sink's loop too
        Workspace.Result run = ws.tributary("run", "--trigger", "default", "--set", "http.port=-1");
        assertThat(run.exitCode()).isNotZero();
        assertThat(run.err()).contains("mixed.json:2").contains("amt");
        assertThat(Files.exists(dir.resolve("out/_delta_log"))).isFalse();
    }

    @Test
    void dropModeCountsAndDrops() {
        Workspace ws = workspace(SPEC.replace("format: json", "format: json\n    onBadRecord: drop"));
        ws.addFile("mixed.json",
                "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                "not json at all");
        Workspace.Result run = ws.tributary("run").assertOk();
        assertThat(single(run.progress("quickstart/ingest")).at("/sources/0/metrics/numBadRows").asLong()).isEqualTo(1);
        assertThat(DeltaTables.readRows(dir.resolve("out").toString())).hasSize(1);
    }

    @Test
    void aSpecWithAnUnknownKeyIsRejectedNamingTheKey() {
        Workspace ws = workspace(SPEC.replace("format: json", "format: json\n    maxFilesPerTriger: 1"));
        Workspace.Result run = ws.tributary("run");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("unknown key 'source.files.maxFilesPerTriger'")
                .contains("did you mean 'source.files.maxFilesPerTrigger'");
    }

    static JsonNode single(List<JsonNode> lines) {
        assertThat(lines).hasSize(1);
        return lines.get(0);
    }
}
