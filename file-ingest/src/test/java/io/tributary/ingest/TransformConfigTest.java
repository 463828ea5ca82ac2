package io.tributary.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Field;
import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.settings.Values;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** transform.where and transform.select in the ingest's config: the rows published, the columns the rest of the pipeline sees. */
class TransformConfigTest {
    static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");
    static final Path IN = Path.of("in");

    @Test
    void theSelectMakesTheSchemaPublishedAndTheKeysAndEventTimeAreItsColumns() {
        IngestConfig c = IngestConfig.builder("p", IN, SCHEMA)
                .transform("amt > 0", List.of("id", "upper(user) AS u", "date_trunc('hour', ts) AS hour"))
                .eventTime("hour").groupBy(List.of("u")).build();
        assertThat(c.schema()).as("the files are still read with the spec's schema").isEqualTo(SCHEMA);
        assertThat(c.outputSchema().toDdl()).isEqualTo("id INT, u STRING, hour TIMESTAMP");
        assertThat(c.transform().apply(new Object[] {1, "a", 2.0, 3_600_000_001L})).containsExactly(1, "A", 3_600_000_000L);

        assertThatThrownBy(() -> IngestConfig.builder("p", IN, SCHEMA).transform(null, List.of("id")).groupBy(List.of("user")).build())
                .isInstanceOf(TributaryException.class).hasMessageContaining("groupBy").hasMessageContaining("user");
    }

    @Test
    void aGrownSchemaIsTransformedToo() {
        IngestConfig c = IngestConfig.builder("p", IN, SCHEMA).transform(null, List.of("*", "amt * 2 AS twice")).build();
        List<Field> grown = new ArrayList<>(SCHEMA.fields());
        grown.add(new Field("country", DataType.STRING, true));
        IngestConfig after = c.withSchema(new Schema(grown));
        assertThat(after.outputSchema().toDdl()).isEqualTo("id INT, user STRING, amt DOUBLE, ts TIMESTAMP, country STRING, twice DOUBLE");
    }

    @Test
    void aRefusalNamesTheKeyAsWritten() {
        Values spec = Values.localized(TransformSettings.ALL, s -> s.under("transform"),
                Map.of("transform.where", "amt >", "transform.select", "id")::get, (s, t, e) -> e);
        assertThatThrownBy(() -> IngestConfig.builder("p", IN, SCHEMA).transform(spec).build())
                .hasMessageStartingWith("transform.where: expression \"amt >\" does not parse");
        Values select = Values.localized(TransformSettings.ALL, s -> s.under("transform"),
                Map.of("transform.select", "id, nosuch(user) AS x")::get, (s, t, e) -> e);
        assertThatThrownBy(() -> IngestConfig.builder("p", IN, SCHEMA).transform(select).build())
                .hasMessageStartingWith("transform.select: expression \"nosuch(user) AS x\"").hasMessageContaining("unknown function 'nosuch'");
    }

    @Test
    void theColumnStepsFollowTheSelectAndTheColumnsAnAggregationComputesPassThroughThem() {
        Map<String, io.tributary.settings.Setting<?>> defs = new java.util.LinkedHashMap<>();
        TransformSettings.ALL.forEach(s -> defs.put(s.key(), s.under("transform")));
        Map<String, String> with = new java.util.LinkedHashMap<>();
        with.put("user", "lower(user)");
        with.put("day", "to_date(ts)");
        Map<String, Map<String, String>> below = Map.of("transform.withColumns", with, "transform.withColumnsRenamed", Map.of("amt", "amount"));
        Values spec = new Values(defs, s -> Map.of("transform.drop", "ts").get(s.key()), s -> below.getOrDefault(s.key(), Map.of()),
                (s, t, e) -> e);
        io.tributary.expressions.RowTransform t = RowTransforms.compile(spec, SCHEMA, null,
                Map.of("date_trunc('hour', ts) AS hour", "aggregate.groupBy"));
        assertThat(t.output().toDdl()).as("the aggregation's hour reads the input's ts, and follows the steps' columns")
                .isEqualTo("id INT, user STRING, amount DOUBLE, day DATE, hour TIMESTAMP");
        assertThat(t.apply(new Object[] {1, "AnN", 2.0, 3_600_000_001L})).containsExactly(new Object[] {1, "ann", 2.0, 0, 3_600_000_000L});

        with.put("day", "to_date(nosuch)");
        assertThatThrownBy(() -> RowTransforms.compile(spec, SCHEMA, null, Map.of())).isInstanceOf(TributaryException.class)
                .hasMessageStartingWith("transform.withColumns.day: ").hasMessageContaining("nosuch");
    }
}
