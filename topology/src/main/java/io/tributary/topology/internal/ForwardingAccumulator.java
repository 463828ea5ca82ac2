package io.tributary.topology.internal;

/** An accumulator that reads the rows its own way ({@link #add}) and leaves the rest of the state's life to {@link #of}. */
interface ForwardingAccumulator extends Accumulator {
    /** The accumulator the state belongs to. */
    Accumulator of();

    default Object zero() {
        return of().zero();
    }

    default Object merge(Object a, Object b) {
        return of().merge(a, b);
    }

    default Object nextBatch(Object s) {
        return of().nextBatch(s);
    }

    default Object result(Object s) {
        return of().result(s);
    }

    default void write(ByteSink out, Object s) {
        of().write(out, s);
    }

    default Object read(ByteSource in) {
        return of().read(in);
    }
}
