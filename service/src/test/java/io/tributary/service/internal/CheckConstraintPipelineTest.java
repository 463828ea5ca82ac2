package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.schema.Topics;
import io.tributary.schema.TributaryException;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SparkCreatedTables;
import io.tributary.sink.TopicTail;
import io.tributary.testing.InputFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pipeline from files into a table Spark created with a CHECK constraint
 * ({@code ALTER TABLE out ADD CONSTRAINT amt_positive CHECK (amt > 0)}): a row that breaks it, as the
 * sink would write it (after {@code transform.select}), is a bad record of its file and line
 * ({@code onBadRecord: fail} stopping the run naming them is the file source's own test,
 * {@code CheckConstraintRowsTest}, as this pipeline's path to it is the NOT NULL check's).
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class CheckConstraintPipelineTest {
    @TempDir
    Path dir;

    /** The table (constraint {@code amt_positive}), and in/a.json whose lines 2 and 3 break it once {@code amt - 1} is taken. */
    private PipelineSpec spec(String constraint) throws Exception {
        SparkCreatedTables.create(dir.resolve("out"), List.of("id integer", "user string", "amt double"),
                List.of(SparkCreatedTables.CHECK_CONSTRAINTS), Map.of("delta.constraints.amt_positive", constraint));
        Files.createDirectories(dir.resolve("in"));
        InputFiles.place(dir.resolve("in"), "a.json", "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0}",
                "{\"id\": 2, \"user\": \"b\", \"amt\": 1.0}", "{\"id\": 3, \"user\": \"c\", \"amt\": null}",
                "{\"id\": 4, \"user\": \"d\", \"amt\": 9.0}");
        Path specFile = dir.resolve("pipeline.yaml");
        Files.writeString(specFile, """
                name: checks
                source:
                  files:
                    path: in/
                    schema: "id INT, user STRING, amt DOUBLE"
                    onBadRecord: deadLetter
                transform:
                  select: ["id", "user", "amt - 1 AS amt"]
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """);
        return PipelineSpec.load(specFile, Map.of(), Map.of());
    }

    private List<Object> ids() {
        List<Object> ids = new ArrayList<>();
        DeltaTables.readRows(dir.resolve("out").toString()).forEach(r -> ids.add(r[0]));
        ids.sort(null);
        return ids;
    }

    @Test
    void rowsBreakingTheTablesCheckConstraintAfterTheSelectGoToTheDeadLetterTopicWithTheirFileAndLine() throws Exception {
        PipelineSpec spec = spec("amt > 0");
        List<JsonNode> letters;
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            pipeline.run(spec.trigger(), p -> { });
            letters = TopicTail.json(pipeline.clientProps(), Topics.deadLetter("checks"));
        }

        assertThat(ids()).containsExactly(1, 4);
        assertThat(letters).extracting(l -> l.path("file").asText() + ":" + l.path("line").asLong() + ":" + l.path("field").asText())
                .containsExactly("a.json:2:amt_positive", "a.json:3:amt_positive");
        // line 2 holds amt 1.0, which passes the constraint; the select makes it 0.0, which the table would refuse
        assertThat(letters.get(0).path("reason").asText()).contains("CHECK constraint amt_positive (amt > 0)")
                .contains("is false").contains("amt = 0.0");
        assertThat(letters.get(1).path("reason").asText()).contains("is null");
        assertThat(letters.get(0).path("text").asText()).contains("\"id\": 2");
        // the sink wrote the good rows on the table with its constraint kept
        assertThat(DeltaTables.readRows(dir.resolve("out").toString())).extracting(r -> r[2]).containsExactlyInAnyOrder(4.0, 8.0);
    }

    @Test
    void aConstraintTheRowsCannotBeCheckedAgainstIsRefusedBeforeTheRunStarts() throws Exception {
        PipelineSpec spec = spec("amt >");
        assertThatThrownBy(() -> Pipeline.open(spec, RunOptions.DEFAULT))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("constraint amt_positive CHECK (amt >)")
                .hasMessageContaining("DROP CONSTRAINT amt_positive")
                .hasMessageNotContaining("\n");
        assertThat(spec.stateDir()).as("no broker started, nothing read").doesNotExist();
        assertThat(DeltaTables.latestVersion(dir.resolve("out").toString())).isZero();
    }
}
