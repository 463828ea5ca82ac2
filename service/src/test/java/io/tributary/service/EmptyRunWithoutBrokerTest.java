package io.tributary.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.service.internal.Pipeline;
import io.tributary.service.internal.RunOptions;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import io.tributary.testing.InputFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * An availableNow run of a file pipeline that finds what its last clean run left (the same input
 * files, settings and table) prints what an empty run prints without starting the broker; any doubt
 * (a new or changed file, another setting, a table another writer moved, a run that started the
 * broker and did not end cleanly, an aggregation) takes the normal path. A first run over an empty
 * folder, with nothing in the state folder yet, has nothing to write and starts no broker either.
 */
@Tag("integration")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class EmptyRunWithoutBrokerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path spec(String extra) throws IOException {
        Files.createDirectories(dir.resolve("in"));
        Path spec = dir.resolve("pipeline.yaml");
        Files.writeString(spec, """
                name: p
                source:
                  files:
                    path: in/
                    schema: "id INT, user STRING"
                sink:
                  delta:
                    path: out/
                state: state/
                trigger: availableNow
                """ + extra);
        return spec;
    }

    private static CliRun tributary(String... args) {
        CliRun run = CliRun.of(args);
        assertThat(run.code()).as("exit code; stderr:\n%s", run.err()).isZero();
        return run;
    }

    /** Every file and folder under the embedded broker's log folder, with its size and last modification. */
    private Map<String, String> brokerFiles() throws IOException {
        Path broker = dir.resolve("state/kafka");
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(broker)) {
            for (Path p : walk.toList()) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                files.put(broker.relativize(p).toString(), a.size() + " " + a.lastModifiedTime().toInstant());
            }
        }
        return files;
    }

    private List<Integer> ids() {
        return DeltaTables.readRows(dir.resolve("out").toString()).stream().map(r -> (Integer) r[0]).sorted().toList();
    }

    private long version() {
        return DeltaTables.latestVersion(dir.resolve("out").toString());
    }

    private Path record() {
        return dir.resolve("state/last-clean-run.json");
    }

    /** The run's stdout lines without what differs from run to run: run ids, times, durations. */
    private static List<JsonNode> comparable(CliRun run) throws IOException {
        List<JsonNode> out = new java.util.ArrayList<>();
        for (String line : run.lines()) {
            ObjectNode node = (ObjectNode) JSON.readTree(line);
            node.remove(List.of("runId", "timestamp", "durationMs"));
            if (node.get("summary") instanceof ObjectNode summary) {
                summary.remove("durationMs");
            }
            out.add(node);
        }
        return out;
    }

    @Test
    void aRunWithNothingNewPrintsWhatAnEmptyRunPrintsAndLeavesTheBrokerAndTableAlone() throws Exception {
        Path spec = spec("");
        InputFiles.place(dir.resolve("in"), "a.json", "{\"id\":1,\"user\":\"ann\"}", "{\"id\":2,\"user\":\"bob\"}");
        tributary("run", spec.toString());
        assertThat(ids()).containsExactly(1, 2);
        assertThat(record()).exists();
        Map<String, String> broker = brokerFiles();
        long version = version();

        CliRun noOp = tributary("run", spec.toString());
        assertThat(brokerFiles()).as("the broker's folder, untouched").isEqualTo(broker);
        assertThat(version()).isEqualTo(version);
        assertThat(ids()).containsExactly(1, 2);
        assertThat(noOp.lines()).hasSize(3); // the ingest's and the sink's progress, then the summary
        assertThat(JSON.readTree(noOp.lines().get(0)).path("name").asText()).isEqualTo("p/ingest");
        assertThat(JSON.readTree(noOp.lines().get(0)).path("numInputRows").asLong()).isZero();
        assertThat(JSON.readTree(noOp.lines().get(2)).path("summary").path("numInputRows").asLong()).isZero();

        Files.delete(record()); // the same run the normal way, with the broker
        CliRun normal = tributary("run", spec.toString());
        assertThat(brokerFiles()).as("a normal run starts the broker").isNotEqualTo(broker);
        assertThat(comparable(noOp)).isEqualTo(comparable(normal));
        assertThat(version()).isEqualTo(version);
        assertThat(ids()).containsExactly(1, 2);
    }

    @Test
    void aFirstRunOverAnEmptyFolderStartsNoBrokerLeavesNoTableAndPrintsWhatTheBrokerRunPrints() throws Exception {
        Path spec = spec("");
        CliRun first = tributary("run", spec.toString());
        assertThat(dir.resolve("state/kafka")).as("no broker started").doesNotExist();
        assertThat(dir.resolve("out")).as("no table: Spark's run that finds no file leaves none").doesNotExist();
        try (Stream<Path> state = Files.list(dir.resolve("state"))) {
            assertThat(state.map(p -> p.getFileName().toString())).containsExactly("tributary.lock");
        }
        assertThat(first.lines()).hasSize(3); // the ingest's and the sink's progress, then the summary
        assertThat(JSON.readTree(first.lines().get(1)).path("batchId").asLong()).isZero();
        CliRun shown = tributary("checkpoint", "show", spec.toString()); // nothing to read: answers without starting a broker
        assertThat(shown.out()).contains("(no embedded broker yet: no run has ingested anything)").contains("  no table yet");
        assertThat(dir.resolve("state/kafka")).as("checkpoint show starts no broker either").doesNotExist();

        Files.writeString(dir.resolve("state/other"), "x"); // the state folder holds something: the normal path
        CliRun normal = tributary("run", spec.toString());
        assertThat(dir.resolve("state/kafka")).as("a normal run starts the broker").isDirectory();
        assertThat(dir.resolve("out")).doesNotExist();
        assertThat(comparable(first)).isEqualTo(comparable(normal));

        InputFiles.place(dir.resolve("in"), "a.json", "{\"id\":1,\"user\":\"ann\"}");
        tributary("run", spec.toString());
        assertThat(ids()).containsExactly(1);
    }

    @Test
    void aFirstRunOverAnEmptyFolderRefusesWhatOpeningTheSinkRefuses() throws Exception {
        Path spec = spec("");
        Files.writeString(spec, Files.readString(spec).replace("    path: out/", "    path: out/\n    partitionBy: [nope]"));
        CommandLine cl = Main.commandLine();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err));
        assertThat(cl.execute("run", spec.toString())).isEqualTo(1);
        assertThat(err.toString()).contains("nope");
        assertThat(dir.resolve("state/kafka")).doesNotExist();
    }

    @Test
    void aNewFileAChangedFileOrAnotherSettingTakesTheNormalPath() throws Exception {
        Path spec = spec("");
        Path in = dir.resolve("in");
        InputFiles.place(in, "a.json", "{\"id\":1,\"user\":\"ann\"}");
        tributary("run", spec.toString());

        InputFiles.place(in, "b.json", "{\"id\":2,\"user\":\"bob\"}");
        Map<String, String> broker = brokerFiles();
        CliRun added = tributary("run", spec.toString());
        assertThat(brokerFiles()).isNotEqualTo(broker);
        assertThat(JSON.readTree(added.lines().get(added.lines().size() - 1)).path("summary").path("numInputRows").asLong()).isEqualTo(1);
        assertThat(ids()).containsExactly(1, 2);

        Files.writeString(spec, Files.readString(spec).replace("    schema:", "    maxFilesPerTrigger: 5\n    schema:"));
        broker = brokerFiles();
        tributary("run", spec.toString());
        assertThat(brokerFiles()).as("another setting: the normal path").isNotEqualTo(broker);
        assertThat(record()).exists();

        // an ingested file written again under its name: Spark reads a file once, and the run says so
        Files.writeString(in.resolve("a.json"), "{\"id\":1,\"user\":\"ann\"}\n{\"id\":3,\"user\":\"cy\"}\n");
        InputFiles.settled(in.resolve("a.json"));
        broker = brokerFiles();
        CliRun changed = tributary("run", spec.toString());
        assertThat(brokerFiles()).isNotEqualTo(broker);
        assertThat(JSON.readTree(changed.lines().get(changed.lines().size() - 1)).path("summary").path("numFilesChangedAfterIngest")
                .asInt()).isEqualTo(1);
        assertThat(record()).as("a run that left a file unread records nothing").doesNotExist();
        assertThat(ids()).containsExactly(1, 2);
    }

    @Test
    void aTableAnotherWriterMovedOrABrokerStartedSinceTakesTheNormalPath() throws Exception {
        Path spec = spec("");
        Path in = dir.resolve("in");
        InputFiles.place(in, "a.json", "{\"id\":1,\"user\":\"ann\"}");
        tributary("run", spec.toString());
        InputFiles.place(in, "b.json", "{\"id\":2,\"user\":\"bob\"}");
        tributary("run", spec.toString());
        long version = version();

        tributary("optimize", dir.resolve("out").toString()); // another writer: two small files become one
        assertThat(version()).isGreaterThan(version);
        Map<String, String> broker = brokerFiles();
        tributary("run", spec.toString());
        assertThat(brokerFiles()).as("the table moved: the normal path").isNotEqualTo(broker);
        assertThat(ids()).containsExactly(1, 2);
        assertThat(record()).exists();

        // a run that starts the broker and never reaches its clean end (as one killed) leaves no record behind
        PipelineSpec loaded = PipelineSpec.load(spec, Map.of(), Map.of());
        try (Pipeline started = Pipeline.open(loaded, RunOptions.DEFAULT)) {
            assertThat(record()).doesNotExist();
        }
        broker = brokerFiles();
        tributary("run", spec.toString());
        assertThat(brokerFiles()).isNotEqualTo(broker);
        assertThat(ids()).containsExactly(1, 2);
    }

    @Test
    void anAggregationAlwaysRunsTheNormalWay() throws Exception {
        Path spec = spec("""
                aggregate:
                  eventTime: ts
                  watermark: 5 minutes
                  window: 10 minutes
                  groupBy: user
                  select:
                    n: count(*)
                """);
        Files.writeString(spec, Files.readString(spec).replace("id INT, user STRING", "id INT, user STRING, ts TIMESTAMP"));
        InputFiles.place(dir.resolve("in"), "a.json", "{\"id\":1,\"user\":\"ann\",\"ts\":\"2026-01-01T00:00:00Z\"}");
        tributary("run", spec.toString());
        assertThat(record()).as("open windows: nothing recorded").doesNotExist();
    }
}
