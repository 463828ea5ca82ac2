package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code sql:} query with LIMIT ({@code golden/sql-limit/}) run as a user runs it, availableNow on a real broker, with new files
 * between the runs: the table holds Spark 4.2's rows after each run, and never more than the limit.
 */
@Tag("integration")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class SqlLimitPipelineTest {
    @TempDir
    Path dir;

    @Test
    void limitKeepsTheFirstRowsOfTheStreamOverRunsWithNewFiles() throws Exception {
        Path golden = Path.of(SqlLimitPipelineTest.class.getClassLoader().getResource("golden/sql-limit/three-runs").toURI());
        JsonNode c = new ObjectMapper().readTree(golden.resolve("case.json").toFile());
        Path f = dir.resolve("pipeline.yaml");
        Files.writeString(f, "name: limited\nsource:\n  files:\n    path: in/\n    schema: \"" + c.get("schema").asText()
                + "\"\nsql: |\n" + c.get("query").asText().indent(2) + "sink:\n  delta:\n    path: out/\ntrigger: availableNow\n");
        Files.createDirectories(dir.resolve("in"));
        long mtime = 1_000_000;
        int run = 0;
        for (JsonNode files : c.get("runs")) {
            run++;
            for (JsonNode file : files) {
                Path p = Files.copy(golden.resolve(file.asText()), dir.resolve("in").resolve(file.asText()));
                Files.setLastModifiedTime(p, FileTime.fromMillis(mtime += 1000));
            }
            PipelineSpec spec = PipelineSpec.load(f, Map.of(), Map.of());
            try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
                pipeline.run(spec.trigger(), p -> { });
            }
            List<String> spark = Files.readAllLines(golden.resolve("after-run" + run + ".txt")).stream()
                    .filter(l -> !l.startsWith("#") && !l.startsWith("batches")).toList();
            assertThat(table()).as("the table after run " + run).isEqualTo(spark);
        }
        assertThat(table()).as("LIMIT 4, over three runs").hasSize(4);
    }

    /** The table's rows, each as SparkSqlLimit writes them ({@code |} between values), sorted. */
    private List<String> table() {
        List<String> rows = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(dir.resolve("out").toString())) {
            List<String> values = new ArrayList<>();
            for (Object v : r) {
                values.add(String.valueOf(v));
            }
            rows.add(String.join("|", values));
        }
        rows.sort(null);
        return rows;
    }
}
