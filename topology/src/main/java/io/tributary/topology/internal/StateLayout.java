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
    /** The source the in-place decodings read with (the layout serves one task's thread). */
    private final ByteSource source = new ByteSource(new byte[0], 0);
    /** What {@link #groupBytesReused} encodes into, and its arrays by length. */
    private final ByteSink groupSink = new ByteSink(64);
    private final byte[][] groupArrays = new byte[128][];

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
        groupBytes(out, groupValues);
        return out.toByteArray();
    }

    /**
     * {@link #groupBytes(Object[])} in an array the next call of the same length reuses: for a caller that copies it
     * before that (the time windows' key), not one that keeps it (the sessions').
     */
    byte[] groupBytesReused(Object[] groupValues) {
        groupBytes(groupSink, groupValues);
        int n = groupSink.size();
        if (n >= groupArrays.length) {
            return groupSink.toByteArray();
        }
        if (groupArrays[n] == null) {
            groupArrays[n] = new byte[n];
        }
        System.arraycopy(groupSink.array(), 0, groupArrays[n], 0, n);
        return groupArrays[n];
    }

    /** Encodes the group part of the key into {@code out}, which it empties first. */
    void groupBytes(ByteSink out, Object[] groupValues) {
        out.reset();
        for (int i = 0; i < groupTypes.length; i++) {
            ValueCodec.write(out, groupTypes[i], groupValues[i]);
        }
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

    /** Writes the key of window {@code windowStart} and {@code groupBytes} into {@code into} (long enough); returns its length. */
    static int key(byte[] into, long windowStart, byte[] groupBytes) {
        long v = windowStart ^ Long.MIN_VALUE;
        for (int i = 0; i < 8; i++) {
            into[i] = (byte) (v >>> (56 - 8 * i));
        }
        System.arraycopy(groupBytes, 0, into, 8, groupBytes.length);
        return 8 + groupBytes.length;
    }

    /** The big-endian long at {@code offset}: a key's window start (sign bit flipped) or a value's sequence number. */
    static long readLong(byte[] b, int offset) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[offset + i] & 0xFFL);
        }
        return v;
    }

    /** The window start of the key at {@code offset} of {@code b}. */
    static long windowStart(byte[] b, int offset) {
        return readLong(b, offset) ^ Long.MIN_VALUE;
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

    /**
     * Decodes the group values of the key at {@code keyOffset} of {@code key} into {@code into} from
     * {@code at} on.
     */
    void groupValues(byte[] key, int keyOffset, Object[] into, int at) {
        ByteSource in = source.at(key, keyOffset + 8);
        for (int i = 0; i < groupTypes.length; i++) {
            into[at + i] = ValueCodec.read(in, groupTypes[i]);
        }
    }

    int groupCount() {
        return groupTypes.length;
    }

    int aggregateCount() {
        return accumulators.length;
    }

    /** The states before any row, into {@code into}. */
    void zero(Object[] into) {
        for (int i = 0; i < accumulators.length; i++) {
            into[i] = accumulators[i].zero();
        }
    }

    /** Decodes the states of the value at {@code offset} of {@code value} into {@code into}. */
    void states(byte[] value, int offset, Object[] into) {
        ByteSource in = source.at(value, offset + 8);
        for (int i = 0; i < into.length; i++) {
            into[i] = accumulators[i].read(in);
        }
    }

    /** Encodes a value into {@code out}, which it empties first: its first {@code out.size()} bytes. */
    void value(ByteSink out, long seq, Object[] states) {
        out.reset();
        out.writeLong(seq);
        for (int i = 0; i < states.length; i++) {
            accumulators[i].write(out, states[i]);
        }
    }

    /** The aggregates' values of {@code states}, into {@code into} from {@code at} on. */
    void results(Object[] states, Object[] into, int at) {
        for (int i = 0; i < states.length; i++) {
            into[at + i] = accumulators[i].result(states[i]);
        }
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
