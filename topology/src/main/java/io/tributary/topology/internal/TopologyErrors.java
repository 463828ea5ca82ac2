package io.tributary.topology.internal;

import io.tributary.schema.BadRecordException;
import io.tributary.schema.DataType;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.streams.KafkaStreams;

/** The topology's user-facing errors: an aggregation spec that cannot run, a Kafka Streams application that stopped, an events topic it cannot read. */
public final class TopologyErrors {
    private TopologyErrors() {
    }

    /** When a groupBy column is not in the input schema. */
    public static TributaryException groupByNotInSchema(String column, String ddl) {
        return new TributaryException("aggregate.groupBy: column '" + column + "' is not in the input schema (" + ddl
                + "); group by columns of the source");
    }

    /** When a groupBy column is of a type rows cannot be grouped by. */
    public static TributaryException groupByNotGroupable(String column, String ddl) {
        return new TributaryException("aggregate.groupBy: column '" + column + "' is " + ddl + "; group by columns of "
                + "primitive or STRUCT types (Spark refuses maps as grouping keys too)");
    }

    /** When an aggregate's name is already an output column. */
    /** When HAVING's predicate is not a BOOLEAN, as Spark refuses it (DATATYPE_MISMATCH). */
    public static TributaryException havingNotBoolean(String key, String predicate, String type) {
        return new TributaryException(key + ": \"" + predicate + "\" is a " + type + ", not a BOOLEAN; HAVING keeps the rows for which"
                + " a condition holds, e.g. \"t > 100\" or \"count(*) >= 2\"");
    }

    /** When HAVING is given in complete mode, whose upserts would keep a row HAVING drops after it was written. */
    public static TributaryException havingInCompleteMode(String key) {
        return new TributaryException(key + " with outputMode complete: the table is upserted, so a row written in one batch"
                + " and dropped by HAVING in a later one would stay, where Spark's complete mode rewrites the table without it; use"
                + " outputMode update (the rows HAVING keeps, as Spark's foreachBatch MERGE) or filter when reading the table");
    }

    /** When HAVING fails on a group's row as Spark's ANSI mode fails the query (a division by zero, an overflow). */
    public static TributaryException havingFailed(String key, String predicate, String group, String failure, String where,
            RuntimeException cause) {
        return new TributaryException(key + " \"" + predicate + "\" failed on the group " + group + ": " + failure + " (closing at "
                + where + "); Spark fails the query too; guard the predicate (try_divide, CASE WHEN ...) and run again", cause);
    }

    /** When a column of the select list fails on a group's row as Spark's ANSI mode fails the query (a division by zero, an overflow). */
    public static TributaryException columnFailed(String key, String expression, String group, String failure, String where,
            RuntimeException cause) {
        return new TributaryException(key + " \"" + expression + "\" failed on the group " + group + ": " + failure + " (writing at "
                + where + "); Spark fails the query too; guard the expression (try_divide, CASE WHEN ...) and run again", cause);
    }

    /** When two columns of the select list have the same name. */
    public static TributaryException columnNameTaken(String key, String name) {
        return new TributaryException(key + ": the name '" + name + "' is already a column of the table; give it another name (AS ...)");
    }

    /** When a column of the select list has no type (a bare NULL). */
    public static TributaryException columnWithoutType(String key, String name) {
        return new TributaryException(key + ": the column '" + name + "' has no type; give it one: CAST(NULL AS STRING) AS " + name);
    }

    /** When update or complete mode's table key (the window, a group-by column) is not a column of the select list. */
    public static TributaryException keyNotSelected(String column, String mode) {
        return new TributaryException("outputMode " + mode + ": the select list does not have the column '" + column + "' as it is;"
                + " the table is upserted by the window and the group-by columns (Spark's foreachBatch MERGE matches on them too), so a"
                + " row of one group would overwrite another's: select " + column + " (a name of your own with AS is fine), or use append mode");
    }

    public static TributaryException selectNameTaken(String name) {
        return new TributaryException("aggregate.select." + name + ": the name '" + name + "' is already an output column "
                + "(the window, the groupBy columns and the other aggregates); give it another name");
    }

