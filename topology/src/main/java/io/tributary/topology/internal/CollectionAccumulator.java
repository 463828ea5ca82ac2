package io.tributary.topology.internal;

/**
 * An accumulator whose state is a whole collection (a count of each distinct value, a quantile summary and its head buffer, a
 * sketch): encoding and decoding it costs in proportion to its size, so the open windows keep such states decoded while a
 * batch's rows fold into them, and encode them once, where the topology persists them (a batch's end, a commit, a window
 * closing, the map outgrowing its budget), as Spark's streaming aggregation folds a batch's rows in memory and saves each
 * group's buffer once ({@link LiveStates}). An aggregate gets that treatment by implementing this interface.
 */
interface CollectionAccumulator extends Accumulator {
    /**
     * {@code state} after one more input row, changed in place where it can be (the return value is the state from then on).
     * Called only on a state that nothing else holds: one {@link #zero}, {@link #read} or {@link #nextBatch} made, or that
     * this method returned; the result must be what {@link #add} gives for the same rows.
     */
    Object addInPlace(Object state, Object[] row);
}
