package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Spark 4.2's TIME type as a user has it by default: {@code current_time([p])} reads the batch's start as {@code current_timestamp()}
 * does, and a select item of a TIME type is refused at start (Spark fails the query with UNSUPPORTED_TIME_TYPE, and a Delta table
 * cannot hold one). The TIME literals, casts and comparisons are golden expression cases ({@code golden/expressions/}).
 */
class TimeTypeTest {
    private static final Schema INPUT = Schema.parse("i INT, d DATE");

    @Test
    void currentTimeGivesWhatSpark42Gave() throws Exception {
        List<String> lines;
        try (InputStream in = TimeTypeTest.class.getClassLoader().getResourceAsStream("golden/batch-time/current-time.tsv")) {
            lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
        }
        assertThat(lines).hasSize(17);
        List<String> wrong = new ArrayList<>();
        for (String line : lines) {
            String[] f = line.split("\t", -1); // ROW, EXPR, TYPE, VALUE
            String problem = check(f[1], f[2], f[3]);
            if (problem != null) {
                wrong.add(f[1] + " -> " + problem);
            }
        }
        assertThat(wrong).as("cases that differ from Spark:%n%s", String.join("\n", wrong)).isEmpty();
    }

    private static String check(String expr, String type, String value) {
        Transform t;
        try {
            t = Transform.compile(INPUT, null, List.of(expr + " AS x"));
        } catch (TributaryException refused) {
            boolean timeResult = type.startsWith("TIME(") && value.equals("!UNSUPPORTED_TIME_TYPE");
            return type.equals("!") || timeResult ? null : "refused (" + refused.getMessage() + "), Spark gives " + type + " " + value;
        }
        if (type.equals("!")) {
            return "accepted, Spark refuses it: " + value;
        }
        t.startBatch(Instant.parse("2026-12-06T13:45:30.123456Z"));
        Object v = t.apply(new Object[] {1, 20_000})[0];
        String got = t.output().field(0).type().ddl() + "\t" + v;
        return got.equals(type + "\t" + value) ? null : "gives " + got + ", Spark " + type + " " + value;
    }

    @Test
    void currentTimeIsTheBatchsStartCutToItsPrecision() {
        Transform t = Transform.compile(INPUT, null, List.of("CAST(current_time() AS STRING) AS a", "CAST(current_time(0) AS STRING) AS b",
                "CAST(current_time(2) AS STRING) AS c", "CAST(current_time AS DECIMAL(11,6)) AS e",
                "make_timestamp(d, current_time()) = current_timestamp() AS f"));
        assertThat(t.readsBatchTime()).isTrue();
        t.startBatch(Instant.parse("2026-12-06T23:59:59.123456789Z"));
        int today = (int) java.time.LocalDate.parse("2026-12-06").toEpochDay();
        Object[] first = t.apply(new Object[] {1, today});
        assertThat(first).containsExactly("23:59:59.123", "23:59:59", "23:59:59.12", new java.math.BigDecimal("86399.123000"), true);
        assertThat(t.apply(new Object[] {2, today})).as("every row of a batch reads its start").containsExactly(first);
        t.startBatch(Instant.parse("2026-12-07T00:00:00.5Z"));
        assertThat(t.apply(new Object[] {3, today})).containsExactly("00:00:00.5", "00:00:00", "00:00:00.5",
                new java.math.BigDecimal("0.500000"), false);
    }

    @Test
    void aTimeSelectItemIsRefusedAtStartAsSparkRefusesItsWriteToDelta() throws Exception {
        String recorded;
        try (InputStream in = TimeTypeTest.class.getClassLoader().getResourceAsStream("golden/expressions/time-column.tsv")) {
            recorded = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String write = recorded.lines().filter(l -> l.startsWith("selectExpr(\"TIME")).findFirst().orElseThrow();
        String condition = write.substring(write.indexOf("\t!") + 2);
        assertThat(condition).isEqualTo("UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE");
        assertThatThrownBy(() -> Transform.compile(INPUT, null, List.of("current_time() AS t")))
                .isInstanceOf(TributaryException.class).hasMessageContaining(condition);
        assertThat(recorded).contains("CAST(TIME '12:34:56' AS STRING) AS t\").write.format(\"delta\")\tok");
        assertThat(Transform.compile(INPUT, null, List.of("CAST(TIME '12:34:56' AS STRING) AS t")).output().toDdl()).isEqualTo("t STRING");
    }

    @Test
    void aTimeSelectItemIsRefusedAtStart() {
        assertThatThrownBy(() -> Transform.compile(INPUT, null, List.of("i", "TIME '12:34:56' AS t")))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("select item \"TIME '12:34:56' AS t\" is TIME(6)")
                .hasMessageContaining("UNSUPPORTED_TIME_TYPE").hasMessageContaining("CAST(t AS STRING)");
        assertThatThrownBy(() -> Transform.compile(INPUT, null, List.of("array(current_time(3)) AS ts")))
                .isInstanceOf(TributaryException.class).hasMessageContaining("is ARRAY<TIME(3)>");
        assertThatThrownBy(() -> Transform.compile(INPUT, "hour(TIME '13:00') > 12", List.of("i")))
                .isInstanceOf(TributaryException.class).hasMessageContaining("UNSUPPORTED_TIME_TYPE");
        assertThatThrownBy(() -> Transform.compile(INPUT, null, List.of("to_time('12:00') AS t")))
                .isInstanceOf(TributaryException.class).hasMessageContaining("the function to_time, which Spark 4.2 refuses with UNSUPPORTED_TIME_TYPE");
    }

    @Test
    void aFilterComparesTimesOfTheBatch() {
        Transform t = Transform.compile(INPUT, "current_time() BETWEEN TIME '09:00' AND TIME '17:30'", List.of("i"));
        t.startBatch(Instant.parse("2026-12-06T17:30:00Z"));
        assertThat(t.apply(new Object[] {1, 0})).containsExactly(1);
        t.startBatch(Instant.parse("2026-12-06T17:30:00.001Z"));
        assertThat(t.apply(new Object[] {1, 0})).isNull();
    }
}
