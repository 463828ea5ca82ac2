package io.tributary.topology.internal;

import io.tributary.schema.DataType;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;

/**
 * The bytes of the open-windows store. Key: the window start (microseconds, sign bit flipped so
 * that unsigned byte order is time order) then the group values; so a scan in key order meets
 * the oldest windows first. Value: the marker sequence number of the batch that last updated the
 * entry, then one state per aggregate.
 */
final class StateLayout {
    private final DataType[] groupTypes;
    private final Accumulator[] accumulators;

    StateLayout(List<DataType> groupTypes, Accumulator[] accumulators) {
        this.groupTypes = groupTypes.toArray(new DataType[0]);
        this.accumulators = accumulators;
    }

    /** The group part of the key, computed once per row. */
    byte[] groupBytes(Object[] groupValues) {
        ByteSink out = new ByteSink(32);
        for (int i = 0; i < groupTypes.length; i++) {
            ValueCodec.write(out, groupTypes[i], groupValues[i]);
        }
        return out.toByteArray();
    }

    static Bytes key(long windowStart, byte[] groupBytes) {
        byte[] k = new byte[8 + groupBytes.length];
        long v = windowStart ^ Long.MIN_VALUE;
        for (int i = 0; i < 8; i++) {
            k[i] = (byte) (v >>> (56 - 8 * i));
        }
        System.arraycopy(groupBytes, 0, k, 8, groupBytes.length);
        return Bytes.wrap(k);
    }

    static long windowStart(Bytes key) {
        return windowStart(key.get());
    }

    static long windowStart(byte[] key) {
        return new ByteSource(key, 0).readLong() ^ Long.MIN_VALUE;
    }

    Object[] groupValues(Bytes key) {
        ByteSource in = new ByteSource(key.get(), 8);
        Object[] values = new Object[groupTypes.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = ValueCodec.read(in, groupTypes[i]);
        }
        return values;
    }

    Object[] zero() {
        Object[] states = new Object[accumulators.length];
        for (int i = 0; i < states.length; i++) {
            states[i] = accumulators[i].zero();
        }
        return states;
    }

    static long seq(byte[] value) {
        return new ByteSource(value, 0).readLong();
    }

    Object[] states(byte[] value) {
        ByteSource in = new ByteSource(value, 8);
        Object[] states = new Object[accumulators.length];
        for (int i = 0; i < states.length; i++) {
            states[i] = accumulators[i].read(in);
        }
        return states;
    }

    byte[] value(long seq, Object[] states) {
        ByteSink out = new ByteSink(8 + 12 * states.length);
        out.writeLong(seq);
        for (int i = 0; i < states.length; i++) {
            accumulators[i].write(out, states[i]);
        }
        return out.toByteArray();
    }

    void add(Object[] states, Object[] row) {
        for (int i = 0; i < states.length; i++) {
            states[i] = accumulators[i].add(states[i], row);
        }
    }

    Object[] results(Object[] states) {
        Object[] out = new Object[states.length];
        for (int i = 0; i < states.length; i++) {
            out[i] = accumulators[i].result(states[i]);
        }
        return out;
    }
}