    /** When the window's column is named as a groupBy column. */
    public static TributaryException windowColumnTaken(String name) {
        return new TributaryException("aggregate.windowColumn: the window's name '" + name + "' is a groupBy column too; the table"
                + " cannot have two columns of one name: name the window otherwise (AS w)");
    }

    /** When an aggregate's name is given twice. */
    public static TributaryException selectGivenTwice(String name) {
        return new TributaryException("aggregate.select." + name + ": given twice; give each aggregate its own name");
    }

    /** When the aggregation has no input schema. */
    public static TributaryException noInputSchema() {
        return new TributaryException("aggregate: no input schema; give the source a schema, e.g. \"id INT, user STRING, amt "
                + "DOUBLE, ts TIMESTAMP\"");
    }

    /** When the aggregation names no event-time column. */
    public static TributaryException noEventTime() {
        return new TributaryException("aggregate.eventTime: missing; name the TIMESTAMP column that holds event time, e.g. "
                + "eventTime: ts");
    }

    /** When the event-time column is not a TIMESTAMP. */
    public static TributaryException eventTimeNotTimestamp(String eventTime, String ddl) {
        return new TributaryException("aggregate.eventTime: column '" + eventTime + "' is " + ddl + "; event time must be a "
                + "TIMESTAMP column; declare it as TIMESTAMP in the source schema");
    }

    /** When the aggregation selects no aggregates. */
    public static TributaryException noAggregates() {
        return new TributaryException("aggregate.select: no aggregates; add at least one, e.g. select: { t: sum(amt) }");
    }

    /** When no output mode is given. */
    public static TributaryException noOutputMode() {
        return new TributaryException("outputMode: missing; choose append, update or complete");
    }

    /** When output mode append is asked of an aggregation without a watermark. */
    public static TributaryException appendWithoutWatermark() {
        return new TributaryException("outputMode: Invalid streaming output mode: append. This output mode is not supported "
                + "for streaming aggregations without watermark (as Spark says at start()). Add a watermark to the "
                + "aggregation (aggregate.watermark, e.g. watermark: 5 minutes) or use outputMode update or complete");
    }

    /** When the aggregation gives neither a window size nor a session gap. */
    public static TributaryException noWindow() {
        return new TributaryException("aggregate.window: missing; give the window size, e.g. window: 10 minutes, or the gap "
                + "of session windows, e.g. session: 30 minutes");
    }

    /** When the aggregation gives both a window size and a session gap. */
    public static TributaryException windowAndSession(Duration window, Duration gap) {
        return new TributaryException("aggregate.session: " + gap + " given with aggregate.window " + window + "; an "
                + "aggregation groups by one window (Spark's window(ts, length) or session_window(ts, gap)): keep one of the two");
    }

    /** When a slide is given with session windows. */
    public static TributaryException slideWithSession(Duration slide) {
        return new TributaryException("aggregate.slide: " + slide + " given with aggregate.session; a slide is for hopping "
                + "windows (aggregate.window), sessions have none: remove it");
    }

    /** When the session gap is not a positive number of whole microseconds. */
    public static TributaryException badSessionGap(Duration gap) {
        return new TributaryException("aggregate.session: " + gap + " is not a session gap; give a positive duration in "
                + "whole microseconds, e.g. 30 minutes");
    }

    /** When session windows are asked without a group-by column. */
    public static TributaryException sessionWithoutGroupBy() {
        return new TributaryException("aggregate.groupBy: missing with aggregate.session; Spark refuses a global aggregation "
                + "with session window in a streaming query: group by at least one column, e.g. groupBy: [user]");
    }

    /** When session windows are asked in an output mode Spark or Tributary does not run them in. */
    public static TributaryException sessionOutputMode(String mode) {
        String why = mode.equals("update")
                ? "Spark refuses it: \"Invalid streaming output mode: update. This output mode is not supported for session "
                        + "window streaming aggregations on streaming DataFrames/DataSets\""
                : "Tributary writes complete results by upserting rows, and a session that merges into another leaves the "
                        + "result table, so complete mode would keep stale sessions";
        return new TributaryException("outputMode: " + mode + " is not supported with aggregate.session; " + why
                + ". Use outputMode append (each session once, when the watermark passes its end)");
    }

