package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.schema.Topics;
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
 * A pipeline into a table Spark created with {@code id INT NOT NULL}, from files whose rows leave
 * {@code id} null: those rows are bad records of their file and line, as any malformed row.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class NotNullTablePipelineTest {
    @TempDir
    Path dir;

    private PipelineSpec spec(String onBadRecord) throws Exception {
        SparkCreatedTables.create(dir.resolve("out"), List.of("id integer NOT NULL", "user string", "amt double"), List.of(), Map.of());
        Files.createDirectories(dir.resolve("in"));
        InputFiles.place(dir.resolve("in"), "a.json", "{\"id\": 1, \"user\": \"a\", \"amt\": 1.0}", "{\"id\": null, \"user\": \"b\", \"amt\": 2.0}",
                "{\"user\": \"c\", \"amt\": 3.0}", "{\"id\": 4, \"user\": \"d\", \"amt\": 4.0}");
        Path specFile = dir.resolve("pipeline.yaml");
        Files.writeString(specFile, """
                name: notnull
                source:
                  files:
                    path: in/
                    schema: "id INT, user STRING, amt DOUBLE"
                    onBadRecord: %s
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """.formatted(onBadRecord));
        return PipelineSpec.load(specFile, Map.of(), Map.of());
    }

    private List<Object> ids() {
        List<Object> ids = new ArrayList<>();
        DeltaTables.readRows(dir.resolve("out").toString()).forEach(r -> ids.add(r[0]));
        ids.sort(null);
        return ids;
    }

    @Test
    void rowsWithANullForANotNullColumnGoToTheDeadLetterTopicWithTheirFileAndLine() throws Exception {
        PipelineSpec spec = spec("deadLetter");
        List<JsonNode> letters;
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            pipeline.run(spec.trigger(), p -> { });
            letters = TopicTail.json(pipeline.clientProps(), Topics.deadLetter("notnull"));
        }

        assertThat(ids()).containsExactly(1, 4);
        assertThat(letters).hasSize(2);
        assertThat(letters).extracting(l -> l.path("file").asText() + ":" + l.path("line").asLong() + ":" + l.path("field").asText())
                .containsExactly("a.json:2:id", "a.json:3:id");
        assertThat(letters.get(0).path("reason").asText()).contains("NOT NULL");
    }

    @Test
    void underFailTheRunStopsNamingTheFileLineAndColumn() throws Exception {
        PipelineSpec spec = spec("fail");
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            assertThatThrownBy(() -> pipeline.run(spec.trigger(), p -> { }))
                    .hasMessageContaining("a.json:2")
                    .hasMessageContaining("id")
                    .hasMessageContaining("NOT NULL");
        }
        assertThat(ids()).isEmpty();
    }
}
