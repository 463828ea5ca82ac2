package io.tributary.topology.internal;

import io.tributary.schema.BadRecordException;
import io.tributary.schema.TributaryException;

/** The messages of an aggregation or deduplication over a Kafka source ({@code source.kafka}). */
public final class KafkaSourceErrors {
    private KafkaSourceErrors() {
    }

    static TributaryException badBatchRecord(String text, Exception cause) {
        return new TributaryException("a record of the aggregation's batches topic is not one: " + text
                + "; the topic is the stage's own: delete it only with the application's state", cause);
    }

    static TributaryException badValueFails(String where, String schemaDdl, BadRecordException why) {
        return new TributaryException(where + ": the value is not a row of " + schemaDdl + ": " + why.getMessage()
                + " (source.kafka.onBadRecord: fail); fix or skip the record, or set onBadRecord to deadLetter or drop", why);
    }

    static BadRecordException expressionFails(io.tributary.expressions.ExpressionException e) {
        return new BadRecordException(null, "expression \"" + e.expression() + "\" fails: " + e.condition() + ": " + e.reason());
    }

    static TributaryException batchDidNotEnd(String applicationId, long batchId, long minutes, Object missing) {
        return new TributaryException("aggregation " + applicationId + ": batch " + batchId + " did not end on every task within "
                + minutes + " minutes (tasks still in it: " + missing + "); is every instance of the pipeline running?", null);
    }

    static TributaryException cannotReadSource(String what, Throwable cause) {
        return new TributaryException("aggregation over a Kafka source: cannot read " + what + ": " + cause.getMessage()
                + "; is the broker reachable and the topic there?", cause);
    }

    static TributaryException interrupted(InterruptedException cause) {
        return new TributaryException("aggregation over a Kafka source: interrupted while waiting for Kafka", cause);
    }
}
