package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.service.spec.PipelineSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the spec makes of the stages' settings. */
class PipelinePartsTest {
    @TempDir
    Path dir;

    @Test
    void theAggregateColumnsFollowTheSelectNotTheAlphabet() throws IOException {
        Path f = dir.resolve("pipeline.yaml");
        Files.writeString(f, """
                name: t
                source:
                  files:
                    path: in/
                    schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
                aggregate:
                  eventTime: ts
                  window: 10 minutes
                  groupBy: [user]
                  select: { s: sum(amt), c: count(*), av: avg(amt) }
                outputMode: complete
                sink:
                  delta:
                    path: out/
                """);
        PipelineSpec spec = PipelineSpec.load(f, Map.of(), Map.of("aggregate.select.mx", "max(amt)"));
        Schema out = PipelineParts.aggregateSpec(spec, Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP")).outputSchema();
        assertThat(out.fields()).extracting(Field::name).containsExactly("window", "user", "s", "c", "av", "mx");
    }
}
