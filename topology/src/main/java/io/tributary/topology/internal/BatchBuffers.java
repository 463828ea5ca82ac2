package io.tributary.topology.internal;

/**
 * The state of an aggregate whose buffers Spark merges batch by batch (its central moments): the earlier batches' buffer in
 * {@code [0, size)}, this batch's in {@code [size, 2 * size)}, both of doubles, and the aggregate's own merge of two buffers.
 */
final class BatchBuffers {
    /** Spark's merge of buffer {@code l} with {@code rs}'s buffer at {@code at}. */
    interface Merge {
        double[] apply(double[] l, double[] rs, int at);
    }

    private BatchBuffers() {
    }

    /** As Spark's aggregation over a batch: an empty buffer, merged with the state it kept, then with the batch's rows. */
    static double[] merged(double[] s, int size, Merge merge) {
        return merge.apply(merge.apply(new double[size], s, 0), s, size);
    }

    /**
     * The buffer Spark evaluates: the state's buffers merged as {@link #merged}, then merged once more into an empty buffer, as
     * its final aggregation merges the buffer the state store saved.
     */
    static double[] evaluated(double[] s, int size, Merge merge) {
        return merge.apply(new double[size], merged(s, size, merge), 0);
    }

    /** The state at a new batch: both buffers merged into the earlier batches' one. */
    static Object nextBatch(Object s, int size, Merge merge) {
        double[] out = new double[2 * size];
        System.arraycopy(merged((double[]) s, size, merge), 0, out, 0, size);
        return out;
    }

    /** Two states merged (their batches in turn). */
    static Object merge(Object a, Object b, int size, Merge merge) {
        double[] out = new double[2 * size];
        System.arraycopy(merge.apply(merged((double[]) a, size, merge), merged((double[]) b, size, merge), 0), 0, out, 0, size);
        return out;
    }
}
