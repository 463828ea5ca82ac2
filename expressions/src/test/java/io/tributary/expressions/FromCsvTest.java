package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import org.junit.jupiter.api.Test;

/** from_csv reads a row's text with the CSV file source's value rules; what it cannot read as Spark does is refused at start. */
class FromCsvTest {
    private static final Schema INPUT = Schema.parse("line STRING");

    @Test
    void aMalformedRecordKeepsTheValuesThatReadAndItsTextInTheCorruptRecordColumn() {
        Expression e = Expression.compile(INPUT, "from_csv(line, 'id INT, amt DECIMAL(5,2), at DATE, _corrupt_record STRING')");
        assertThat((Object[]) e.eval(new Object[] {"7,12.345,2024-02-29"})).containsExactly(7, new java.math.BigDecimal("12.35"), 19782, null);
        assertThat((Object[]) e.eval(new Object[] {"x,1.5,2024-02-29"})).containsExactly(null, new java.math.BigDecimal("1.50"), 19782,
                "x,1.5,2024-02-29");
    }

    @Test
    void whatSparkReadsOtherwiseIsRefusedAtStartNamingTheFunction() {
        assertThatThrownBy(() -> Expression.compile(INPUT, "from_csv(line, 'a INT', map('locale', 'de-DE'))"))
                .isInstanceOf(TributaryException.class).hasMessageContaining("from_csv option 'locale' is not supported yet");
        assertThatThrownBy(() -> Expression.compile(INPUT, "schema_of_csv('')")).isInstanceOf(TributaryException.class)
                .hasMessageContaining("schema_of_csv of '': it holds no CSV record");
        assertThatThrownBy(() -> Expression.compile(INPUT, "from_csv(line, line)")).isInstanceOf(TributaryException.class)
                .hasMessageContaining("INVALID_SCHEMA.NON_STRING_LITERAL");
    }
}
