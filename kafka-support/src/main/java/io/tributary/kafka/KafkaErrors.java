package io.tributary.kafka;

import io.tributary.schema.TributaryException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/** kafka-support's user-facing errors: topics that cannot be created, listed or read to their end. */
final class KafkaErrors {
    private KafkaErrors() {
    }

    /** When reading a topic to its end makes no progress for too long. */
    static TributaryException noProgress(String reading, long seconds, Map<?, ?> end) {
        return new TributaryException(reading + " made no progress for " + seconds + " s (end offsets " + end + "); is the "
                + "broker reachable?");
    }

    /** When minOffsetsPerTrigger is above maxOffsetsPerTrigger (Spark refuses it too). */
    static TributaryException minOffsetsAboveMax(String minKey, long min, String maxKey, long max) {
        return new TributaryException(minKey + ": " + min + " is above " + maxKey + " (" + max + "): no batch could hold the"
                + " minimum; lower " + minKey + " or raise " + maxKey);
    }

    /** When a topic still has an open transaction after the wait. */
    static TributaryException openTransaction(String topic, long seconds, Map<?, ?> lso, Map<?, ?> hw) {
        return new TributaryException("topic " + topic + " still has an open transaction after " + seconds + " s (committed "
                + "up to " + lso + ", written up to " + hw + "); the transaction coordinator has not finished the last batch: "
                + "run again later");
    }

    /** When interrupted while waiting for a topic to settle. */
    static TributaryException interruptedSettling(String topic, InterruptedException cause) {
        return new TributaryException("interrupted while waiting for topic " + topic + " to settle", cause);
    }

    /** When the broker refuses to create a topic. */
    static TributaryException cannotCreateTopic(String key, String message, Throwable cause) {
        return new TributaryException("cannot create topic " + key + ": " + message, cause);
    }

    /** When creating a topic takes longer than the wait. */
    static TributaryException createTimedOut(String key, long waitSeconds, TimeoutException cause) {
        return new TributaryException("creating topic " + key + " took more than " + waitSeconds + " s; is the broker "
                + "reachable?", cause);
    }

    /** When interrupted while creating a topic. */
    static TributaryException interruptedCreating(String key, InterruptedException cause) {
        return new TributaryException("interrupted while creating topic " + key, cause);
    }

    /** When the broker cannot describe topics just created. */
    static TributaryException cannotDescribeTopics(List<?> wanted, String message, Throwable cause) {
        return new TributaryException("cannot describe topics " + wanted + ": " + message, cause);
    }

    /** When the broker does not serve topics some time after creating them. */
    static TributaryException topicsNotServed(List<?> wanted, long seconds, String lastState) {
        return new TributaryException("the broker still does not serve topics " + wanted + " " + seconds + " s after they "
                + "were created (" + lastState + "); check the cluster's health, then run again");
    }

    /** When interrupted while waiting for the broker to serve new topics. */
    static TributaryException interruptedAwaitingTopics(List<?> wanted, InterruptedException cause) {
        return new TributaryException("interrupted while waiting for the broker to serve topics " + wanted, cause);
    }

    /** When the cluster's topics cannot be listed. */
    static TributaryException cannotListTopics(Throwable cause) {
        return new TributaryException("cannot list the topics of the Kafka cluster: " + cause + "; check bootstrap.servers "
                + "and the client security settings", cause);
    }

    /** When interrupted while listing the cluster's topics. */
    static TributaryException interruptedListing(InterruptedException cause) {
        return new TributaryException("interrupted while listing the topics of the Kafka cluster", cause);
    }

    /** When interrupted while waiting for a topic. */
    static TributaryException interruptedAwaitingTopic(String topic, InterruptedException cause) {
        return new TributaryException("interrupted while waiting for topic " + topic, cause);
    }

    /** When a Kafka source's schema is not a Spark DDL string. */
    static TributaryException badSchema(String key, TributaryException e) {
        return new TributaryException("key '" + key + "': " + e.getMessage(), e);
    }

    /** When a Kafka source's setting has a value it cannot take. */
    static TributaryException badSetting(String key, String text, String why) {
        return new TributaryException("key '" + key + "' is '" + text + "': " + why);
    }

    /** When startingOffsets is neither earliest, latest nor Spark's JSON of offsets per partition. */
    static TributaryException badStartingOffsets(String key, String text, String why) {
        return new TributaryException("key '" + key + "' is '" + text + "': " + why + "; give earliest, latest, or offsets per"
                + " partition as Spark writes them, e.g. {\"orders\":{\"0\":42,\"1\":-2}} (-2 earliest, -1 latest)");
    }

    /** When a Kafka source's JSON values give no column to infer its schema from. */
    static TributaryException nothingToInfer(String topics, long sampled) {
        return new TributaryException("source.kafka.schema is not given, and the " + sampled + " records of " + topics + " up to"
                + " their end offsets hold no JSON object to infer it from; give source.kafka.schema (a DDL string such as"
                + " \"id INT, name STRING\"), or run again once the topics have records");
    }

    /** When startingOffsets gives offsets for some partitions of a topic but not all (Spark's rule). */
    static TributaryException startingOffsetsMissing(List<org.apache.kafka.common.TopicPartition> missing) {
        return new TributaryException("kafka source: startingOffsets gives no offset for " + missing + "; give every partition of"
                + " the topics it names (-2 for earliest, -1 for latest), as Spark's Kafka source requires");
    }
}