    /** When first or last is asked of session windows. */
    public static TributaryException orderedAggregateInSession(String key, String expression) {
        return new TributaryException(key + ": " + expression + " is not supported with aggregate.session: Spark's value "
                + "depends on the order in which it merges sessions; use min, max or an aggregate that does not depend on order");
    }

    /** When the window size is not a positive number of whole microseconds. */
    public static TributaryException badWindow(Duration window) {
        return new TributaryException("aggregate.window: " + window + " is not a window size; give a positive duration in "
                + "whole microseconds, e.g. 10 minutes");
    }

    /** When the slide is not a positive number of whole microseconds. */
    public static TributaryException badSlide(Duration slide) {
        return new TributaryException("aggregate.slide: " + slide + " is not a slide; give a positive duration in whole "
                + "microseconds, e.g. 5 minutes");
    }

    /** When the slide is longer than the window. */
    public static TributaryException slideLongerThanWindow(Duration slide, Duration window) {
        return new TributaryException("aggregate.slide: " + slide + " is longer than the window " + window + "; as in Spark, "
                + "the slide must be less than or equal to the window size");
    }

    /** When the watermark delay is negative. */
    public static TributaryException negativeWatermark(Duration watermark) {
        return new TributaryException("aggregate.watermark: " + watermark + " is negative; give a delay of 0 or more, e.g. "
                + "watermark: 5 minutes");
    }

    /** When the topology is built without a spec, an events topic or a results topic. */
    public static TributaryException incompleteTopology() {
        return new TributaryException("aggregate: the topology needs a spec, an events topic and a results topic");
    }

    /** When the streams settings lack an application id, bootstrap servers, a state directory or an instance id. */
    public static TributaryException incompleteStreamsSettings() {
        return new TributaryException("aggregate: streams settings need an application id, bootstrap servers, a state "
                + "directory and an instance id");
    }

    /** When the events topic does not exist. */
    public static TributaryException noEventsTopic(String eventsTopic, long seconds) {
        return new TributaryException("the aggregation: topic " + eventsTopic + " does not exist (looked for it for " + seconds
                + " s); start the stage that writes it first, or check the pipeline's kafka settings");
    }

    /** When the aggregation does not catch up with its events topic in time. */
    public static TributaryException didNotCatchUp(String eventsTopic, long minutes, Map<?, ?> now, Map<?, ?> end) {
        return new TributaryException("the aggregation did not catch up with " + eventsTopic + " within " + minutes
                + " minutes (committed " + now + ", end " + end + ")");
    }

    /** When interrupted while waiting. */
    public static TributaryException interrupted(InterruptedException cause) {
        return new TributaryException("interrupted", cause);
    }

    /** When an output mode's text is not an output mode. */
    public static TributaryException badOutputMode(String text) {
        return new TributaryException("outputMode: '" + text + "' is not an output mode; use append, update or complete");
    }

    /** When the Kafka Streams application does not start. */
    public static TributaryException didNotStart(String applicationId, KafkaStreams.State state) {
        return new TributaryException("the aggregation (Kafka Streams application " + applicationId + ") did not start: state "
                + state + "; see the log above");
    }

    /** When the Kafka Streams application stopped. */
    public static TributaryException stopped(String applicationId, KafkaStreams.State state, TributaryException failure) {
        if (failure != null) {
            return new TributaryException("the aggregation (Kafka Streams application " + applicationId + ") stopped: "
                    + failure.getMessage(), failure);
        }
        return new TributaryException("the aggregation (Kafka Streams application " + applicationId + ") stopped: state "
                + state + "; see the log above");
    }

    /** When an aggregate has no expression. */
    public static TributaryException noExpression(String key) {
        return new TributaryException(key + ": no expression; write e.g. sum(amt) or count(*)");
    }

    /** When an aggregate's expression is not one function of one column. */
    public static TributaryException unreadableExpression(String key, String expression, String functions) {
        return new TributaryException(key + ": cannot read '" + expression + "'; write one function of one column, e.g. "
                + "sum(amt), or count(*); supported: " + functions);
    }

    /** When an aggregate is given another number of arguments than it takes. */
    public static TributaryException wrongArgumentCount(String key, String expression, String sqlName, int arity) {
        return new TributaryException(key + ": " + sqlName + " takes " + (arity == 2 ? "two arguments" : "one argument") + ", not as in '"
                + expression + "'; write e.g. " + sqlName + (arity == 2 ? "(user, amt)" : "(amt)"));
    }

