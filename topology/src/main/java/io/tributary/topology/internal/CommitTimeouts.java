package io.tributary.topology.internal;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.metrics.KafkaMetric;

/**
 * The stream threads' producers ({@link ParkingClientSupplier} makes them): a stream thread whose
 * transaction commit timed out stops, rather than go on with the same producer.
 *
 * <p>Under {@code exactly_once_v2}, Kafka Streams 4.4 takes a commit that timed out (the broker
 * away) for corrupted tasks: it closes them dirty and revives them on the same thread, with the
 * same producer, whose timed-out requests ({@code TxnOffsetCommit}, {@code EndTxn}) are still
 * queued. When the broker answers again that old transaction completes while the revived tasks
 * restore their state: a task restored from the changelogs before the old transaction's markers
 * were written, and positioned at the committed offsets after them, has lost the windows that
 * transaction opened and writes again windows already written. Only a new producer with the same
 * transactional id fences the old one: its {@code initTransactions()} completes or aborts the old
 * transaction before any task restores. So a timeout of {@code sendOffsetsToTransaction} or {@code commitTransaction} is
 * turned into an error Kafka Streams does not retry: the thread dies with its producer, and
 * {@link StreamsApp} starts a new instance (a Kafka error: the timeout is the cause), whose
 * producer settles the old transaction before its tasks restore.
 */
final class CommitTimeouts {
    private CommitTimeouts() {
    }

    /** The error a commit's timeout becomes: a Kafka error, not retriable by Kafka Streams, the timeout as its cause. */
    static final class CommitTimedOut extends KafkaException {
        CommitTimedOut(String step, TimeoutException cause) {
            super(step + " timed out (Kafka did not answer): the stream thread stops, so that no task of it goes on"
                    + " with a transaction that may still complete", cause);
        }
    }

    /** A producer whose commit steps fail with {@link CommitTimedOut} instead of a timeout. */
    static final class StopOnCommitTimeout implements Producer<byte[], byte[]> {
        private final Producer<byte[], byte[]> producer;

        StopOnCommitTimeout(Producer<byte[], byte[]> producer) {
            this.producer = producer;
        }

        @Override
        public void sendOffsetsToTransaction(Map<TopicPartition, OffsetAndMetadata> offsets, ConsumerGroupMetadata group) {
            try {
                producer.sendOffsetsToTransaction(offsets, group);
            } catch (TimeoutException e) {
                throw new CommitTimedOut("sending the consumed offsets to the transaction", e);
            }
        }

        @Override
        public void commitTransaction() {
            try {
                producer.commitTransaction();
            } catch (TimeoutException e) {
                throw new CommitTimedOut("committing the transaction", e);
            }
        }

        @Override
        public void initTransactions() {
            producer.initTransactions();
        }

        @Override
        public void beginTransaction() {
            producer.beginTransaction();
        }

        @Override
        public void abortTransaction() {
            producer.abortTransaction();
        }

        @Override
        public void registerMetricForSubscription(KafkaMetric metric) {
            producer.registerMetricForSubscription(metric);
        }

        @Override
        public void unregisterMetricFromSubscription(KafkaMetric metric) {
            producer.unregisterMetricFromSubscription(metric);
        }

        @Override
        public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record) {
            return producer.send(record);
        }

        @Override
        public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
            return producer.send(record, callback);
        }

        @Override
        public void flush() {
            producer.flush();
        }

        @Override
        public List<PartitionInfo> partitionsFor(String topic) {
            return producer.partitionsFor(topic);
        }

        @Override
        public Map<MetricName, ? extends Metric> metrics() {
            return producer.metrics();
        }

        @Override
        public Uuid clientInstanceId(Duration timeout) {
            return producer.clientInstanceId(timeout);
        }

        @Override
        public void close() {
            producer.close();
        }

        @Override
        public void close(Duration timeout) {
            producer.close(timeout);
        }
    }
}
