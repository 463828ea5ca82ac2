package io.tributary.topology;

import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.topology.internal.AggregateParser;
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
 * {@code withWatermark(eventTime, watermark).groupBy(window(eventTime, window, slide), groupBy...).agg(...)}
 * with an output mode. Immutable; made by {@link #builder()} and bound to the input schema at
 * {@link Builder#build(Schema)}, which checks it and fails with an error naming the spec key.
 *
 * <p>Windows are Spark's: {@code [start, start + window)} with {@code start} a multiple of
 * {@code slide} (of {@code window} when tumbling) since the epoch; a timestamp falls in every
 * window that contains it.
 */
public final class AggregateSpec {
    private final Schema input;
    private final String eventTime;
    private final int eventTimeIndex;
    private final Duration watermark;
    private final Duration window;
    private final Duration slide;
    private final List<String> groupBy;
    private final int[] groupByIndex;
    private final List<Aggregate> aggregates;
    private final OutputMode outputMode;
    private final Schema outputSchema;

    private AggregateSpec(Builder b, Schema input) {
        this.input = input;
        this.eventTime = input.field(input.require(b.eventTime, "aggregate.eventTime")).name();
        this.eventTimeIndex = input.indexOf(eventTime);
        this.watermark = b.watermark;
        this.window = b.window;
        this.slide = b.slide == null ? b.window : b.slide;
        List<String> names = new ArrayList<>();
        this.groupByIndex = new int[b.groupBy.size()];
        for (int i = 0; i < b.groupBy.size(); i++) {
            String column = b.groupBy.get(i);
            int index = input.indexOf(column);
            if (index < 0) {
                throw new TributaryException("aggregate.groupBy: column '" + column + "' is not in the input schema ("
                        + input.toDdl() + "); group by columns of the source");
            }
            DataType.Kind kind = input.field(index).type().kind();
            if (kind == DataType.Kind.ARRAY || kind == DataType.Kind.MAP) {
                throw new TributaryException("aggregate.groupBy: column '" + column + "' is " + input.field(index).type().ddl()
                        + "; group by columns of primitive or STRUCT types (Spark refuses maps as grouping keys too)");
            }
            groupByIndex[i] = index;
            names.add(input.field(index).name());
        }
        this.groupBy = List.copyOf(names);
        List<Aggregate> parsed = new ArrayList<>();
        for (Map.Entry<String, String> e : b.select.entrySet()) {
            parsed.add(AggregateParser.parse("aggregate.select." + e.getKey(), e.getKey(), e.getValue(), input));
        }
        this.aggregates = List.copyOf(parsed);
        this.outputMode = b.outputMode;
        this.outputSchema = buildOutputSchema();
    }

    public static Builder builder() {
        return new Builder();
    }

    private Schema buildOutputSchema() {
        DataType ts = input.field(eventTimeIndex).type();
        List<Field> fields = new ArrayList<>();
        fields.add(new Field("window", DataType.struct(new Schema(List.of(
                new Field("start", ts, true), new Field("end", ts, true)))), true));
        for (int i : groupByIndex) {
            fields.add(new Field(input.field(i).name(), input.field(i).type(), true));
        }
        Set<String> seen = new HashSet<>();
        fields.forEach(f -> seen.add(f.name().toLowerCase(Locale.ROOT)));
        for (Aggregate a : aggregates) {
            if (!seen.add(a.name().toLowerCase(Locale.ROOT))) {
                throw new TributaryException("aggregate.select." + a.name() + ": the name '" + a.name()
                        + "' is already an output column (window, the groupBy columns and the other aggregates); give it another name");
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

    public Duration window() {
        return window;
    }

    /** The slide; equal to {@link #window()} for tumbling windows. */
    public Duration slide() {
        return slide;
    }

    public boolean isTumbling() {
        return slide.equals(window);
    }

    public List<String> groupBy() {
        return groupBy;
    }

    /** Positions of the groupBy columns in the input schema. */
    public int[] groupByIndex() {
        return groupByIndex.clone();
    }

    public List<Aggregate> aggregates() {
        return aggregates;
    }

    public OutputMode outputMode() {
        return outputMode;
    }

    /**
     * Spark's result schema: {@code window STRUCT<start, end>} (of the event-time column's
     * type), the groupBy columns, then the aggregates by name; every column nullable, as in the
     * Delta table Spark writes.
     */
    public Schema outputSchema() {
        return outputSchema;
    }

    @Override
    public String toString() {
        return "window(" + eventTime + ", " + window + (isTumbling() ? "" : ", " + slide) + ") groupBy " + groupBy
                + " select " + aggregates + " watermark " + watermark + " outputMode " + outputMode.sparkName();
    }

    /** Collects the settings; {@link #build(Schema)} checks them against the input schema. */
    public static final class Builder {
        private String eventTime;
        private Duration watermark;
        private Duration window;
        private Duration slide;
        private final List<String> groupBy = new ArrayList<>();
        private final Map<String, String> select = new LinkedHashMap<>();
        private OutputMode outputMode;

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
                throw new TributaryException("aggregate.select." + name + ": given twice; give each aggregate its own name");
            }
            return this;
        }

        public Builder select(Map<String, String> namedExpressions) {
            namedExpressions.forEach(this::select);
            return this;
        }

        public Builder outputMode(OutputMode mode) {
            this.outputMode = mode;
            return this;
        }

        /** Checks the spec against the input schema and returns it; errors name the spec key and the fix. */
        public AggregateSpec build(Schema input) {
            if (input == null) {
                throw new TributaryException("aggregate: no input schema; give the source a schema, e.g. \"id INT, user STRING, amt DOUBLE, ts TIMESTAMP\"");
            }
            if (eventTime == null || eventTime.isBlank()) {
                throw new TributaryException("aggregate.eventTime: missing; name the TIMESTAMP column that holds event time, e.g. eventTime: ts");
            }
            int ts = input.require(eventTime, "aggregate.eventTime");
            DataType.Kind kind = input.field(ts).type().kind();
            if (kind != DataType.Kind.TIMESTAMP && kind != DataType.Kind.TIMESTAMP_NTZ) {
                throw new TributaryException("aggregate.eventTime: column '" + eventTime + "' is " + input.field(ts).type().ddl()
                        + "; event time must be a TIMESTAMP column; declare it as TIMESTAMP in the source schema");
            }
            checkDurations();
            if (select.isEmpty()) {
                throw new TributaryException("aggregate.select: no aggregates; add at least one, e.g. select: { t: sum(amt) }");
            }
            if (outputMode == null) {
                throw new TributaryException("outputMode: missing; choose append, update or complete");
            }
            if (outputMode == OutputMode.APPEND && watermark == null) {
                throw new TributaryException("outputMode: Invalid streaming output mode: append. This output mode is not supported "
                        + "for streaming aggregations without watermark (as Spark says at start()). Add a watermark to the "
                        + "aggregation (aggregate.watermark, e.g. watermark: 5 minutes) or use outputMode update or complete");
            }
            return new AggregateSpec(this, input);
        }

        private void checkDurations() {
            if (window == null) {
                throw new TributaryException("aggregate.window: missing; give the window size, e.g. window: 10 minutes");
            }
            if (window.isNegative() || window.isZero() || window.toNanos() % 1000 != 0) {
                throw new TributaryException("aggregate.window: " + window + " is not a window size; give a positive duration in whole microseconds, e.g. 10 minutes");
            }
            if (slide != null && (slide.isNegative() || slide.isZero() || slide.toNanos() % 1000 != 0)) {
                throw new TributaryException("aggregate.slide: " + slide + " is not a slide; give a positive duration in whole microseconds, e.g. 5 minutes");
            }
            if (slide != null && slide.compareTo(window) > 0) {
                throw new TributaryException("aggregate.slide: " + slide + " is longer than the window " + window
                        + "; as in Spark, the slide must be less than or equal to the window size");
            }
            if (watermark != null && watermark.isNegative()) {
                throw new TributaryException("aggregate.watermark: " + watermark + " is negative; give a delay of 0 or more, e.g. watermark: 5 minutes");
            }
        }
    }
}
