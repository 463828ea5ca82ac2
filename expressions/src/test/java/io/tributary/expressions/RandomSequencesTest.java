package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Spark's seeded random functions over the rows of a batch give Spark's sequence over the rows of partition 0
 * ({@code golden/expressions/random.tsv}, recorded by compat/spark's {@code SparkRandomSequences}), and start it again with
 * the next batch; unseeded ones draw a fresh seed per batch.
 */
class RandomSequencesTest {
    private static final Schema INPUT = Schema.parse("id BIGINT");

    private static List<String> values(Transform t, int rows) {
        List<String> out = new ArrayList<>();
        for (long id = 0; id < rows; id++) {
            out.add(SparkValues.canonical(t.apply(new Object[] {id})[0], t.output().field(0).type()));
        }
        return out;
    }

    @Test
    void seededCallsGiveSparksSequenceOfPartitionZero() throws Exception {
        List<String> lines;
        try (InputStream in = RandomSequencesTest.class.getClassLoader().getResourceAsStream("golden/expressions/random.tsv")) {
            lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
        }
        assertThat(lines).hasSizeGreaterThan(20);
        for (String line : lines) {
            String[] f = line.split("\t", -1);
            Transform t = Transform.compile(INPUT, null, List.of(f[0] + " AS x"));
            assertThat(t.output().toDdl()).as(f[0]).isEqualTo("x " + f[1]);
            List<String> spark = List.of(f[2].split("\\|", -1));
            t.startBatch(Instant.parse("2026-12-06T00:00:00Z"));
            assertThat(values(t, spark.size())).as(f[0]).isEqualTo(spark);
            t.startBatch(Instant.parse("2026-12-06T00:00:01Z"));
            assertThat(values(t, spark.size())).as(f[0] + ", the next batch").isEqualTo(spark);
        }
    }

    @Test
    void unseededCallsDrawAFreshSeedPerBatch() {
        Transform t = Transform.compile(INPUT, null, List.of("rand() AS a", "randn() AS b", "uniform(0L, 1000000000000L) AS c",
                "randstr(12) AS d", "uuid() AS e"));
        t.startBatch(Instant.parse("2026-12-06T00:00:00Z"));
        Object[] first = t.apply(new Object[] {0L});
        Object[] second = t.apply(new Object[] {1L});
        t.startBatch(Instant.parse("2026-12-06T00:00:01Z"));
        Object[] next = t.apply(new Object[] {0L});
        for (int i = 0; i < first.length; i++) {
            assertThat(Set.of(first[i], second[i], next[i])).as("column %d", i).hasSize(3);
        }
        assertThat((Double) first[0]).isBetween(0.0, 1.0);
        assertThat((String) first[3]).matches("[0-9a-zA-Z]{12}");
        assertThat((String) first[4]).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
    }

    @Test
    void shuffleKeepsTheElements() {
        Transform t = Transform.compile(Schema.parse("a ARRAY<INT>"), null, List.of("shuffle(a) AS s"));
        t.startBatch(Instant.parse("2026-12-06T00:00:00Z"));
        List<Integer> in = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            in.add(i);
        }
        Set<List<Object>> orders = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            @SuppressWarnings("unchecked")
            List<Object> out = (List<Object>) t.apply(new Object[] {in})[0];
            assertThat(out).containsExactlyInAnyOrderElementsOf(in);
            orders.add(out);
        }
        assertThat(orders).hasSizeGreaterThan(1);
    }

    @Test
    void aSeedThatIsNoConstantIsRefusedAtStart() {
        assertThatThrownBy(() -> Transform.compile(INPUT, null, List.of("rand(id) AS x")))
                .isInstanceOf(TributaryException.class).hasMessageContaining("rand").hasMessageContaining("SEED_EXPRESSION_IS_UNFOLDABLE");
        assertThatThrownBy(() -> Transform.compile(INPUT, null, List.of("shuffle(array(1, 2), id) AS x")))
                .isInstanceOf(TributaryException.class).hasMessageContaining("shuffle").hasMessageContaining("INVALID_PARAMETER_VALUE.LONG");
        assertThatThrownBy(() -> Transform.compile(INPUT, null, List.of("uniform(0, 10, id) AS x")))
                .isInstanceOf(TributaryException.class).hasMessageContaining("uniform").hasMessageContaining("SEED_EXPRESSION_IS_UNFOLDABLE");
    }
}
