package io.tributary.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.streams.errors.MissingSourceTopicException;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

/** Which errors that kill a stream thread start the aggregation again, and which stop it. */
class StreamThreadErrorsTest {

    @Test
    void kafkaErrorsWhileTheBrokerIsAwayStartItAgain() {
        assertThat(StreamsApp.kafkaTrouble(new StreamsException("send failed", new TimeoutException("Expiring 2 record(s)")))).isTrue();
        assertThat(StreamsApp.kafkaTrouble(new StreamsException("add offsets failed", new KafkaException("error state",
                new KafkaException("The client hasn't received acknowledgment for some previously sent messages"))))).isTrue();
        IllegalStateException abortTimedOut = new IllegalStateException(
                "Cannot attempt operation `beginTransaction` because the previous call to `abortTransaction` timed out and must be retried");
        abortTimedOut.setStackTrace(new StackTraceElement[] {
            new StackTraceElement(KafkaProducer.class.getName(), "beginTransaction", "KafkaProducer.java", 1)});
        assertThat(StreamsApp.kafkaTrouble(new StreamsException("process failed", abortTimedOut))).isTrue();
        // a rebalance on a loaded broker whose metadata did not yet show the events topic the stage waited for
        assertThat(StreamsApp.kafkaTrouble(new MissingSourceTopicException("One or more source topics were missing during rebalance")))
                .isTrue();
    }

    @Test
    void errorsOfTheTopologyOrRefusalsStopIt() {
        assertThat(StreamsApp.kafkaTrouble(new StreamsException("process failed", new NullPointerException()))).isFalse();
        assertThat(StreamsApp.kafkaTrouble(new StreamsException("process failed", new IllegalStateException("a bug of ours")))).isFalse();
        assertThat(StreamsApp.kafkaTrouble(new StreamsException("no rights", new TopicAuthorizationException("results")))).isFalse();
        assertThat(StreamsApp.kafkaTrouble(new StreamsException("bad bytes", new SerializationException("x")))).isFalse();
        assertThat(StreamsApp.kafkaTrouble(new StreamsException("the topology failed"))).isFalse();
    }
}
