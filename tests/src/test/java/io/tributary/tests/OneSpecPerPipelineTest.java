package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.sink.DeltaTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The instances of a pipeline on a Kafka cluster run one spec: a {@code tributary run} process
 * whose settings would split or mix the output of the instances that run is refused at start,
 * in one line naming the settings and the instances, and so is a bounded run beside them; the
 * running instance goes on, and its table stays exact. One broker process for the class; each
 * test's pipeline has a name of its own.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(600)
class OneSpecPerPipelineTest {
    static final Duration JOIN = Duration.ofMinutes(2);
    static final Duration DRAIN = Duration.ofMinutes(3);
    static final long EXIT_SECONDS = 120;

    @TempDir
    static Path brokerDir;
    static StandaloneBroker broker;

    @TempDir
    Path dir;

    int nextId;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = StandaloneBroker.start(brokerDir.resolve("broker"));
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    static String spec(String name, String body, boolean onTheCluster) {
        return "name: " + name + "\n" + """
                source:
                  files:
                    path: in/
                    format: json
                    schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
                    maxFilesPerTrigger: 2
                topic:
                  partitions: 2
                """ + body + (onTheCluster ? "kafka:\n  bootstrap.servers: \"" + broker.bootstrapServers() + "\"\n" : "");
    }

    static final String RAW = "sink:\n  delta:\n    path: table-a/\n";
    static final String WINDOWED = """
            aggregate:
              eventTime: ts
              watermark: 5 minutes
              window: 10 minutes
              groupBy: [user]
              select: { t: sum(amt) }
            outputMode: update
            sink:
              delta:
                path: table-a/
            """;

    @Test
    void anInstanceWithAnotherTablePathIsRefusedAndTheTableGetsEveryRow() throws Exception {
        Workspace ws = new Workspace(dir, spec("split", RAW, true));
        try (PipelineInstances instances = new PipelineInstances(dir, ws, "split", broker.bootstrapServers())) {
            instances.start("a");
            instances.awaitJoined("a", JOIN);
            ChildProcess c = instances.start("c", ws.spec, "--set", "sink.delta.path=table-c/");
            assertThat(instances.awaitExit("c", EXIT_SECONDS)).as("c's exit code; its stderr:\n%s", c.err()).isEqualTo(1);
            assertThat(errorLine(c, "differs")).contains("pipeline split: the spec of instance c differs from the one its running "
                    + "instance(s) a share, in sink.delta.path ('" + dir.resolve("table-a") + "' there, '" + dir.resolve("table-c")
                    + "' here)").contains("stop every instance first");

            List<Integer> ids = addFiles(ws, 4);
            instances.awaitDrained(table(), false, DRAIN);
            instances.stopAll();
            assertThat(tableIds()).containsExactlyInAnyOrderElementsOf(ids);
            assertThat(Files.exists(dir.resolve("table-c"))).as("table-c/ was written").isFalse();
        }
    }

    @Test
    void anInstanceWithAnotherWindowIsRefused() throws Exception {
        Workspace ws = new Workspace(dir, spec("windows", WINDOWED, true));
        try (PipelineInstances instances = new PipelineInstances(dir, ws, "windows", broker.bootstrapServers())) {
            instances.start("a");
            instances.awaitJoined("a", JOIN);
            ChildProcess c = instances.start("c", ws.spec, "--set", "aggregate.window=5 minutes");
            assertThat(instances.awaitExit("c", EXIT_SECONDS)).as("c's exit code; its stderr:\n%s", c.err()).isEqualTo(1);
            assertThat(errorLine(c, "differs")).contains("the spec of instance c differs from the one its running instance(s) a share, "
                    + "in aggregate.window ('10 minutes' there, '5 minutes' here)");
            instances.assertAlive();
            assertThat(instances.owners("sink")).containsOnlyKeys("a").allSatisfy((i, p) -> assertThat(p).containsExactly(0, 1));
            instances.stopAll();
        }
    }

