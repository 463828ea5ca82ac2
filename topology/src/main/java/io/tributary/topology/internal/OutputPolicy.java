package io.tributary.topology.internal;

import io.tributary.topology.OutputMode;
import org.apache.kafka.common.utils.Bytes;

/**
 * What an output mode does at the end of a batch (a marker), as Spark's StateStoreSaveExec does:
 * which state rows it writes out and which it purges.
 */
interface OutputPolicy {
    /** Writes one state row out. */
    interface Emit {
        void emit(Bytes key, long windowStart, Object[] states);
    }

    /** Whether rows for windows already past the watermark are dropped (Spark: append and update). */
    boolean dropsLateRows();

    /**
     * Ends batch {@code seq} at watermark {@code watermarkMicros} (null: none); returns how many
     * state rows it purged.
     */
    long endBatch(OpenWindows windows, Long watermarkMicros, long seq, Emit emit);

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
            if (wm == null) {
                return 0;
            }
            long lastStart = wm - windows.size();
            windows.scan(lastStart, (key, start, entrySeq, states) -> {
                emit.emit(key, start, states);
                return true;
            });
            return windows.deleteUpTo(lastStart);
        }
    }

    /** The rows updated in this batch; then windows past the watermark leave state. */
    final class Update implements OutputPolicy {
        public boolean dropsLateRows() {
            return true;
        }

        public long endBatch(OpenWindows windows, Long wm, long seq, Emit emit) {
            windows.scan(Long.MAX_VALUE, (key, start, entrySeq, states) -> {
                if (entrySeq == seq) {
                    emit.emit(key, start, states);
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
            windows.scan(Long.MAX_VALUE, (key, start, entrySeq, states) -> {
                emit.emit(key, start, states);
                return true;
            });
            return 0;
        }
    }
}
