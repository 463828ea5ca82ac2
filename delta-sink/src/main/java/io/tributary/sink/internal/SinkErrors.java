package io.tributary.sink.internal;

import io.tributary.schema.BadRecordException;
import io.tributary.schema.TributaryException;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.errors.TimeoutException;

/** The delta sink's errors about its settings, its topics and the records in them. */
public final class SinkErrors {
    private SinkErrors() {
    }

    /** When mode upsert's change-data settings (sequenceBy, deleteWhen, exceptColumns) disagree with the others; {@code problem} from SinkChecks. */
    public static TributaryException changeSettingsDisagree(String problem) {
        return new TributaryException(problem);
    }

    /** When deleteWhen is an expression of another type than BOOLEAN. */
    public static TributaryException deleteWhenNotBoolean(String text, String type) {
        return new TributaryException("\"" + text + "\" is " + type + ", and a delete condition needs a BOOLEAN; compare it, e.g. \"op = 'd'\"");
    }

    /** When deleteWhen fails on a change (Spark's ANSI errors: a cast, an overflow), as Spark's MERGE fails the batch. */
    public static TributaryException deleteWhenFailed(String text, String where, TributaryException cause) {
        return new TributaryException("deleteWhen \"" + text + "\" fails on the change at " + where + ": " + cause.getMessage()
                + "; make the condition hold for every change (e.g. try_cast), or fix the record", cause);
    }

    /** When onBadRecord is deadLetter without a dead-letter topic. */
    public static TributaryException noDeadLetterTopic() {
        return new TributaryException("delta sink: onBadRecord deadLetter needs a dead-letter topic");
    }

    /** When onBadRecord is not a policy. */
    public static TributaryException unknownBadRecordPolicy(String name) {
        return new TributaryException("onBadRecord: unknown value '" + name + "'; use deadLetter, drop or fail");
    }

    /** When the sink mode is not a mode. */
    public static TributaryException unknownMode(String text) {
        return new TributaryException("sink.delta.mode is '" + text + "', which is not a sink mode; use append, upsert or "
                + "complete");
    }

    /** When a record of the events topic has no value. */
    public static TributaryException noValue(String topic, int partition, long offset) {
        return new TributaryException("delta sink: topic " + topic + " partition " + partition + " offset " + offset
                + " has no value (a tombstone?); the events topic holds JSON rows in every record");
    }

    /** When a record's binary rows cannot be read (its value was cut short, or its header names nested columns). */
    public static TributaryException unreadableBinaryRows(String topic, int partition, long offset, String why) {
        return new TributaryException("delta sink: topic " + topic + " partition " + partition + " offset " + offset
                + " holds binary rows (header tributary.rows) that cannot be read: " + why
                + "; the file source writes them; a record written by another producer must hold JSON rows without that header");
    }

    /** When a record is not a row of the table and onBadRecord is fail. */
    public static TributaryException badRowFails(String where, String schemaDdl, String whyMessage, String policyKey,
                                                 BadRecordException why) {
        return new TributaryException("delta sink: " + where + " is not a row of the table (" + schemaDdl + "): " + whyMessage
                + "; onBadRecord is fail, so the sink stops before it and nothing of its batch is committed: fix the rows at "
                + "their source, or set " + policyKey + " to deadLetter or drop to set such rows aside", why);
    }

    /** When the dead-letter topic cannot be written. */
    public static TributaryException cannotWriteDeadLetters(String stage, String deadLetterTopic, Throwable cause) {
        return new TributaryException("delta sink " + stage + ": cannot write to dead-letter topic " + deadLetterTopic + ": "
                + cause + "; nothing of the batch is committed, it is read again", cause);
    }

    /** When interrupted while writing to the dead-letter topic. */
    public static TributaryException interruptedWritingDeadLetters(String stage, String deadLetterTopic,
                                                                   InterruptedException cause) {
        return new TributaryException("delta sink " + stage + ": interrupted while writing to dead-letter topic "
                + deadLetterTopic, cause);
    }

    /** When the topic cannot be described. */
    public static TributaryException cannotDescribeTopic(String topic, Throwable cause) {
        return new TributaryException("delta sink: cannot describe topic " + topic + ": " + cause, cause);
    }

    /** When interrupted while describing the topic. */
    public static TributaryException interruptedDescribingTopic(String topic, InterruptedException cause) {
        return new TributaryException("delta sink: interrupted while describing topic " + topic, cause);
    }

