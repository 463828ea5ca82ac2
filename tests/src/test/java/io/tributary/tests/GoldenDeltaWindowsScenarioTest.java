package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.schema.CrashPoint;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Spark's windows over a Delta source (golden/delta-windows), as a chain: a bronze pipeline
 * writes each of the case's commit files into its Delta table as one commit (file ingest to
 * Delta), and a gold pipeline reads that table as a stream ({@code source.delta}, from version 0,
 * one commit per batch) into a windowed aggregate with a watermark. After each run the gold table
 * must hold exactly the rows Spark's held after the same commits and batch boundaries.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(600)
class GoldenDeltaWindowsScenarioTest {
    static final String BRONZE = """
            name: bronze
            source:
              files:
                path: in/
                format: json
                schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
            sink:
              delta:
                path: out/
            topic:
              partitions: 1
            trigger: availableNow
            """;
    static final String GOLD = """
            name: gold
            source:
              delta:
                path: ../bronze/out/
                startingVersion: 0
                maxFilesPerTrigger: 1
            aggregate:
              eventTime: ts
              watermark: 5 minutes
              window: 10 minutes
              groupBy: [user]
              select: { t: sum(amt) }
            outputMode: MODE
            sink:
              delta:
                path: agg/
            topic:
              partitions: 3
            trigger: availableNow
            """;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"append", "update"})
    void eachRunLeavesSparksTable(String goldenCase) throws IOException {
        JsonNode spec = new ObjectMapper().readTree(golden(goldenCase + "/case.json"));
        Workspace bronze = new Workspace(dir.resolve("bronze"), BRONZE);
        Workspace gold = new Workspace(dir.resolve("gold"), GOLD.replace("MODE", spec.get("outputMode").asText()));
        int run = 0;
        for (JsonNode files : spec.get("runs")) {
            run++;
            for (JsonNode f : files) {
                bronze.addFile(f.asText(), golden(goldenCase + "/" + f.asText()).strip().split("\n"));
                bronze.tributary("run").assertOk(); // one commit of the source table per file
            }
            gold.tributary("run").assertOk();
            List<String> expected = Golden.windowRows("delta-windows/" + goldenCase + "/after-run" + run + ".txt");
            assertThat(GoldenWindowsScenarioTest.table(dir.resolve("gold/agg").toString()))
                    .as("%s after run %d", goldenCase, run)
                    .containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    /**
     * The gold run killed at the Delta source's first commit (before it, or right after it), then
     * run again: the restart goes on from the stored batch and watermark, and the table after each
     * run is still Spark's.
     */
    @ParameterizedTest(name = "killed at {0}")
    @ValueSource(strings = {CrashPoint.DELTA_SOURCE_BEFORE_COMMIT, CrashPoint.DELTA_SOURCE_AFTER_COMMIT})
    void aGoldRunKilledAtTheSourcesCommitLeavesSparksTableAfterTheRestart(String point) throws Exception {
        String goldenCase = "append";
        JsonNode spec = new ObjectMapper().readTree(golden(goldenCase + "/case.json"));
        Workspace bronze = new Workspace(dir.resolve("bronze"), BRONZE);
        Workspace gold = new Workspace(dir.resolve("gold"), GOLD.replace("MODE", spec.get("outputMode").asText()));
        int run = 0;
        for (JsonNode files : spec.get("runs")) {
            run++;
            for (JsonNode f : files) {
                bronze.addFile(f.asText(), golden(goldenCase + "/" + f.asText()).strip().split("\n"));
                bronze.tributary("run").assertOk();
            }
            if (run == 1) {
                ChildProcess crashed = ChildProcess.start(dir.resolve("gold"), Map.of(CrashPoint.ENV, point), "run", gold.spec.toString());
                assertThat(crashed.waitFor(120)).as("stderr: %s", crashed.err()).isEqualTo(CrashPoint.EXIT_CODE);
                assertThat(crashed.err()).contains("crash point " + point + " reached");
                ChildProcess restarted = ChildProcess.start(dir.resolve("gold"), Map.of(), "run", gold.spec.toString());
                assertThat(restarted.waitFor(120)).as("stderr: %s", restarted.err()).isZero();
            } else {
                gold.tributary("run").assertOk();
            }
            List<String> expected = Golden.windowRows("delta-windows/" + goldenCase + "/after-run" + run + ".txt");
            assertThat(GoldenWindowsScenarioTest.table(dir.resolve("gold/agg").toString()))
                    .as("%s after run %d", goldenCase, run)
                    .containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    static String golden(String resource) throws IOException {
        return Golden.read("delta-windows/" + resource);
    }
}
