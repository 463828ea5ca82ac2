package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.List;
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
    void aGermanLineReadsItsDecimalsByTheLocaleAndItsTimesInTheZoneGiven() {
        Expression e = Expression.compile(INPUT, "from_csv(line, 'amt DECIMAL(10,2), at TIMESTAMP, d DATE', map('sep', ';', 'locale', 'de-DE',"
                + " 'timeZone', 'Europe/Berlin', 'dateFormat', 'd. MMMM yyyy'))");
        Object[] row = (Object[]) e.eval(new Object[] {"1.234,56;2024-07-01 10:00:00;2. Januar 2024"});
        assertThat(row[0]).isEqualTo(new java.math.BigDecimal("1234.56"));
        assertThat(java.time.Instant.EPOCH.plus((Long) row[1], java.time.temporal.ChronoUnit.MICROS)).hasToString("2024-07-01T08:00:00Z");
        assertThat(java.time.LocalDate.ofEpochDay((Integer) row[2])).hasToString("2024-01-02");
        assertThat((Object[]) e.eval(new Object[] {"1,234.56;x;y"})).containsExactly(null, null, null);
    }

    @Test
    void whatSparkReadsOtherwiseIsRefusedAtStartNamingTheFunction() {
        assertThatThrownBy(() -> Expression.compile(INPUT, "from_csv(line, 'a INTERVAL DAY')"))
                .isInstanceOf(TributaryException.class).hasMessageContaining("has type INTERVAL DAY, which Tributary does not support yet");
        assertThatThrownBy(() -> Expression.compile(INPUT, "schema_of_csv('')")).isInstanceOf(TributaryException.class)
                .hasMessageContaining("schema_of_csv of '': it holds no CSV record");
        assertThatThrownBy(() -> Expression.compile(INPUT, "from_csv(line, line)")).isInstanceOf(TributaryException.class)
                .hasMessageContaining("INVALID_SCHEMA.NON_STRING_LITERAL");
    }

    @Test
    void aSchemaThatNamesAColumnTwiceGivesSparksStructWhoseFieldsAreReadButNotNamed() {
        Expression csv = Expression.compile(INPUT, "from_csv(line, 'a INT, b STRING, A STRING')");
        assertThat((Object[]) csv.eval(new Object[] {"1,x,y"})).containsExactly(1, "x", "y");
        assertThat(Expression.compile(INPUT, "to_json(from_csv(line, 'a INT, a INT'))").eval(new Object[] {"1,2"})).isEqualTo("{\"a\":1,\"a\":2}");
        assertThat(Expression.compile(INPUT, "from_csv(line, 'a INT, b STRING, a STRING').b").eval(new Object[] {"1,x,y"})).isEqualTo("x");
        assertThat((Object[]) Expression.compile(INPUT, "from_json(line, 'a INT, b INT, a STRING')").eval(new Object[] {"{\"a\": 1, \"b\": 2}"}))
                .containsExactly(null, 2, "1");
        for (String field : List.of("from_csv(line, 'a INT, a INT').a", "from_csv(line, 'a INT, A INT')['a']", "from_json(line, 'a INT, a INT').A")) {
            assertThatThrownBy(() -> Expression.compile(INPUT, field)).as(field).isInstanceOf(TributaryException.class)
                    .hasMessageContaining("[AMBIGUOUS_REFERENCE_TO_FIELDS]").hasMessageContaining("has 2 fields named");
        }
        assertThatThrownBy(() -> Transform.compile(INPUT, null, List.of("from_csv(line, 'a INT, a INT') AS s")))
                .isInstanceOf(TributaryException.class).hasMessageContaining("select item \"from_csv(line, 'a INT, a INT') AS s\" is"
                        + " STRUCT<a: INT, a: INT>, a struct that names a field twice, which no Delta table holds (Spark fails the write with"
                        + " DELTA_DUPLICATE_COLUMNS_FOUND.DATA)");
        assertThat(Transform.compile(INPUT, null, List.of("from_csv(line, 'a INT, b STRING, a STRING').b AS b")).apply(new Object[] {"1,x,y"}))
                .containsExactly("x");
    }
}
