package io.tributary.kafka.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Spark's Kafka source columns of a record ({@code key}, {@code value}, {@code topic},
 * {@code partition}, {@code offset}, {@code timestamp}, {@code timestampType}, {@code headers}),
 * in the representation of {@code DataType}: BINARY {@code byte[]}, TIMESTAMP microseconds,
 * {@code timestampType} Kafka's id (0 CreateTime, 1 LogAppendTime), {@code headers} a list of
 * {@code [key, value]} structs, null when the record has none (as Spark).
 */
public final class SourceColumns {
    private SourceColumns() {
    }

    /** format bytes: key, value, topic, partition, offset, timestamp, timestampType. */
    public static Object[] bytesRow(ConsumerRecord<byte[], byte[]> r) {
        return new Object[] {r.key(), r.value(), r.topic(), r.partition(), r.offset(), r.timestamp() * 1000, r.timestampType().id};
    }

    /** {@code row}, then (with {@code kafkaColumns}) key, topic, partition, offset, timestamp, timestampType, then headers. */
    public static Object[] withMetadata(Object[] row, ConsumerRecord<byte[], byte[]> r, boolean kafkaColumns) {
        int n = row.length;
        Object[] out = Arrays.copyOf(row, n + (kafkaColumns ? 7 : 1));
        if (kafkaColumns) {
            out[n++] = r.key();
            out[n++] = r.topic();
            out[n++] = r.partition();
            out[n++] = r.offset();
            out[n++] = r.timestamp() * 1000;
            out[n++] = r.timestampType().id;
        }
        out[n] = headers(r);
        return out;
    }

    private static List<Object> headers(ConsumerRecord<byte[], byte[]> r) {
        List<Object> headers = new ArrayList<>();
        for (Header h : r.headers()) {
            headers.add(new Object[] {h.key(), h.value()});
        }
        return headers.isEmpty() ? null : headers;
    }
}
