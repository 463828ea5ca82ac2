package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.CrashPoint;
import io.tributary.sink.DeltaTables;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The process stopped dead at each moment that matters, then started again: the table ends up
 * with exactly the rows, none missing, none twice.
 */
@Tag("integration")
@Timeout(300)
class CrashPointsTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "killed at {0}")
    @ValueSource(strings = {CrashPoint.INGEST_BEFORE_COMMIT, CrashPoint.SINK_BEFORE_COMMIT, CrashPoint.SINK_AFTER_COMMIT})
    void aRestartAfterACrashLeavesTheSameTable(String point) throws Exception {
        Workspace ws = new Workspace(dir, QuickstartScenarios.SPEC);
        String table = dir.resolve("out").toString();
        ws.addFile("part-0001.json",
                "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}");

        ChildProcess crashed = ChildProcess.start(dir, Map.of(CrashPoint.ENV, point), "run", ws.spec.toString());
        assertThat(crashed.waitFor(120)).as("stderr: %s", crashed.err()).isEqualTo(CrashPoint.EXIT_CODE);
        assertThat(crashed.err()).contains("crash point " + point + " reached");

        ChildProcess restarted = ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
        assertThat(restarted.waitFor(120)).as("stderr: %s", restarted.err()).isZero();
        assertThat(DeltaTables.readRows(table)).extracting(r -> r[0]).containsExactlyInAnyOrder(1, 2);
        assertThat(DeltaTables.latestVersion(table)).as("one Delta version: the replay wrote nothing new").isZero();
        if (point.equals(CrashPoint.SINK_AFTER_COMMIT)) {
            // as Spark with commits/1 deleted and a rerun: the batch is in the table, the replay finds its txn
            assertThat(restarted.out().lines().filter(l -> l.contains("\"name\":\"quickstart/sink\"")))
                    .as("only Spark's idle line for the sink: 0 rows").allMatch(l -> l.contains("\"numInputRows\":0"));
        }
    }

    /**
     * Killed right after the ingest's commit returned, before the transaction coordinator wrote
     * the commit's markers: the restarted embedded broker finishes the transaction (its
     * controller fences the dead run's broker before the broker starts: see the broker module's
     * AfterCrash), the restart finds the file in the ingest log and the table holds each row once.
     * Looped 20 times by bench/crash-after-commit.sh.
     */
    @Test
    void killedRightAfterTheIngestCommitNeverDuplicates() throws Exception {
        Workspace ws = new Workspace(dir, QuickstartScenarios.SPEC);
        String table = dir.resolve("out").toString();
        ws.addFile("part-0001.json",
                "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}");
        ChildProcess crashed = ChildProcess.start(dir, Map.of(CrashPoint.ENV, CrashPoint.INGEST_AFTER_COMMIT), "run", ws.spec.toString());
        assertThat(crashed.waitFor(120)).as("stderr: %s", crashed.err()).isEqualTo(CrashPoint.EXIT_CODE);

        ChildProcess restarted = ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
        assertThat(restarted.waitFor(120)).as("stderr: %s", restarted.err()).isZero();
        assertThat(restarted.err()).contains("1 files already ingested, next batch 1");
        assertThat(DeltaTables.readRows(table)).extracting(r -> r[0]).containsExactlyInAnyOrder(1, 2);
        assertThat(DeltaTables.latestVersion(table)).isZero();
    }

    /**
     * cleanSource archive, killed after the ingest committed and before the file was moved: the
     * restart does not publish the file again (the ingest log has it) and archives it.
     */
    @Test
    void killedBeforeCleaningTheRestartArchivesWithoutPublishingAgain() throws Exception {
        Workspace ws = new Workspace(dir, QuickstartScenarios.SPEC.replace("    schema:",
                "    cleanSource: archive\n    sourceArchiveDir: archive/\n    schema:"));
        String table = dir.resolve("out").toString();
        ws.addFile("part-0001.json",
                "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}");
        ChildProcess crashed = ChildProcess.start(dir, Map.of(CrashPoint.ENV, CrashPoint.INGEST_BEFORE_CLEAN), "run", ws.spec.toString());
        assertThat(crashed.waitFor(120)).as("stderr: %s", crashed.err()).isEqualTo(CrashPoint.EXIT_CODE);
        assertThat(dir.resolve("in/part-0001.json")).as("not archived before the crash point").exists();
        assertThat(ws.tributary("checkpoint show").assertOk().out())
                .contains("cleanSource archive: 0 of 1 ingested files archived, 1 still in the input folder (the next start cleans them)");

        ChildProcess restarted = ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
        assertThat(restarted.waitFor(120)).as("stderr: %s", restarted.err()).isZero();
        assertThat(restarted.out()).as("the restart's progress line counts the file it archived")
                .contains("\"numFilesArchived\":1");
        assertThat(ws.tributary("checkpoint show").assertOk().out()).contains("cleanSource archive: 1 of 1 ingested files archived\n");
        assertThat(dir.resolve("in/part-0001.json")).doesNotExist();
        assertThat(dir.resolve("archive/part-0001.json")).exists();
        assertThat(DeltaTables.readRows(table)).extracting(r -> r[0]).containsExactlyInAnyOrder(1, 2);
        assertThat(DeltaTables.latestVersion(table)).isZero();
    }
}
