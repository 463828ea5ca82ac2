package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
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
        Schema out = AggregationParts.aggregateSpec(spec, Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP")).outputSchema();
        assertThat(out.fields()).extracting(Field::name).containsExactly("window", "user", "s", "c", "av", "mx");
    }

    private static final Schema SEED = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");

    private PipelineSpec sessions(String aggregate, String outputMode) throws IOException {
        Path f = dir.resolve("sessions.yaml");
        Files.writeString(f, """
                name: t
                source:
                  files:
                    path: in/
                    schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
                aggregate:
                  eventTime: ts
                  watermark: 10 minutes
                  groupBy: [user]
                  select: { t: sum(amt), n: count(*) }
                """ + aggregate + "outputMode: " + outputMode + "\nsink:\n  delta:\n    path: out/\n");
        return PipelineSpec.load(f, Map.of(), Map.of());
    }

    @Test
    void aSessionGapGroupsBySparksSessionWindow() throws IOException {
        Schema out = AggregationParts.aggregateSpec(sessions("  session: 30 minutes\n", "append"), SEED).outputSchema();
        assertThat(out.toDdl()).isEqualTo("session_window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, t DOUBLE, n BIGINT");
    }

    @Test
    void aWindowAndASessionTogetherAreRefusedInOneLine() throws IOException {
        PipelineSpec both = sessions("  session: 30 minutes\n  window: 10 minutes\n", "append");
        assertThatThrownBy(() -> AggregationParts.aggregateSpec(both, SEED)).isInstanceOf(TributaryException.class)
                .hasMessageStartingWith("aggregate.session: ").hasMessageContaining("given with aggregate.window")
                .hasMessageContaining("keep one of the two").satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        PipelineSpec update = sessions("  session: 30 minutes\n", "update");
        assertThatThrownBy(() -> AggregationParts.aggregateSpec(update, SEED))
                .hasMessageContaining("This output mode is not supported for session window streaming aggregations");
    }

    private PipelineSpec lateralViews(String views) throws IOException {
        Path f = dir.resolve("views.yaml");
        Files.writeString(f, """
                name: t
                source:
                  files:
                    path: in/
                    schema: "id INT, tags ARRAY<STRING>, props MAP<STRING, INT>"
                transform:
                  lateralView:
                """ + views + """
                  where: "t.tag <> 'b'"
                sink:
                  delta:
                    path: out/
                """);
        return PipelineSpec.load(f, Map.of(), Map.of());
    }

    @Test
    void theBlocksLateralViewsAreAListOfMappingsAndABadOneIsRefusedNamingItsKeyAndLine() throws IOException {
        PipelineSpec spec = lateralViews("""
                    - generator: "explode(tags)"
                      as: t
                      columns: [tag]
                    - { generator: "explode(props)", as: p, columns: [k, v], outer: true }
                """);
        Schema rows = Schema.parse("id INT, tags ARRAY<STRING>, props MAP<STRING, INT>");
        assertThat(PipelineParts.ingestConfig(spec, rows, null).outputSchema().toDdl())
                .isEqualTo("id INT, tags ARRAY<STRING>, props MAP<STRING, INT>, tag STRING, k STRING, v INT");
        TransformParts.check(spec);

        PipelineSpec noName = lateralViews("    - { generator: \"explode(tags)\", columns: [tag] }\n");
        assertThatThrownBy(() -> TransformParts.check(noName)).isInstanceOf(TributaryException.class)
                .hasMessageContaining("transform.lateralView.0.as: a lateral view needs a name")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        PipelineSpec notAnArray = lateralViews("    - { generator: \"explode(id)\", as: t, columns: [tag] }\n");
        assertThatThrownBy(() -> TransformParts.check(notAnArray)).isInstanceOf(TributaryException.class)
                .hasMessageContaining("transform.lateralView.0: expression \"LATERAL VIEW explode(id) `t` AS `tag`\"")
                .hasMessageContaining("'id' is INT, and explode takes an ARRAY or a MAP");
    }
}
