package io.tributary.topology.internal;

/**
 * The state of a sketch aggregate (the HLL, Theta and KLL ones): the bytes of the buffer kept from earlier batches (null
 * before any batch) and this batch's buffer (before a row of the batch: null, or the aggregate's own marker), which Spark's
 * chain of merges carries into the kept one at the batch's end.
 */
record SketchState(byte[] kept, Object batch) {
}
