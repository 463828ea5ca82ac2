package io.tributary.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** vector_sum and vector_avg: Spark's FLOAT arithmetic, its skipped rows, its error for two lengths, its batch merge. */
class VectorFoldTest {
    private static final Schema INPUT = Schema.parse("v ARRAY<FLOAT>, d ARRAY<DOUBLE>");

    private static Accumulator of(String call) {
        return Accumulators.of(AggregateParser.parse("aggregate.select.x", "x", call, INPUT));
    }

    private static Object[] row(Float... v) {
        return new Object[] {v == null ? null : Arrays.asList(v), null};
    }

    private static Object roundTrip(Accumulator acc, Object state) {
        ByteSink out = new ByteSink(16);
        acc.write(out, state);
        return acc.read(new ByteSource(out.toByteArray(), 0));
    }

    @Test
    void aSumAndAMeanInFloatsSkippingNullArraysAndArraysWithANull() {
        Accumulator sum = of("vector_sum(v)");
        Accumulator avg = of("vector_avg(v)");
        Object s = sum.zero();
        Object a = avg.zero();
        assertThat(sum.result(s)).as("no array").isNull();
        for (Object[] r : List.of(row(0.1f, 1e8f), row((Float[]) null), row(0.2f, 1f), row(null, 5f), row(0.3f, -1e8f))) {
            s = roundTrip(sum, sum.add(s, r));
            a = roundTrip(avg, avg.add(a, r));
        }
        assertThat(sum.result(s)).isEqualTo(List.of(0.1f + 0.2f + 0.3f, 1e8f + 1f - 1e8f));
        float m0 = 0.1f + (0.2f - 0.1f) * (1f / 2f);
        float m1 = 1e8f + (1f - 1e8f) * (1f / 2f);
        assertThat(avg.result(a)).isEqualTo(List.of(m0 + (0.3f - m0) * (1f / 3f), m1 + (-1e8f - m1) * (1f / 3f)));
    }

    @Test
    void aBatchFoldsApartAndMergesIntoTheEarlierBatches() {
        Accumulator sum = of("vector_sum(v)");
        Object s = sum.add(sum.zero(), row(1e8f));
        s = sum.nextBatch(s);
        s = sum.add(s, row(1f));
        s = sum.add(s, row(1f));
        assertThat(sum.result(roundTrip(sum, s))).as("1e8 + (1 + 1), not (1e8 + 1) + 1").isEqualTo(List.of(1e8f + 2f));
        Accumulator avg = of("vector_avg(v)");
        Object a = avg.nextBatch(avg.add(avg.add(avg.zero(), row(1f)), row(2f)));
        a = avg.add(a, row(4f));
        float w1 = 2f / 3f;
        float w2 = 1f / 3f;
        assertThat(avg.result(a)).as("two means merged by their counts' weights").isEqualTo(List.of(1.5f * w1 + 4f * w2));
    }

    @Test
    void emptyArraysCountAndArraysOfTwoLengthsFailTheQuery() {
        Accumulator avg = of("vector_avg(v)");
        Object a = avg.add(avg.add(avg.zero(), row()), row());
        assertThat(avg.result(a)).isEqualTo(List.of());
        Accumulator sum = of("vector_sum(v)");
        Object s = sum.add(sum.zero(), row(1f, 2f, 3f));
        assertThatThrownBy(() -> sum.add(s, row(1f, 2f))).isInstanceOf(TributaryException.class).hasMessage("aggregate.select.x: vectors "
                + "passed to vector_sum must have the same dimension, but got 3 and 2 (Spark fails the query: VECTOR_DIMENSION_MISMATCH)");
        Object stored = sum.nextBatch(s);
        Object next = sum.add(stored, row(1f));
        assertThatThrownBy(() -> sum.nextBatch(next)).as("the batch's buffer merged into the stored one")
                .hasMessageContaining("but got 3 and 1");
        assertThatThrownBy(() -> of("vector_sum(d)")).hasMessageContaining("vector_sum needs an ARRAY<FLOAT>");
    }
}
