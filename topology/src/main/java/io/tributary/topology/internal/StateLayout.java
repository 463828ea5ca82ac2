package io.tributary.topology.internal;

import io.tributary.schema.DataType;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;

/**
 * The bytes of the open-windows store. Key: the window start (microseconds, sign bit flipped so
 * that unsigned byte order is time order) then the group values; so a scan in key order meets
 * the oldest windows first. Value: the marker sequence number of the batch that last updated the
 * entry, then one state per aggregate. A session's entry ({@link OpenSessions}) has the same key, its start
 * in place of the window's, and its end between the sequence number and the states.
 */
final class StateLayout {
    private final DataType[] groupTypes;
    private final Accumulator[] accumulators;
    /** Per aggregate, the accumulator when its state is a whole collection, else null. */
    private final CollectionAccumulator[] collections;
    private final boolean holdsCollections;

    StateLayout(List<DataType> groupTypes, Accumulator[] accumulators) {
        this.groupTypes = groupTypes.toArray(new DataType[0]);
        this.accumulators = accumulators;
        this.collections = new CollectionAccumulator[accumulators.length];
        boolean any = false;
        for (int i = 0; i < accumulators.length; i++) {
            if (accumulators[i] instanceof CollectionAccumulator c) {
                collections[i] = c;
                any = true;
            }
        }
        this.holdsCollections = any;
    }

    /** Whether an aggregate's state is a whole collection: then the open windows hold the states decoded ({@link LiveStates}). */
    boolean holdsCollections() {
        return holdsCollections;
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
        return groupValues(key.get(), 8);
    }

    /** The group values of the group part of a key, {@code groupBytes} from {@code offset}. */
    Object[] groupValues(byte[] groupBytes, int offset) {
        ByteSource in = new ByteSource(groupBytes, offset);
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
        return readStates(new ByteSource(value, 8));
    }

    /** A session's value: the sequence number, the session's end, the states. */
    byte[] sessionValue(long seq, long end, Object[] states) {
        ByteSink out = new ByteSink(16 + 12 * states.length);
        out.writeLong(seq);
        out.writeLong(end);
        for (int i = 0; i < states.length; i++) {
            accumulators[i].write(out, states[i]);
        }
        return out.toByteArray();
    }

    static long sessionEnd(byte[] value) {
        return new ByteSource(value, 8).readLong();
    }

    Object[] sessionStates(byte[] value) {
        return readStates(new ByteSource(value, 16));
    }

    private Object[] readStates(ByteSource in) {
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

    /** As {@link #add}, on states nothing else holds: a collection's state changes in place ({@link CollectionAccumulator}). */
    void addInPlace(Object[] states, Object[] row) {
        for (int i = 0; i < states.length; i++) {
            states[i] = collections[i] != null ? collections[i].addInPlace(states[i], row) : accumulators[i].add(states[i], row);
        }
    }

    /** The states in place as a new batch finds them ({@link Accumulator#nextBatch}). */
    void nextBatch(Object[] states) {
        for (int i = 0; i < states.length; i++) {
            states[i] = accumulators[i].nextBatch(states[i]);
        }
    }

    /** The states of the rows of {@code a} and {@code b} together, {@code a}'s first; a new array. */
    Object[] merge(Object[] a, Object[] b) {
        Object[] out = new Object[a.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = accumulators[i].merge(a[i], b[i]);
        }
        return out;
    }

    Object[] results(Object[] states) {
        Object[] out = new Object[states.length];
        for (int i = 0; i < states.length; i++) {
            out[i] = accumulators[i].result(states[i]);
        }
        return out;
    }
}