    @Test
    void aLateJoinerWithAnotherTablePathIsToldWhatDiffersNotToDeleteTheTopics() throws Exception {
        Workspace ws = new Workspace(dir, spec("late", RAW, true));
        try (PipelineInstances instances = new PipelineInstances(dir, ws, "late", broker.bootstrapServers())) {
            instances.start("a");
            List<Integer> ids = addFiles(ws, 4);
            instances.awaitDrained(table(), false, DRAIN); // committed, so the events topic is trimmed
            ChildProcess c = instances.start("c", ws.spec, "--set", "sink.delta.path=table-c/");
            assertThat(instances.awaitExit("c", EXIT_SECONDS)).as("c's exit code; its stderr:\n%s", c.err()).isEqualTo(1);
            assertThat(errorLine(c, "differs")).contains("in sink.delta.path (").contains("running instance(s) a share");
            assertThat(c.err()).doesNotContain("consumer groups").doesNotContain("were deleted after");
            instances.stopAll();
            assertThat(tableIds()).containsExactlyInAnyOrderElementsOf(ids);
        }
    }

    @Test
    void aBoundedRunBesideRunningInstancesIsRefusedAndTheyGoOn() throws Exception {
        Workspace ws = new Workspace(dir, spec("bounded", RAW, true));
        try (PipelineInstances instances = new PipelineInstances(dir, ws, "bounded", broker.bootstrapServers())) {
            instances.start("a");
            List<Integer> ids = addFiles(ws, 2);
            instances.awaitDrained(table(), false, DRAIN);
            ChildProcess once = instances.start("hourly", ws.spec, "--trigger", "availableNow");
            assertThat(instances.awaitExit("hourly", EXIT_SECONDS)).as("the bounded run's exit code; its stderr:\n%s", once.err())
                    .isEqualTo(1);
            assertThat(errorLine(once, "a bounded run (trigger")).contains("pipeline bounded: a bounded run (trigger availableNow) takes the "
                    + "whole pipeline, but its instance(s) a run on the Kafka cluster at " + broker.bootstrapServers());
            assertThat(once.err()).doesNotContain("retention");

            ids.addAll(addFiles(ws, 2));
            instances.awaitDrained(table(), false, DRAIN);
            assertThat(instances.activeIngest()).as("the instance that runs the source").isEqualTo("a");
            instances.stopAll();
            assertThat(tableIds()).containsExactlyInAnyOrderElementsOf(ids);
        }
    }

    @Test
    void anEmbeddedBrokerInstanceIsToldTheOthersUseTheCluster() throws Exception {
        Workspace ws = new Workspace(dir, spec("embedded", RAW, true));
        Path alone = Files.writeString(dir.resolve("alone.yaml"), spec("embedded", RAW, false));
        try (PipelineInstances instances = new PipelineInstances(dir, ws, "embedded", broker.bootstrapServers())) {
            instances.start("a");
            List<Integer> ids = addFiles(ws, 2);
            instances.awaitDrained(table(), false, DRAIN);
            ChildProcess e = instances.start("e", alone);
            assertThat(instances.awaitExit("e", EXIT_SECONDS)).as("e's exit code; its stderr:\n%s", e.err()).isEqualTo(1);
            assertThat(errorLine(e, "is written by the instances")).contains("on the Kafka cluster at " + broker.bootstrapServers())
                    .contains("this process is not on the cluster its other instances use")
                    .contains("Start it with kafka.bootstrap.servers: " + broker.bootstrapServers());
            assertThat(e.err()).doesNotContain("--reprocess").doesNotContain("state was lost");
            instances.stopAll();
            assertThat(tableIds()).containsExactlyInAnyOrderElementsOf(ids);
        }
    }

