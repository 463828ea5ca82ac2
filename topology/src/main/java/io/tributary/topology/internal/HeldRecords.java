package io.tributary.topology.internal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The source records a task read past the bounds of its batch under {@code maxOffsetsPerTrigger}: Kafka
 * Streams cannot pause a partition from a processor, so they wait here, in a changelogged store of the
 * task, until a batch whose bounds take them in, then go through in offset order. The store is written in
 * the task's transaction with the source offsets it consumed, so a restart finds them here and not in
 * the topic. Keys: {@code topic:partition:offset} with the offset zero-padded (a prefix scan returns
 * them in offset order). How many each partition holds is told to the application's {@link ParkedBacklog}, by which its
 * consumer stops fetching a partition that parks too much: Spark's source reads nothing past a batch's bounds.
 */
final class HeldRecords {
    private static final StringSerializer KEYS = new StringSerializer();
    private final KeyValueStore<String, byte[]> store;
    /** How many records each partition holds, from the store when the task opens. */
    private final Map<TopicPartition, Integer> held = new HashMap<>();
    /** The application's count of what each partition parks: its consumer pauses a partition that parks too much. */
    private final ParkedBacklog backlog;

    /** @param task the task's number: it reads that partition of every source topic */
    HeldRecords(KeyValueStore<String, byte[]> store, ParkedBacklog backlog, int task) {
        this.store = store;
        this.backlog = backlog;
        backlog.forgetTask(task);
        try (KeyValueIterator<String, byte[]> it = store.all()) {
            while (it.hasNext()) {
                String k = it.next().key;
                int last = k.lastIndexOf(':');
                int colon = k.lastIndexOf(':', last - 1);
                held.merge(new TopicPartition(k.substring(0, colon), Integer.parseInt(k.substring(colon + 1, last))), 1, Integer::sum);
            }
        }
        held.forEach(backlog::set);
    }

    /** Whether records of the partition wait here (each at or past the bound of the batch they were read in). */
    boolean holds(TopicPartition tp) {
        return held.getOrDefault(tp, 0) > 0;
    }

    void hold(ConsumerRecord<byte[], byte[]> r) {
        store.put(key(r.topic(), r.partition()) + String.format("%019d", r.offset()), encode(r));
        TopicPartition tp = new TopicPartition(r.topic(), r.partition());
        backlog.set(tp, held.merge(tp, 1, Integer::sum));
    }

    /** Takes out, in offset order, the records of the partition before {@code bound}. */
    List<ConsumerRecord<byte[], byte[]>> takeBefore(TopicPartition tp, long bound) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        if (!holds(tp)) {
            return out;
        }
        List<String> taken = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = store.prefixScan(key(tp.topic(), tp.partition()), KEYS)) {
            while (it.hasNext()) {
                KeyValue<String, byte[]> kv = it.next();
                long offset = Long.parseLong(kv.key.substring(kv.key.lastIndexOf(':') + 1));
                if (offset >= bound) {
                    break;
                }
                out.add(decode(tp, offset, kv.value));
                taken.add(kv.key);
            }
        }
        taken.forEach(store::delete);
        backlog.set(tp, held.merge(tp, -taken.size(), Integer::sum));
        return out;
    }

    private static String key(String topic, int partition) {
        return topic + ":" + partition + ":";
    }

    private static byte[] encode(ConsumerRecord<byte[], byte[]> r) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeLong(r.timestamp());
            writeBytes(out, r.key());
            writeBytes(out, r.value());
            Header[] headers = r.headers().toArray();
            out.writeInt(headers.length);
            for (Header h : headers) {
                out.writeUTF(h.key());
                writeBytes(out, h.value());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static ConsumerRecord<byte[], byte[]> decode(TopicPartition tp, long offset, byte[] value) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
            long timestamp = in.readLong();
            byte[] key = readBytes(in);
            byte[] v = readBytes(in);
            RecordHeaders headers = new RecordHeaders();
            for (int i = in.readInt(); i > 0; i--) {
                headers.add(in.readUTF(), readBytes(in));
            }
            return new ConsumerRecord<>(tp.topic(), tp.partition(), offset, timestamp, TimestampType.CREATE_TIME, -1, -1, key, v, headers,
                    Optional.empty());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
        out.writeInt(b == null ? -1 : b.length);
        if (b != null) {
            out.write(b);
        }
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        int n = in.readInt();
        return n < 0 ? null : in.readNBytes(n);
    }
}
