package io.tributary.topology.internal;

/**
 * The aggregation's open state, which rows fold into and batch ends close: Spark's time windows
 * ({@link WindowState}) or its session windows ({@link OpenSessions}). A row of event time {@code ts}
 * falls in one or more slots {@code [start, start + span)}; the processor judges each slot late or folds
 * the row into it.
 */
interface OpenState {
    /** {@link #update} made a new state row. */
    int NEW = 1;
    /** {@link #update} changed a state row for the first time in this batch. */
    int FIRST_IN_BATCH = 2;

    /** How many state rows an {@link #update} merged away (sessions that became one): its flags shifted. */
    static int merged(int flags) {
        return flags >>> 2;
    }

    /** Whether rows for slots already past the watermark are dropped (Spark: append and update). */
    boolean dropsLateRows();

    /** The most slots one row falls in. */
    int maxSlots();

    /** Writes the starts of the slots holding {@code ts} into {@code out}, oldest first; returns how many. */
    int assign(long ts, long[] out);

    /** The length of a row's slot: it ends at {@code start + span()}, which the watermark judges. */
    long span();

    /** The group part of a state key, computed once per row. */
    byte[] groupBytesOf(Object[] groupValues);

    /** Folds a row into slot {@code start} of its group; says {@link #NEW}, {@link #FIRST_IN_BATCH} and {@link #merged}. */
    int update(long start, byte[] groupBytes, Object[] row, long seq);

    /** Whether the state in memory holds more than its budget; then the caller flushes it (and commits). */
    boolean overBudget();

    int mapSize();

    /** Writes what changed into the store (and so its changelog); runs before every commit of the task. */
    void flush();

    /** Ends batch {@code seq} at watermark {@code watermarkMicros} (null: none): emits its output rows; returns how many state rows it purged. */
    long endBatch(Long watermarkMicros, long seq, Emit emit);

    /**
     * Whether the state rows a batch end closes are written out and purged in steps of bounded
     * size ({@link #closeStep}), a transaction each, rather than all in {@link #endBatch}: time
     * windows in append mode.
     */
    default boolean closesInSteps() {
        return false;
    }

    /**
     * Writes out and removes the slots starting in {@code [from, bound]}, oldest first, stopping
     * once it wrote {@code limit} at the end of a slot start ({@link OutputPolicy.Append#closeStep}).
     */
    default OutputPolicy.Step closeStep(long from, long bound, long limit, Emit emit) {
        throw new UnsupportedOperationException("this state closes at once");
    }

    /** Takes one output row: the window {@code {start, end}}, the group values, the aggregates. */
    interface Emit {
        void row(Object[] row);
    }
}