    /** When the topic does not exist. */
    public static TributaryException noTopic(String topic, long seconds) {
        return new TributaryException("delta sink: topic " + topic + " does not exist (looked for it for " + seconds
                + " s, the client's default.api.timeout.ms); start the stage that writes it first, or check the pipeline's "
                + "kafka settings");
    }

    /** When interrupted while waiting for the topic's transactions. */
    public static TributaryException interruptedAwaitingTransactions(String topic, InterruptedException cause) {
        return new TributaryException("delta sink: interrupted while waiting for transactions on topic " + topic, cause);
    }

    /** When the topic's end offsets cannot be read. */
    public static TributaryException cannotReadEndOffsets(String topic, Throwable cause) {
        return new TributaryException("delta sink: cannot read the end offsets of topic " + topic + ": " + cause, cause);
    }

    /** When reading the topic stalls; its cause is a Kafka TimeoutException with the same message. */
    public static TributaryException stalled(String message) {
        return new TributaryException(message, new TimeoutException(message));
    }

    /** When offsets the table continues from are no longer in the topic. */
    public static TributaryException dataLoss(Map<?, ?> offsetOutOfRangePartitions, String topic,
                                              OffsetOutOfRangeException cause) {
        return new TributaryException("delta sink: offsets " + offsetOutOfRangePartitions + " of topic " + topic
                + " are no longer (or not yet) in the topic: records the table has not seen were deleted by retention, or the "
                + "topic was truncated. Continuing would silently skip or misplace data; restore the topic, or write to a new "
                + "table", cause);
    }

    /** When the table path, the topic or the appId is missing or blank. */
    public static TributaryException emptyIdentity(String tablePath, String topic, String appId) {
        return new TributaryException("delta sink: table path, topic and appId must not be empty (got path '" + tablePath
                + "', topic '" + topic + "', appId '" + appId + "')");
    }

    /** When maxRowsPerBatch is negative. */
    public static TributaryException negativeMaxRowsPerBatch(int rows) {
        return new TributaryException("delta sink: maxRowsPerBatch is " + rows + "; use 0 (no limit) or a positive number");
    }

    /** When pendingTransactionWait is negative or missing. */
    public static TributaryException negativePendingTransactionWait(Duration wait) {
        return new TributaryException("delta sink: pendingTransactionWait is " + wait + "; use 0 or more");
    }

    /** When rowsPerFile is not positive. */
    public static TributaryException rowsPerFileNotPositive(int rows) {
        return new TributaryException("delta sink: rowsPerFile is " + rows + "; use a positive number");
    }

    /** When targetFileSize is not positive; {@code key} as the user wrote it. */
    public static TributaryException targetFileSizeNotPositive(String key, long bytes) {
        return new TributaryException(key + " is " + bytes + " bytes; use a positive size, e.g. 128m");
    }

    /** When allowedLatency is negative; {@code key} as the user wrote it. */
    public static TributaryException negativeAllowedLatency(String key, Duration latency) {
        return new TributaryException(key + " is " + latency + "; use 0 seconds or more");
    }

    /** When the mode, keys, order and partitionBy do not fit together or the schema; {@code problem} is SinkChecks' first. */
    public static TributaryException settingsDisagree(String problem) {
        return new TributaryException(problem);
    }

    /** failOnDataLoss: retention deleted records of a partition the table had not read yet. */
    public static TributaryException kafkaDataLoss(String topic, int partition, long expected, long earliest) {
        return new TributaryException("kafka source: topic " + topic + " partition " + partition + ": the table's next offset is "
                + expected + " but the earliest offset still in the partition is " + earliest + " (" + (earliest - expected)
                + " records deleted by retention before the table read them); set source.kafka.failOnDataLoss: false to read on"
                + " from " + earliest + " and count them lost");
    }

    /** A Kafka source's row an expression of the transform fails on, as Spark's ANSI mode fails it: the expression and Spark's error class. */
    public static BadRecordException expressionFails(io.tributary.expressions.ExpressionException e) {
        return new BadRecordException(null, "expression \"" + e.expression() + "\" fails: " + e.condition() + ": " + e.reason());
    }

    /** A table version that cannot be read (gone, or not yet written), as Kernel says it. */
    static TributaryException noSuchVersion(io.delta.kernel.exceptions.KernelException e) {
        return new TributaryException(e.getMessage(), e);
    }
}
