package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Mistakes in the aggregate spec fail at start with the key, the cause and the fix. */
class AggregateSpecTest {
    static final Schema INPUT = AggregationDriver.seedSchema();

    static AggregateSpec.Builder valid() {
        return AggregateSpec.builder().eventTime("ts").watermark(Duration.ofMinutes(5)).window(Duration.ofMinutes(10))
                .groupBy("user").select("t", "sum(amt)").outputMode(OutputMode.APPEND);
    }

    @Test
    void appendWithoutWatermarkIsRefusedWithSparksWords() {
        assertThatThrownBy(() -> valid().watermark(null).build(INPUT)).isInstanceOf(TributaryException.class)
                .hasMessageContaining("Invalid streaming output mode: append. This output mode is not supported for streaming aggregations without watermark")
                .hasMessageContaining("aggregate.watermark").hasMessageContaining("update or complete");
    }

    @Test
    void updateAndCompleteRunWithoutWatermark() {
        assertThat(valid().watermark(null).outputMode(OutputMode.UPDATE).build(INPUT).hasWatermark()).isFalse();
        assertThat(valid().watermark(null).outputMode(OutputMode.COMPLETE).build(INPUT).outputMode()).isEqualTo(OutputMode.COMPLETE);
    }

    @Test
    void unknownColumnsAreNamedWithTheKey() {
        assertThatThrownBy(() -> valid().select("x", "sum(amount)").build(INPUT))
                .hasMessageContaining("aggregate.select.x").hasMessageContaining("'amount'").hasMessageContaining("id INT, user STRING");
        assertThatThrownBy(() -> valid().groupBy("region").build(INPUT))
                .hasMessageContaining("aggregate.groupBy").hasMessageContaining("'region'");
        assertThatThrownBy(() -> valid().eventTime("time").build(INPUT))
                .hasMessageContaining("aggregate.eventTime").hasMessageContaining("'time'");
    }

    @Test
    void unknownFunctionListsTheSupportedOnes() {
        assertThatThrownBy(() -> valid().select("m", "histogram_numeric(amt, 5)").build(INPUT))
                .hasMessageContaining("aggregate.select.m: unknown aggregate function 'histogram_numeric'")
                .hasMessageContaining("count(*), count(col), count_if(col), sum(col), min(col), max(col), avg(col), first(col), last(col)")
                .hasMessageContaining("percentile(col, p [, frequency]), median(col)");
        assertThatThrownBy(() -> valid().select("m", "histogram_numeric(amt, 5) + 1").build(INPUT)).hasMessageContaining("aggregate.select.m")
                .hasMessageContaining("histogram_numeric");
        assertThatThrownBy(() -> valid().select("m", "percentile_approx(amt)").build(INPUT))
                .hasMessageContaining("aggregate.select.m: percentile_approx is not written as Spark takes it")
                .hasMessageContaining("percentile_approx(col, p [, accuracy])");
        assertThatThrownBy(() -> valid().select("m", "sum(*)").build(INPUT)).hasMessageContaining("only count(*) takes *");
    }

