package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.EmbeddedBroker;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stream-static joins over three availableNow runs on a real broker, the Delta table gaining a version before each run
 * (a key twice, a null key, a key that arrives after the rows that wanted it), against Spark 4.2's tables after every run
 * (golden/joins/runs, recorded by compat/spark's SparkJoinRuns): inner, left, left with {@code <=>}, left_semi and
 * left_anti, with the table's columns {@code user} and {@code id} named like the rows'. Spark's queries qualify the rows'
 * columns by the stream's alias {@code s}; here the bare name is the row's, so {@code s.} is left out.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class JoinRunsPipelineTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    private EmbeddedBroker broker;

    @BeforeEach
    void startBroker() throws Exception {
        broker = EmbeddedBroker.start(dir.resolve("kafka"));
    }

    @AfterEach
    void stopBroker() {
        broker.close();
    }

    @Test
    void eachRunJoinsTheTablesVersionOfThatRunAsSpark() throws Exception {
        JsonNode c = JSON.readTree(StatefulRunsPipelineTest.golden("joins/runs/case.json"));
        Path dims = pipeline("dims", """
                name: dims
                source:
                  files:
                    path: in/
                    schema: "%s"
                sink:
                  delta:
                    path: table/
                trigger: availableNow
                """.formatted(c.get("tableSchema").asText()));
        List<Path> queries = new ArrayList<>();
        for (JsonNode q : c.get("cases")) {
            List<String> items = new ArrayList<>();
            q.get("select").forEach(i -> items.add("\"" + bare(i.asText()) + "\""));
            queries.add(pipeline(q.get("name").asText(), """
                    name: %s
                    source:
                      files:
                        path: in/
                        schema: "%s"
                    transform:
                      join: { table: ../dims/table, as: u, on: "%s", type: %s }
                      select: [%s]
                    topic:
                      partitions: 3
                    sink:
                      delta:
                        path: out/
                    trigger: availableNow
                    """.formatted(q.get("name").asText().replace("-", ""), c.get("schema").asText(), bare(q.get("on").asText()),
                    q.get("type").asText(), String.join(", ", items))));
        }
        int run = 0;
        for (JsonNode files : c.get("runs")) {
            run++;
            place(dims, files.get(0).asText(), run);
            runOnce(dims);
            List<String> tables = new ArrayList<>();
            for (int i = 0; i < queries.size(); i++) {
                place(queries.get(i), files.get(1).asText(), run);
                runOnce(queries.get(i));
                String name = c.get("cases").get(i).get("name").asText();
                String out = queries.get(i).resolve("out").toString();
                if (DeltaTables.exists(out)) {
                    for (Object[] r : DeltaTables.readRows(out)) {
                        StringBuilder s = new StringBuilder(name);
                        for (Object v : r) {
                            s.append('|').append(v);
                        }
                        tables.add(s.toString());
                    }
                }
            }
            assertThat(tables).as("after run %d", run).containsExactlyInAnyOrderElementsOf(
                    StatefulRunsPipelineTest.goldenRows("joins/runs/after-run" + run + ".txt"));
        }
    }

    /** Spark's expression with the stream's alias left out: the bare name is the row's column here. */
    private static String bare(String sparkExpression) {
        return sparkExpression.replace("s.", "");
    }

    private Path pipeline(String name, String spec) throws Exception {
        Path folder = Files.createDirectories(dir.resolve(name));
        Files.createDirectories(folder.resolve("in"));
        Files.writeString(folder.resolve("pipeline.yaml"), spec + "kafka:\n  bootstrap.servers: " + broker.bootstrapServers() + "\n");
        return folder;
    }

    private static void place(Path pipeline, String file, int run) throws Exception {
        Path p = Files.writeString(pipeline.resolve("in").resolve(file), StatefulRunsPipelineTest.golden("joins/runs/" + file));
        p.toFile().setLastModified(1_000_000_000_000L + run * 1000L);
    }

    private static void runOnce(Path pipeline) throws Exception {
        PipelineSpec spec = PipelineSpec.load(pipeline.resolve("pipeline.yaml"), Map.of(), Map.of());
        try (Pipeline p = Pipeline.open(spec, RunOptions.DEFAULT)) {
            p.run(spec.trigger(), progress -> { });
        }
    }
}