    /** When an aggregate other than count takes *. */
    public static TributaryException starNotAggregate(String key, String sqlName) {
        return new TributaryException(key + ": " + sqlName + "(*) is not an aggregate; only count(*) takes *, give " + sqlName
                + " a column, e.g. " + sqlName + "(amt)");
    }

    /** When an aggregate reads a column the input schema does not have. */
    public static TributaryException aggregateColumnNotInSchema(String key, String column, String expression, String ddl) {
        return new TributaryException(key + ": column '" + column + "' in '" + expression + "' is not in the input schema ("
                + ddl + "); use one of its columns");
    }

    /** When an aggregate's function is not one Tributary knows. */
    public static TributaryException unknownFunction(String key, String text, String expression, String functions) {
        return new TributaryException(key + ": unknown aggregate function '" + text + "' in '" + expression + "'; use one of "
                + functions);
    }

    /** When an aggregate reads a column of a non-primitive type. */
    public static TributaryException nonPrimitiveAggregate(String key, String expression, DataType.Kind kind) {
        return new TributaryException(key + ": " + expression + " reads a " + kind + " column; aggregate a column of a "
                + "primitive type");
    }

    /** When sum, avg, a moment or a regression reads a column that is not numeric (Spark's DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE). */
    public static TributaryException notNumeric(String key, String expression, String ddl, String sqlName) {
        return new TributaryException(key + ": " + expression + " reads a " + ddl + " column; " + sqlName + " needs a numeric "
                + "column (TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE or DECIMAL), as Spark 4.2 does (DATATYPE_MISMATCH"
                + ".UNEXPECTED_INPUT_TYPE); change the column's type in the source schema, cast it in the select list or use count, "
                + "min, max, first, last or collect_list");
    }

    /** When bit_and, bit_or or bit_xor reads a column that is not integral. */
    public static TributaryException notIntegral(String key, String expression, String ddl, String sqlName) {
        return new TributaryException(key + ": " + expression + " reads a " + ddl + " column; " + sqlName + " needs an integral "
                + "argument (TINYINT, SMALLINT, INT or BIGINT, as Spark's DATATYPE_MISMATCH says), e.g. " + sqlName + "(CAST(amt AS BIGINT))");
    }

    /** When vector_sum or vector_avg reads anything but ARRAY&lt;FLOAT&gt; (Spark's DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE). */
    public static TributaryException notFloatArray(String key, String expression, String ddl, String sqlName) {
        return new TributaryException(key + ": " + expression + " reads a " + ddl + " column; " + sqlName + " needs an ARRAY<FLOAT> "
                + "(DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE), e.g. " + sqlName + "(CAST(v AS ARRAY<FLOAT>))");
    }

    /** When schema_of_variant_agg reads a column the source did not compute of a VARIANT (Spark: UNEXPECTED_INPUT_TYPE). */
    public static TributaryException notVariant(String key, String expression, String ddl) {
        return new TributaryException(key + ": " + expression + " reads a " + ddl + " column; schema_of_variant_agg needs a VARIANT"
                + " (DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE), e.g. schema_of_variant_agg(parse_json(js))");
    }

    /** When approx_count_distinct's second argument is not a literal number with a fraction, as Spark requires. */
    public static TributaryException relativeSdNotLiteral(String key, String expression, String rsd) {
        return new TributaryException(key + ": " + expression + ": the second argument should be a double literal (Spark's "
                + "_LEGACY_ERROR_TEMP_1104), not '" + rsd + "'; write the relative standard deviation as 0.05 (Spark's default) or 1e-2");
    }

    /** When approx_count_distinct's relative standard deviation gives a precision outside 4 to 18. */
    public static TributaryException relativeSdOutOfRange(String key, String expression, String rsd, int p) {
        return new TributaryException(key + ": " + expression + ": the relative standard deviation " + rsd + " needs "
                + p + " bits of HyperLogLog++ precision; " + (p < 4 ? "Spark's HLL++ requires at least 4 bits for addressing: "
                + "use a lower error, at most 39%" : "Tributary keeps at most 18 bits (2^18 registers a group): use 0.0022 or more"));
    }

