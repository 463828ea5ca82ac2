package io.tributary.kafka;

import io.tributary.schema.BadRecordException;
import io.tributary.schema.Schema;

/**
 * How a Kafka source's record values become rows when they are Avro, Protobuf or Debezium's change events
 * ({@code source.kafka.format}): the columns, and one record's value decoded into them. Made by
 * {@link KafkaSubscription#of}; one instance serves one reader (it keeps the schemas it fetched).
 */
public interface ValueFormat {
    /** The value's columns, in order; every column nullable, as Spark's Delta table of {@code from_avro(...).*} has them. */
    Schema columns();

    /**
     * The row of a record's value; null when the value holds none (a Debezium tombstone or truncate event).
     *
     * @throws BadRecordException when the value is not one (a malformed value, an unknown schema id):
     *                            the record goes where {@code onBadRecord} says
     */
    Object[] row(String topic, int partition, long offset, byte[] value);
}