    /** Each instance stopped (SIGTERM) and started again with the same spec while the other works: exact, never refused. */
    @Test
    void aRollingRestartWithTheSameSpecGoesOnWithoutAPause() throws Exception {
        Workspace ws = new Workspace(dir, spec("rolling", RAW, true));
        List<Integer> ids = new ArrayList<>();
        try (PipelineInstances instances = new PipelineInstances(dir, ws, "rolling", broker.bootstrapServers())) {
            instances.start("a");
            instances.start("b");
            ids.addAll(addFiles(ws, 2));
            instances.awaitDrained(table(), false, DRAIN);
            for (String id : List.of("a", "b")) {
                instances.stopAndCheck(id);
                ids.addAll(addFiles(ws, 2));
                instances.awaitDrained(table(), false, DRAIN); // the other instance took the work on alone
                assertThat(tableIds()).containsExactlyInAnyOrderElementsOf(ids);
                instances.start(id);
                instances.awaitJoined(id, JOIN);
            }
            ids.addAll(addFiles(ws, 2));
            instances.awaitDrained(table(), false, DRAIN);
            instances.stopAll();
        }
        assertThat(tableIds()).containsExactlyInAnyOrderElementsOf(ids);
    }

    /** A change of the pipeline's logic: refused while stopped without --accept-spec-change; with it, the new spec is the pipeline's. */
    @Test
    void aChangedSpecRunsOnlyWithAcceptSpecChangeAndThenBindsTheOthers() throws Exception {
        Workspace ws = new Workspace(dir, spec("changed", RAW, true));
        try (PipelineInstances instances = new PipelineInstances(dir, ws, "changed", broker.bootstrapServers())) {
            instances.start("a");
            instances.awaitJoined("a", JOIN);
            instances.stopAndCheck("a");

            ChildProcess refused = instances.start("a", ws.spec, "--set", "source.files.maxFilesPerTrigger=5");
            assertThat(instances.awaitExit("a", EXIT_SECONDS)).as("a's exit code; its stderr:\n%s", refused.err()).isEqualTo(1);
            assertThat(errorLine(refused, "differs")).contains("pipeline changed: the spec differs from the one its instances last ran "
                    + "with (recorded in topic tributary.changed.spec by instance a), in source.files.maxFilesPerTrigger ('2' there, "
                    + "'5' here)").contains("--accept-spec-change");

            instances.start("a", ws.spec, "--set", "source.files.maxFilesPerTrigger=5", "--accept-spec-change");
            instances.awaitJoined("a", JOIN);
            ChildProcess old = instances.start("b");
            assertThat(instances.awaitExit("b", EXIT_SECONDS)).as("b's exit code; its stderr:\n%s", old.err()).isEqualTo(1);
            assertThat(errorLine(old, "differs")).contains("running instance(s) a share, in source.files.maxFilesPerTrigger ('5' there, "
                    + "'2' here)");
            List<Integer> ids = addFiles(ws, 2);
            instances.awaitDrained(table(), false, DRAIN);
            instances.stopAll();
            assertThat(tableIds()).containsExactlyInAnyOrderElementsOf(ids);
        }
    }

    /** The process's one-line error ({@code tributary: error: ...} on stderr), which holds {@code marker}. */
    static String errorLine(ChildProcess p, String marker) throws Exception {
        String err = p.err();
        return err.lines().filter(l -> l.startsWith("tributary: error: ") && l.contains(marker)).findFirst()
                .orElseThrow(() -> new AssertionError("no line with '" + marker + "' in:\n" + err));
    }

    String table() {
        return dir.resolve("table-a").toString();
    }

    List<Integer> tableIds() {
        List<Integer> out = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(table())) {
            out.add((Integer) r[0]);
        }
        return out;
    }

    /** {@code n} files of 10 rows, ids counting on; their ids. */
    List<Integer> addFiles(Workspace ws, int n) {
        List<Integer> ids = new ArrayList<>();
        for (int f = 0; f < n; f++) {
            List<String> lines = new ArrayList<>();
            for (int r = 0; r < 10; r++) {
                int id = nextId++;
                ids.add(id);
                lines.add("{\"id\": " + id + ", \"user\": \"u" + (id % 3) + "\", \"amt\": " + id + ", \"ts\": \"2026-01-01T10:"
                        + String.format("%02d", id % 60) + ":00Z\"}");
            }
            ws.addFile(String.format("f-%05d.json", nextId), lines.toArray(String[]::new));
        }
        return ids;
    }
}