    /** When approx_count_distinct reads a column Spark cannot hash. */
    public static TributaryException notHashable(String key, String expression, String ddl) {
        return new TributaryException(key + ": " + expression + " reads a " + ddl + " column, which Spark's hash does not take; "
                + "count the distinct values of a column of another type");
    }

    /** When count_if, bool_and or bool_or reads a column that is not BOOLEAN. */
    public static TributaryException notBoolean(String key, String expression, String ddl, String sqlName) {
        return new TributaryException(key + ": " + expression + " reads a " + ddl + " column; " + sqlName + " needs a BOOLEAN "
                + "argument (as Spark's DATATYPE_MISMATCH says), e.g. " + sqlName + "(amt > 100) with a file source");
    }

    /** When a BIGINT sum overflows. */
    public static TributaryException sumOverflowedLong(String name) {
        return new TributaryException("aggregate.select." + name + ": [ARITHMETIC_OVERFLOW] sum overflowed BIGINT (as Spark's ANSI mode fails); "
                + "cast the column to DECIMAL(38,0) in the source schema, or DOUBLE if approximate sums will do");
    }

    /** When an aggregate's DECIMAL value does not fit its type, as Spark's ANSI mode fails the query. */
    public static TributaryException decimalOutOfRange(String name, String value, int precision, int scale) {
        return new TributaryException("aggregate.select." + name + ": [NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION] " + value
                + " cannot be represented as Decimal(" + precision + ", " + scale + ") (as Spark's ANSI mode fails the query); use a"
                + " DOUBLE column, or a DECIMAL of fewer whole digits, where the mean may be larger");
    }

    /** When a DECIMAL sum overflows. */
    public static TributaryException sumOverflowedDecimal(String name, String ddl) {
        return new TributaryException("aggregate.select." + name + ": [ARITHMETIC_OVERFLOW] sum overflowed " + ddl + " (as Spark's ANSI mode "
                + "fails); use a DOUBLE column if approximate sums will do");
    }

    /** When a watermark marker has no batchId. */
    public static TributaryException markerWithoutBatchId(String where, String marker) {
        return new TributaryException(where + ": a watermark marker without a batchId ('" + marker + "'); markers are written "
                + "by file-ingest as {\"batchId\":N,\"watermarkMs\":W}: check that the ingest and topology versions match");
    }

    /** When a watermark marker is not JSON. */
    public static TributaryException markerNotJson(String where, String message, IOException cause) {
        return new TributaryException(where + ": a watermark marker that is not JSON (" + message + "); markers are written "
                + "by file-ingest as {\"batchId\":N,\"watermarkMs\":W}", cause);
    }

    /** When a batch ends without the marker file-ingest writes; {@code what} says what is missing. */
    public static TributaryException noMarkers(String what) {
        return new TributaryException(what + ". file-ingest writes a marker at the end of every batch: an events topic "
                + "written by another program or by an older Tributary may lack them. Nothing is lost (the rows wait in the "
                + "topic or the aggregation's state): add an input file and run again, its batch's marker ends them too");
    }

    /** An events record whose binary rows ({@code tributary.rows}) cannot be read. */
    public static TributaryException unreadableBinaryEvents(String where, String message) {
        return new TributaryException(where + ": an events record of binary rows that cannot be read (" + message + "); the events "
                + "topic holds rows file-ingest wrote: check that no other producer writes to it, or start on a new events topic");
    }

    /** When an event does not fit the input schema. */
    public static TributaryException eventDoesNotFit(String where, String message, BadRecordException cause) {
        return new TributaryException(where + ": an event that does not fit the input schema (" + message + "); the events "
                + "topic holds rows file-ingest checked against the same schema: check that the pipeline's schema did not "
                + "change without a new events topic", cause);
    }

    /** When an argument Spark casts for the aggregate ({@code stddev} of a STRING) does not cast, as Spark's query fails. */
    static TributaryException castFailed(String name, String expression, io.tributary.expressions.ExpressionException e) {
        return new TributaryException("aggregate.select." + name + ": " + expression + " fails: [" + e.condition() + "] " + e.reason()
                + "; filter such rows out or cast the column with try_cast in the source's select");
    }
}
