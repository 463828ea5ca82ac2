package io.tributary.topology.internal;

import io.tributary.topology.OutputMode;

/**
 * What an output mode does at the end of a batch (a marker), as Spark's StateStoreSaveExec does:
 * which state rows it writes out and which it purges.
 */
interface OutputPolicy {
    /** Writes one state row out. */
    interface Emit {
        /** The state row's key at {@code keyOffset} of {@code key} and its states, valid only during the call. */
        void emit(byte[] key, int keyOffset, long windowStart, Object[] states);
    }

    /** Whether rows for windows already past the watermark are dropped (Spark: append and update). */
    boolean dropsLateRows();

    /**
     * Ends batch {@code seq} at watermark {@code watermarkMicros} (null: none); returns how many
     * state rows it purged.
     */
    long endBatch(OpenWindows windows, Long watermarkMicros, long seq, Emit emit);

    /**
     * Whether the windows a batch end closes are written out and purged in steps of bounded size
     * ({@link Append#closeStep}), a transaction each, rather than all in {@link #endBatch}.
     */
    default boolean closesInSteps() {
        return false;
    }

    /**
     * What a step of a closing did: the rows it wrote, the state rows it removed, the window start
     * the closing goes on at (past its bound when it is done), and how many of its windows were in
     * the store (read, then removed with a tombstone each: the step's cost).
     */
    record Step(long emitted, long purged, long next, long stored) {
    }

    static OutputPolicy of(OutputMode mode) {
        return switch (mode) {
            case APPEND -> new Append();
            case UPDATE -> new Update();
            case COMPLETE -> new Complete();
        };
    }

    /** Each window once, final, when the watermark passes its end; then it leaves state. */
    final class Append implements OutputPolicy {
        public boolean dropsLateRows() {
            return true;
        }

        public long endBatch(OpenWindows windows, Long wm, long seq, Emit emit) {
            return wm == null ? 0 : closeStep(windows, Long.MIN_VALUE, wm - windows.size(), Long.MAX_VALUE, emit).purged();
        }

        @Override
        public boolean closesInSteps() {
            return true;
        }

        /**
         * Writes out and removes the windows starting in {@code [from, bound]}, oldest first (store
         * key order), stopping once it wrote {@code limit} windows held in the store at the end of a
         * window start: every window of a start goes in the same step, so that what the step
         * removes is exactly what it wrote. Windows only in the map (opened since the last commit)
         * are not counted: writing them out needs no store read and no tombstone, and the map's
         * budget bounds them (an availableNow run's windows open and close in one transaction). A
         * step that stops before the bound also writes out every such window up to the bound, out of
         * order (the output of a batch is a set), so that its commit does not store them.
         */
        Step closeStep(OpenWindows windows, long from, long bound, long limit, Emit emit) {
            if (from > bound) {
                return new Step(0, 0, from, 0);
            }
            long[] written = {0};
            long[] stored = {0};
            long[] last = {Long.MIN_VALUE};
            boolean[] stopped = {false};
            windows.scan(from, bound, (key, keyOffset, start, entrySeq, states) -> {
                if (stored[0] >= limit && start != last[0]) {
                    stopped[0] = true;
                    return false;
                }
                emit.emit(key, keyOffset, start, states);
                written[0]++;
                stored[0] += windows.visitingStored() ? 1 : 0;
                last[0] = start;
                return true;
            });
            long through = stopped[0] ? last[0] : bound;
            long purged = windows.deleteBetween(from, through);
            if (stopped[0]) { // the windows after the step that only the map holds go now, not through the store
                purged += windows.closeMapOnly(through, bound, (key, keyOffset, start, entrySeq, states) -> {
                    emit.emit(key, keyOffset, start, states);
                    written[0]++;
                    return true;
                });
            }
            return new Step(written[0], purged, stopped[0] ? last[0] + 1 : (bound == Long.MAX_VALUE ? bound : bound + 1), stored[0]);
        }
    }

    /** The rows updated in this batch; then windows past the watermark leave state. */
    final class Update implements OutputPolicy {
        public boolean dropsLateRows() {
            return true;
        }

        public long endBatch(OpenWindows windows, Long wm, long seq, Emit emit) {
            windows.scan(Long.MAX_VALUE, (key, keyOffset, start, entrySeq, states) -> {
                if (entrySeq == seq) {
                    emit.emit(key, keyOffset, start, states);
                }
                return true;
            });
            return wm == null ? 0 : windows.deleteUpTo(wm - windows.size()); // the windows past the watermark
        }
    }

    /** Every row of the result table at every batch end; state is kept whole, as Spark keeps it. */
    final class Complete implements OutputPolicy {
        public boolean dropsLateRows() {
            return false;
        }

        public long endBatch(OpenWindows windows, Long wm, long seq, Emit emit) {
            windows.scan(Long.MAX_VALUE, (key, keyOffset, start, entrySeq, states) -> {
                emit.emit(key, keyOffset, start, states);
                return true;
            });
            return 0;
        }
    }
}
