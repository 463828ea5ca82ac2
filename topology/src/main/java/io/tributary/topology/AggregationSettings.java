package io.tributary.topology;

import io.tributary.expressions.ExpressionErrors;
import io.tributary.expressions.Having;
import io.tributary.expressions.SelectItems;
import io.tributary.schema.TributaryException;
import io.tributary.settings.Setting;
import io.tributary.settings.Values;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The aggregation's settings under their own names; a spec writes them under {@code aggregate.},
 * and {@link #OUTPUT_MODE} at its top level, as Spark names it. {@link #spec} reads them.
 */
public final class AggregationSettings {
    public static final Setting<String> EVENT_TIME = Setting.string("eventTime", "the event-time column of the aggregation");
    public static final Setting<Duration> WATERMARK = Setting.duration("watermark", "how late data may arrive (Spark's withWatermark"
            + " delay); absent: no row is ever late and no state is dropped (update and complete only, as Spark)");
    public static final Setting<Duration> WINDOW = Setting.duration("window", "the window length (Spark's window(ts, length))");
    public static final Setting<Duration> SLIDE = Setting.duration("slide",
            "the slide of hopping windows (Spark's window(ts, length, slide)); absent: tumbling");
    public static final Setting<Duration> SESSION = Setting.duration("session", "the gap of session windows (Spark's"
            + " session_window(ts, gap)): a session ends a gap after its last row, rows within the gap merge sessions; instead of"
            + " window (append output mode, at least one groupBy column)");
    public static final Setting<String> WINDOW_COLUMN = Setting.string("windowColumn", "the name of the window's column in the table"
            + " (Spark's alias: window(ts, length) AS w, session_window(ts, gap) AS window); absent: window, or session_window for"
            + " session windows, as Spark names them without an alias");
    public static final Setting<List<String>> GROUP_BY = Setting.list("groupBy", "the grouping columns besides the window; also"
            + " Spark SQL expressions with a name, e.g. [user, \"date_trunc('hour', ts) AS hour\"], computed as the rows are"
            + " read (docs/transform.md)");
    public static final Setting<Map<String, String>> SELECT = Setting.map("select",
            "the aggregates by output name: sum(col), count(*), count(col), count_if(cond), min, max, avg, first, last, any_value,"
                    + " stddev, stddev_samp, stddev_pop, variance, var_samp, var_pop, bool_and, bool_or, every, some, collect_list,"
                    + " collect_set, try_sum, try_avg, bit_and, bit_or, bit_xor, skewness, kurtosis and Spark's aliases (mean, std,"
                    + " first_value, last_value, array_agg), or a Spark SQL expression over them and the groupBy columns, e.g. sum(amt) / count(*); an aggregate's"
                    + " argument may be an expression, e.g. sum(amt * qty), computed as the rows are read, inside an"
                    + " expression too (docs/transform.md)");
    public static final Setting<List<String>> COLUMNS = Setting.custom("columns", Setting.Kind.LIST, AggregationSettings::selectItems,
            "the table's columns, as Spark's select list after groupBy: items over the window (and its start and end), the groupBy"
                    + " columns, the aggregates by name and aggregate calls, e.g. [\"window.start AS s\", user, \"round(avg(amt), 2) AS a\"];"
                    + " absent: the window, the groupBy columns, then select (docs/transform.md)");
    public static final Setting<String> HAVING = Setting.string("having", "Spark's HAVING: a Spark SQL predicate over the output"
            + " columns (the window, the groupBy columns, the aggregates by name) and aggregate calls, e.g. \"t > 100 AND count(*) >= 2\";"
            + " a row it does not keep is not written (docs/transform.md)");
    public static final Setting<String> LATE_ROWS = Setting.oneOf("lateRows", "rows later than the watermark: dropped and counted"
            + " (Spark), or also kept in the late-rows topic", "drop", "deadLetter").withDefault("drop");
    public static final Setting<Duration> CLOSE_IDLE = Setting.duration("closeIdleWindowsAfter", "beyond Spark: after this much"
            + " wall-clock time with no new file (a Kafka source: no new record on any partition), close every open window (later"
            + " rows for them are late); absent: windows wait for later events, as in Spark");
    public static final Setting<Integer> STANDBY_REPLICAS = Setting.integer("standbyReplicas", "Kafka Streams' num.standby.replicas:"
            + " warm copies of each aggregation task's state on other instances, so a task that moves does not restore its changelog"
            + " first; absent: 1 when instances share the pipeline (a Kafka cluster and a continuous trigger), else 0").within(0, 10);
    public static final Setting<OutputMode> OUTPUT_MODE = Setting.choice("outputMode", "Spark's output modes of an aggregation",
            (k, v) -> OutputMode.parse(v), "append", "update", "complete").withDefault("append");

    /** The settings under {@code aggregate.}, in the order the documentation lists them. */
    public static final List<Setting<?>> ALL = List.of(EVENT_TIME, WATERMARK, WINDOW, SLIDE, SESSION, WINDOW_COLUMN, GROUP_BY, SELECT, COLUMNS,
            HAVING, LATE_ROWS, CLOSE_IDLE, STANDBY_REPLICAS);

    /** The settings that define an aggregation: any of them given means the pipeline aggregates. */
    private static final List<Setting<?>> DEFINING = List.of(EVENT_TIME, WATERMARK, WINDOW, SLIDE, SESSION, WINDOW_COLUMN, GROUP_BY, SELECT,
            COLUMNS, HAVING, LATE_ROWS, CLOSE_IDLE);

    private AggregationSettings() {
    }

    /** The aggregation {@code values} give over rows of {@code input}, or null when they give none (a raw pipeline). */
    public static AggregateSpec spec(Values values, io.tributary.schema.Schema input) {
        return spec(values, input, null);
    }

    /**
     * As {@link #spec(Values, io.tributary.schema.Schema)}, grouping by the columns {@code groupBy} names when not
     * null: the names of the columns {@link #GROUP_BY}'s items make, some of them computed before the rows get here.
     */
    public static AggregateSpec spec(Values values, io.tributary.schema.Schema input, List<String> groupBy) {
        return spec(values, input, groupBy, null);
    }

    /** As {@link #spec(Values, io.tributary.schema.Schema, List)}, the aggregates {@code select} gives when not null. */
    public static AggregateSpec spec(Values values, io.tributary.schema.Schema input, List<String> groupBy, Map<String, String> select) {
        return spec(values, input, groupBy, select, values.get(COLUMNS), values.get(HAVING));
    }

    /**
     * As {@link #spec(Values, io.tributary.schema.Schema, List, Map)}, with {@code columns} and {@code having} as given (null:
     * none), their aggregate arguments perhaps read from columns computed before the rows get here, as {@code select}'s.
     */
    public static AggregateSpec spec(Values values, io.tributary.schema.Schema input, List<String> groupBy, Map<String, String> select,
                                     List<String> columns, String having) {
        if (DEFINING.stream().noneMatch(values::has) && values.map(SELECT).isEmpty()) {
            return null;
        }
        if (groupBy == null) {
            groupBy = values.get(GROUP_BY);
        }
        if (having != null) { // the aggregate calls the select list makes, as written there
            try {
                having = Having.selectedAsColumns(having, select != null ? select : values.map(SELECT));
            } catch (TributaryException e) {
                throw ExpressionErrors.inSetting(AggregateSpec.HAVING_KEY, e);
            }
        }
        return AggregateSpec.builder()
                .eventTime(values.get(EVENT_TIME))
                .watermark(values.get(WATERMARK))
                .window(values.get(WINDOW))
                .slide(values.get(SLIDE))
                .session(values.get(SESSION))
                .windowColumn(values.get(WINDOW_COLUMN))
                .groupBy(groupBy == null ? List.of() : groupBy)
                .select(select != null ? select : values.map(SELECT))
                .outputMode(values.get(OUTPUT_MODE))
                .having(having)
                .columns(columns)
                .build(input);
    }

    private static List<String> selectItems(String key, String text) {
        try {
            return io.tributary.expressions.SelectItems.split(text);
        } catch (TributaryException e) {
            throw ExpressionErrors.inSetting(key, e);
        }
    }
}
