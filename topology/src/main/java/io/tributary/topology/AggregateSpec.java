package io.tributary.topology;

import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.expressions.Having;
import io.tributary.topology.internal.AggregateParser;
import io.tributary.topology.internal.HavingColumns;
import io.tributary.topology.internal.ProjectionColumns;
import io.tributary.topology.internal.TopologyErrors;
import io.tributary.topology.internal.WindowChecks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * An event-time windowed aggregation, as Spark writes it:
 * {@code withWatermark(eventTime, watermark).groupBy(window(eventTime, window, slide), groupBy...).agg(...)},
 * or over session windows {@code groupBy(session_window(eventTime, gap), groupBy...)}, with an output mode. Immutable; made by {@link #builder()} and bound to the input schema at
 * {@link Builder#build(Schema)}, which checks it and fails with an error naming the spec key.
 *
 * <p>Windows are Spark's: {@code [start, start + window)} with {@code start} a multiple of
 * {@code slide} (of {@code window} when tumbling) since the epoch; a timestamp falls in every
 * window that contains it. Sessions are Spark's: a row opens {@code [ts, ts + gap)}, and sessions of a
 * group that overlap or touch merge into one, from the earliest start to the latest end.
 */
public final class AggregateSpec {
    /** The spec key of {@link #having()}, as errors name it. */
    public static final String HAVING_KEY = "aggregate.having";
    /** The spec key of {@link Builder#columns}, as errors name it. */
    public static final String COLUMNS_KEY = "aggregate.columns";
    private static final String SELECT_KEY = ProjectionColumns.SELECT_KEY + ".";
    private final Schema input;
    private final String eventTime;
    private final int eventTimeIndex;
    private final Duration watermark;
    private final Duration window;
    private final Duration slide;
    private final Duration session;
    private final String windowColumn;
    private final List<String> groupBy;
    private final int[] groupByIndex;
    private final List<Aggregate> aggregates;
    private final OutputMode outputMode;
    private final Schema outputSchema;
    private final Schema resultSchema;
    private final String having;
    private final List<String> projection;
    private final List<String> projectionKeys;
    private final List<String> keyColumns;

    private AggregateSpec(Builder b, Schema input) {
        this.input = input;
        this.eventTime = input.field(input.require(b.eventTime, "aggregate.eventTime")).name();
        this.eventTimeIndex = input.indexOf(eventTime);
        this.watermark = b.watermark;
        this.window = b.window;
        this.slide = b.slide == null ? b.window : b.slide;
        this.session = b.session;
        this.windowColumn = b.windowColumn != null ? b.windowColumn : session != null ? "session_window" : "window";
        this.groupByIndex = WindowChecks.groupByIndex(input, b.groupBy);
        this.groupBy = java.util.Arrays.stream(groupByIndex).mapToObj(i -> input.field(i).name()).toList();
        List<Aggregate> parsed = new ArrayList<>();
        Map<String, String> calls = new LinkedHashMap<>(); // the select's aggregate calls; its other values are expressions over them
        for (Map.Entry<String, String> e : b.select.entrySet()) {
            if (b.columns == null && !Having.isAggregateCall(e.getValue()) && !AggregateParser.isCall(e.getValue())) {
                continue;
            }
            Aggregate a = AggregateParser.parse(SELECT_KEY + e.getKey(), e.getKey(), e.getValue(), input);
            if (session != null && (a.function().ordered() || a.joining() != null && a.joining().orderBy().isEmpty())) {
                throw TopologyErrors.orderedAggregateInSession(SELECT_KEY + e.getKey(), a.expression());
            }
            parsed.add(a);
            calls.put(e.getKey(), e.getValue());
        }
        this.outputMode = b.outputMode;
        String sparkName = session != null ? "session_window" : "window";
        boolean renamed = !windowColumn.equalsIgnoreCase(sparkName) && groupBy.stream().noneMatch(sparkName::equalsIgnoreCase);
        String predicate = b.having == null || !renamed ? b.having : Having.windowRenamed(b.having, sparkName, windowColumn);
        List<String> columnNames = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        if (b.columns != null || calls.size() < b.select.size()) {
            List<String> plain = new ArrayList<>(List.of(windowColumn));
            plain.addAll(groupBy);
            ProjectionColumns.selectList(b.columns, plain, b.select, calls.keySet(), columnNames, texts, keys);
        }
        texts.replaceAll(t -> renamed ? Having.windowRenamed(t, sparkName, windowColumn) : t);
        Having.Rewritten r = ProjectionColumns.rewrite(HAVING_KEY, predicate, keys, texts, calls);
        r.hidden().forEach((name, call) -> parsed.add(AggregateParser.parse(predicate != null ? HAVING_KEY : keys.get(0), name, call, input)));
        this.aggregates = List.copyOf(parsed);
        this.resultSchema = buildOutputSchema(aggregates);
        List<String> over = r.texts().subList(predicate == null ? 0 : 1, r.texts().size());
        this.projection = texts.isEmpty() ? null : List.copyOf(over);
        this.projectionKeys = List.copyOf(keys);
        this.outputSchema = projection == null ? buildOutputSchema(aggregates.subList(0, calls.size()))
                : ProjectionColumns.schema(columnNames, projection, keys, resultSchema); // a function it does not know is named first
        if (parsed.isEmpty()) {
            throw TopologyErrors.noAggregates();
        }
        this.having = predicate == null ? null : HavingColumns.check(HAVING_KEY, b.having, r.texts().get(0), resultSchema);
        this.keyColumns = outputMode == OutputMode.APPEND ? null : ProjectionColumns.tableKeys(
                resultSchema.fields().subList(0, 1 + groupBy.size()).stream().map(Field::name).toList(), columnNames, projection,
                outputMode.sparkName());
    }

    public static Builder builder() {
        return new Builder();
    }

    private Schema buildOutputSchema(List<Aggregate> aggregates) {
        DataType ts = input.field(eventTimeIndex).type();
        List<Field> fields = new ArrayList<>();
        fields.add(new Field(windowColumn(), DataType.struct(new Schema(List.of(
                new Field("start", ts, true), new Field("end", ts, true)))), true));
        for (int i : groupByIndex) {
            if (input.field(i).name().equalsIgnoreCase(windowColumn)) {
                throw TopologyErrors.windowColumnTaken(windowColumn);
            }
            fields.add(new Field(input.field(i).name(), input.field(i).type(), true));
        }
        Set<String> seen = new HashSet<>();
        fields.forEach(f -> seen.add(f.name().toLowerCase(Locale.ROOT)));
        for (Aggregate a : aggregates) {
            if (!seen.add(a.name().toLowerCase(Locale.ROOT))) {
                throw TopologyErrors.selectNameTaken(a.name());
            }
            fields.add(new Field(a.name(), a.resultType(), true));
        }
        return new Schema(fields);
    }

    /** The input schema this spec was checked against. */
    public Schema inputSchema() {
        return input;
    }

    public String eventTime() {
        return eventTime;
    }

    public int eventTimeIndex() {
        return eventTimeIndex;
    }

    /** The watermark delay, or null when the aggregation has no watermark. */
    public Duration watermark() {
        return watermark;
    }

    public boolean hasWatermark() {
        return watermark != null;
    }

    /** The window length, or null for session windows. */
    public Duration window() {
        return window;
    }

    /** The slide; equal to {@link #window()} for tumbling windows; null for session windows. */
    public Duration slide() {
        return slide;
    }

    public boolean isTumbling() {
        return session == null && slide.equals(window);
    }

    /** The gap of session windows ({@code aggregate.session}), or null for tumbling and hopping windows. */
    public Duration session() {
        return session;
    }

    public boolean isSession() {
        return session != null;
    }

    /**
     * The output column of the window, as Spark names it: its alias ({@code aggregate.windowColumn}), else {@code window}, or
     * {@code session_window} for sessions.
     */
    public String windowColumn() {
        return windowColumn;
    }

    /**
     * How far past an event time the window that holds it may end: the window length, or the session gap (a
     * session ends a gap after its last row), so a watermark that far past the latest event closes every window.
     */
    public Duration span() {
        return session != null ? session : window;
    }

    public List<String> groupBy() {
        return groupBy;
    }

    /** Positions of the groupBy columns in the input schema. */
    public int[] groupByIndex() {
        return groupByIndex.clone();
    }

    /** The aggregates the state computes: the select list's, then those only {@link #having()} reads. */
    public List<Aggregate> aggregates() {
        return aggregates;
    }

    public OutputMode outputMode() {
        return outputMode;
    }

    /**
     * Spark's HAVING over {@link #resultSchema()}: a row it does not keep (false or null) is not written; null for none. Its
     * aggregate calls are the columns that compute them: the select list's, or hidden ones after them ({@link #aggregates()}).
     */
    public String having() {
        return having;
    }

    /** The select list over {@link #resultSchema()}, a text per column of {@link #outputSchema()}; null: the result's first columns. */
    public List<String> projection() {
        return projection;
    }

    /** The spec key of the {@code i}th column of {@link #projection()}, as errors name it. */
    public String projectionKey(int i) {
        return projectionKeys.get(i);
    }

    /** The table's key in update and complete mode: the columns that hold the window and the group-by columns; null in append mode. */
    public List<String> keyColumns() {
        return keyColumns;
    }

    /** The rows the aggregation computes: the window, the groups, the aggregates, then those only HAVING and the select list read. */
    public Schema resultSchema() {
        return resultSchema;
    }

    /**
     * Spark's result schema: {@code window STRUCT<start, end>} ({@code session_window} for sessions; of
     * the event-time column's type), the groupBy columns, then the aggregates by name; every column nullable, as in the
     * Delta table Spark writes.
     */
    public Schema outputSchema() {
        return outputSchema;
    }

    @Override
    public String toString() {
        String w = session != null ? "session_window(" + eventTime + ", " + session + ")"
                : "window(" + eventTime + ", " + window + (isTumbling() ? "" : ", " + slide) + ")";
        return w + " groupBy " + groupBy
                + " select " + aggregates + (having == null ? "" : " having " + having) + " watermark " + watermark
                + " outputMode " + outputMode.sparkName();
    }

    /** Collects the settings; {@link #build(Schema)} checks them against the input schema. */
    public static final class Builder {
        private String eventTime;
        private Duration watermark;
        private Duration window;
        private Duration slide;
        private Duration session;
        private String windowColumn;
        private final List<String> groupBy = new ArrayList<>();
        private final Map<String, String> select = new LinkedHashMap<>();
        private OutputMode outputMode;
        private String having;
        private List<String> columns;

        private Builder() {
        }

        /** The event-time column (TIMESTAMP or TIMESTAMP_NTZ): spec key {@code aggregate.eventTime}. */
        public Builder eventTime(String column) {
            this.eventTime = column;
            return this;
        }

        /** The watermark delay ({@code aggregate.watermark}); null means no watermark. */
        public Builder watermark(Duration delay) {
            this.watermark = delay;
            return this;
        }

        /** The window size ({@code aggregate.window}); tumbling unless {@link #slide} is given. */
        public Builder window(Duration size) {
            this.window = size;
            return this;
        }

        /** The slide of hopping windows ({@code aggregate.slide}); null means tumbling. */
        public Builder slide(Duration slide) {
            this.slide = slide;
            return this;
        }

        /**
         * The name of the window's column ({@code aggregate.windowColumn}, Spark's alias of the window); null means Spark's own:
         * {@code window}, or {@code session_window} for sessions.
         */
        public Builder windowColumn(String name) {
            this.windowColumn = name == null || name.isBlank() ? null : name;
            return this;
        }

        /** The gap of session windows ({@code aggregate.session}); null means none. Excludes {@link #window}. */
        public Builder session(Duration gap) {
            this.session = gap;
            return this;
        }

        public Builder groupBy(String... columns) {
            return groupBy(List.of(columns));
        }

        public Builder groupBy(List<String> columns) {
            groupBy.addAll(columns);
            return this;
        }

        /** Adds the output column {@code name} = {@code expression}, e.g. {@code select("t", "sum(amt)")}. */
        public Builder select(String name, String expression) {
            if (select.putIfAbsent(name, expression) != null) {
                throw TopologyErrors.selectGivenTwice(name);
            }
            return this;
        }

        public Builder select(Map<String, String> namedExpressions) {
            namedExpressions.forEach(this::select);
            return this;
        }

        /**
         * Spark's HAVING ({@code aggregate.having}): a predicate over the output columns and aggregate calls; a call the select
         * list does not make ({@code count(*)}) is computed as a hidden column. Null means none.
         */
        public Builder having(String predicate) {
            this.having = predicate;
            return this;
        }

        /**
         * Spark's select list after the aggregation ({@code aggregate.columns}): the table's columns, items over the window, the
         * groups, the aggregates and aggregate calls; null: the window, the groups, then {@link #select}'s entries.
         */
        public Builder columns(List<String> items) {
            this.columns = items == null || items.isEmpty() ? null : List.copyOf(items);
            return this;
        }

        public Builder outputMode(OutputMode mode) {
            this.outputMode = mode;
            return this;
        }

        /** Checks the spec against the input schema and returns it; errors name the spec key and the fix. */
        public AggregateSpec build(Schema input) {
            if (input == null) {
                throw TopologyErrors.noInputSchema();
            }
            if (eventTime == null || eventTime.isBlank()) {
                throw TopologyErrors.noEventTime();
            }
            int ts = input.require(eventTime, "aggregate.eventTime");
            DataType.Kind kind = input.field(ts).type().kind();
            if (kind != DataType.Kind.TIMESTAMP && kind != DataType.Kind.TIMESTAMP_NTZ) {
                throw TopologyErrors.eventTimeNotTimestamp(eventTime, input.field(ts).type().ddl());
            }
            WindowChecks.durations(window, slide, session, watermark);
            if (select.isEmpty() && columns == null) {
                throw TopologyErrors.noAggregates();
            }
            if (outputMode == null) {
                throw TopologyErrors.noOutputMode();
            }
            if (outputMode == OutputMode.APPEND && watermark == null) {
                throw TopologyErrors.appendWithoutWatermark();
            }
            if (session != null && groupBy.isEmpty()) {
                throw TopologyErrors.sessionWithoutGroupBy();
            }
            if (session != null && outputMode != OutputMode.APPEND) {
                throw TopologyErrors.sessionOutputMode(outputMode.sparkName());
            }
            if (having != null && outputMode == OutputMode.COMPLETE) {
                throw TopologyErrors.havingInCompleteMode(HAVING_KEY);
            }
            return new AggregateSpec(this, input);
        }
    }
}
