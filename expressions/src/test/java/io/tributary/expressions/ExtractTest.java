package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

/** Spark's {@code EXTRACT(field FROM x)} beside a column and a function of the same name, and its refusals. */
class ExtractTest {
    private static final Schema INPUT = Schema.parse("extract INT, ts TIMESTAMP");
    private static final Object[] ROW = {7, ChronoUnit.MICROS.between(Instant.EPOCH, Instant.parse("2024-02-29T13:45:30.25Z"))};

    private static Object eval(String expression) {
        return Expression.compile(INPUT, expression).eval(ROW);
    }

    private static String refusal(String expression) {
        return catchThrowableOfType(TributaryException.class, () -> Expression.compile(INPUT, expression)).getMessage();
    }

    @Test
    void extractReadsAFieldAsDatePartDoes() {
        assertThat(eval("extract(YEAR FROM ts)")).isEqualTo(2024);
        assertThat(eval("EXTRACT(dow FROM ts)")).isEqualTo(5);
        assertThat(eval("extract(second FROM ts)").toString()).isEqualTo("30.250000");
        assertThat(eval("extract(month FROM ts) + extract(day FROM ts)")).isEqualTo(31);
    }

    @Test
    void aColumnNamedExtractIsStillAColumn() {
        assertThat(eval("extract + 1")).isEqualTo(8);
    }

    @Test
    void anUnknownFieldOrFromInAnotherCallIsRefusedNamingIt() {
        assertThat(refusal("extract(fortnight FROM ts)")).contains("INVALID_EXTRACT_FIELD").contains("'fortnight'")
                .contains("extract(fortnight FROM ts)");
        assertThat(refusal("year(month FROM ts)")).contains("year(month FROM ts)");
        assertThat(refusal("date_part(extract, ts)")).contains("date_part").contains("'extract' is not");
    }
}
