package io.tributary.topology.internal;

/**
 * The running state of one aggregate for one (window, group): created empty, folded with rows,
 * turned into Spark's result value, and stored compactly. States are treated as immutable
 * values ({@link #add} returns the new state).
 */
interface Accumulator {
    /** The state before any row. */
    Object zero();

    /** The state after one more input row. */
    Object add(Object state, Object[] row);

    /**
     * The state of the rows of {@code a} and of {@code b} together, {@code a}'s rows first (two sessions
     * merging, the earlier first, as Spark merges aggregation buffers).
     */
    Object merge(Object a, Object b);

    /**
     * The state when a new batch brings rows to it, {@code state} holding those of earlier batches: Spark aggregates a batch's
     * rows apart and merges them into the state it kept, so an accumulator whose merge rounds otherwise than its add keeps the
     * two apart. The others keep the state as it is.
     */
    default Object nextBatch(Object state) {
        return state;
    }

    /** The aggregate's value, of the aggregate's result type (see DataType for the Java types). */
    Object result(Object state);

    void write(ByteSink out, Object state);

    Object read(ByteSource in);
}