    @Test
    void sumOfTextAndOfATimestampIsADoubleAsSparkCastsThem() {
        assertThat(valid().select("s", "sum(user)").build(INPUT).outputSchema().toDdl()).as("Spark casts text to DOUBLE")
                .endsWith("s DOUBLE");
        assertThat(valid().select("s", "sum(ts)").build(INPUT).outputSchema().toDdl()).as("a TIMESTAMP as its seconds since 1970")
                .endsWith("s DOUBLE");
        assertThatThrownBy(() -> valid().select("s", "stddev(ts)").build(INPUT)).as("the moments of a TIMESTAMP, which Spark refuses")
                .hasMessageContaining("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
    }

    @Test
    void eventTimeMustBeATimestamp() {
        assertThatThrownBy(() -> valid().eventTime("id").build(INPUT)).hasMessageContaining("event time must be a TIMESTAMP column");
    }

    @Test
    void windowsAreCheckedAsSparkChecksThem() {
        assertThatThrownBy(() -> valid().window(null).build(INPUT)).hasMessageContaining("aggregate.window: missing");
        assertThatThrownBy(() -> valid().window(Duration.ZERO).build(INPUT)).hasMessageContaining("aggregate.window");
        assertThatThrownBy(() -> valid().slide(Duration.ofMinutes(11)).build(INPUT))
                .hasMessageContaining("aggregate.slide").hasMessageContaining("less than or equal to the window size");
        assertThatThrownBy(() -> valid().watermark(Duration.ofMinutes(-1)).build(INPUT)).hasMessageContaining("aggregate.watermark");
        assertThatThrownBy(() -> valid().outputMode(null).build(INPUT)).hasMessageContaining("outputMode: missing");
    }

    @Test
    void outputNamesMustBeDistinct() {
        assertThatThrownBy(() -> valid().select("user", "count(*)").build(INPUT)).hasMessageContaining("already an output column");
        assertThatThrownBy(() -> valid().select("t", "count(*)")).hasMessageContaining("given twice");
    }

    @Test
    void outputModesReadAsSparkSpellsThem() {
        assertThat(OutputMode.parse("Append")).isEqualTo(OutputMode.APPEND);
        assertThat(OutputMode.COMPLETE.sparkName()).isEqualTo("complete");
        assertThatThrownBy(() -> OutputMode.parse("upsert")).hasMessageContaining("use append, update or complete");
    }

    @Test
    void timestampNtzEventTimeGivesNtzWindows() {
        Schema ntz = Schema.parse("user STRING, amt DOUBLE, ts TIMESTAMP_NTZ");
        assertThat(valid().build(ntz).outputSchema().toDdl())
                .isEqualTo("window STRUCT<start: TIMESTAMP_NTZ, end: TIMESTAMP_NTZ>, user STRING, t DOUBLE");
    }

    static AggregateSpec.Builder sessions() {
        return AggregateSpec.builder().eventTime("ts").watermark(Duration.ofMinutes(5)).session(Duration.ofMinutes(30))
                .groupBy("user").select("t", "sum(amt)").outputMode(OutputMode.APPEND);
    }

    @Test
    void sessionWindowsAreSparksSessionWindowColumn() {
        AggregateSpec spec = sessions().build(INPUT);
        assertThat(spec.outputSchema().toDdl()).isEqualTo("session_window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, t DOUBLE");
        assertThat(spec.isSession()).isTrue();
        assertThat(spec.span()).isEqualTo(Duration.ofMinutes(30));
    }

    @Test
    void windowColumnNamesTheWindowAsSparksAliasAndHavingReadsBothNames() {
        AggregateSpec spec = sessions().windowColumn("window").having("session_window.end > TIMESTAMP '2026-01-01 10:00:00'"
                + " AND window.start < window.end").build(INPUT);
        assertThat(spec.outputSchema().toDdl()).isEqualTo("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, t DOUBLE");
        assertThat(spec.having()).as("Spark's own name of the window reads the aliased column")
                .isEqualTo("`window`.`end` > TIMESTAMP '2026-01-01 10:00:00' AND window.start < window.end");
        assertThat(valid().windowColumn("w").having("window.end > w.start").build(INPUT).having()).isEqualTo("`w`.`end` > w.start");
        assertThatThrownBy(() -> valid().having("session_window.end > window.start").build(INPUT))
                .as("a tumbling window is not session_window, as Spark's UNRESOLVED_COLUMN").hasMessageStartingWith("aggregate.having")
                .hasMessageContaining("session_window");
        assertThatThrownBy(() -> valid().windowColumn("user").build(INPUT)).hasMessageStartingWith("aggregate.windowColumn: ")
                .hasMessageContaining("'user' is a groupBy column too");
        assertThatThrownBy(() -> valid().windowColumn("t").build(INPUT)).hasMessageContaining("'t' is already an output column");
    }

    @Test
    void sessionsAreCheckedAsSparkChecksThem() {
        assertThatThrownBy(() -> sessions().window(Duration.ofMinutes(10)).build(INPUT))
                .hasMessageStartingWith("aggregate.session: ").hasMessageContaining("given with aggregate.window")
                .hasMessageContaining("keep one of the two");
        assertThatThrownBy(() -> sessions().slide(Duration.ofMinutes(5)).build(INPUT))
                .hasMessageStartingWith("aggregate.slide: ").hasMessageContaining("given with aggregate.session");
        assertThatThrownBy(() -> sessions().session(Duration.ZERO).build(INPUT)).hasMessageStartingWith("aggregate.session: ")
                .hasMessageContaining("positive duration");
        assertThatThrownBy(() -> AggregateSpec.builder().eventTime("ts").watermark(Duration.ofMinutes(5))
                .session(Duration.ofMinutes(30)).select("t", "sum(amt)").outputMode(OutputMode.APPEND).build(INPUT))
                .hasMessageContaining("Spark refuses a global aggregation with session window in a streaming query");
        assertThatThrownBy(() -> sessions().outputMode(OutputMode.UPDATE).build(INPUT))
                .hasMessageContaining("Invalid streaming output mode: update. This output mode is not supported for session window streaming aggregations on streaming DataFrames/DataSets");
        assertThatThrownBy(() -> sessions().outputMode(OutputMode.COMPLETE).build(INPUT))
                .hasMessageContaining("outputMode: complete is not supported with aggregate.session");
        assertThatThrownBy(() -> sessions().select("f", "first(amt)").build(INPUT))
                .hasMessageStartingWith("aggregate.select.f: first(amt) is not supported with aggregate.session");
    }

    @Test
    void countIfNeedsABooleanAsInSpark() {
        assertThatThrownBy(() -> valid().select("c", "count_if(amt)").build(INPUT))
                .hasMessageContaining("aggregate.select.c: count_if(amt) reads a DOUBLE column; count_if needs a BOOLEAN");
    }

    @Test
    void havingReadsTheOutputColumnsAndHidesTheAggregatesItAlsoNeeds() {
        AggregateSpec spec = valid().having("t > 10 AND count(*) >= 2 AND window.start IS NOT NULL").build(INPUT);
        assertThat(spec.having()).isEqualTo("t > 10 AND `_having_0` >= 2 AND window.start IS NOT NULL");
        assertThat(spec.outputSchema().toDdl()).isEqualTo("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, t DOUBLE");
        assertThat(spec.resultSchema().toDdl()).endsWith("t DOUBLE, _having_0 BIGINT");
        assertThat(spec.aggregates()).hasSize(2);
    }

    @Test
    void aHavingThatIsNotABooleanOverTheOutputIsRefusedNamingTheKey() {
        assertThatThrownBy(() -> valid().having("amt > 1").build(INPUT)).isInstanceOf(TributaryException.class)
                .hasMessageContaining("aggregate.having: expression").hasMessageContaining("no column 'amt'");
        assertThatThrownBy(() -> valid().having("t + 1").build(INPUT))
                .hasMessageContaining("aggregate.having: \"t + 1\" is a DOUBLE, not a BOOLEAN");
        assertThatThrownBy(() -> valid().having("sum(nope) > 1").build(INPUT))
                .hasMessageContaining("aggregate.having: column 'nope' in 'sum(`nope`)' is not in the input schema");
        assertThatThrownBy(() -> valid().having("t > 1").outputMode(OutputMode.COMPLETE).build(INPUT))
                .hasMessageContaining("aggregate.having with outputMode complete").hasMessageContaining("use outputMode update");
    }
}
