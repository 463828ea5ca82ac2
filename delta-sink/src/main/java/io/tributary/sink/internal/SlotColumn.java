package io.tributary.sink.internal;

import io.tributary.schema.DataType;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * One column of {@link ColumnChanges}' slots. The values are kept in chunks of {@link #CHUNK} that are added as the
 * slots grow and never copied (the first chunk grows from small, so that a small batch stays small): a batch of
 * millions of keys holds each value once, with no slack of a doubled array and no moment where an array and its
 * doubled copy are both live, which is what made a one-batch upsert's memory grow faster than its keys.
 */
abstract class SlotColumn {
    /** Values per chunk: 65,536 (512 KiB of 64-bit words). */
    static final int CHUNK_BITS = 16;
    static final int CHUNK = 1 << CHUNK_BITS;
    private static final int MASK = CHUNK - 1;

    final BitSet nulls = new BitSet();

    static SlotColumn of(DataType type) {
        return switch (type.kind()) {
            case INT, DATE, LONG, TIMESTAMP, TIMESTAMP_NTZ, DOUBLE -> new Words(type.kind());
            case STRING -> new Values(true);
            default -> new Values(false);
        };
    }

    /** Makes room for slots {@code 0 .. size - 1}. */
    abstract void ensure(int size);

    /** Forgets every slot's value and keeps the room made for them, so that the slots can be filled again. */
    void clear() {
        nulls.clear();
    }

    final void set(int slot, Object v) {
        nulls.set(slot, v == null);
        if (v != null) {
            put(slot, v);
        }
    }

    final Object get(int slot) {
        return nulls.get(slot) ? null : value(slot);
    }

    abstract void put(int slot, Object v);

    abstract Object value(int slot);

    /** The length the first chunk grows to for {@code size} slots (at least 16, doubling, at most {@link #CHUNK}). */
    private static int firstChunk(int length, int size) {
        return Math.min(CHUNK, Math.max(size, Math.max(16, length * 2)));
    }

    /** How many chunks hold {@code size} slots. */
    private static int chunks(int size) {
        return (size + MASK) >>> CHUNK_BITS;
    }

    /** 64-bit words by slot, in chunks. */
    static final class Longs {
        private long[][] chunks = {new long[0]};
        private int capacity;

        void ensure(int size) {
            if (size <= capacity) {
                return;
            }
            if (capacity < CHUNK) {
                chunks[0] = Arrays.copyOf(chunks[0], firstChunk(chunks[0].length, size));
                capacity = chunks[0].length;
            }
            int need = chunks(size);
            if (need > chunks.length) {
                chunks = Arrays.copyOf(chunks, Math.max(need, chunks.length * 2)); // the chunks' references only
            }
            while (capacity < size) {
                chunks[capacity >>> CHUNK_BITS] = new long[CHUNK];
                capacity += CHUNK;
            }
        }

        long get(int slot) {
            return chunks[slot >>> CHUNK_BITS][slot & MASK];
        }

        void set(int slot, long v) {
            chunks[slot >>> CHUNK_BITS][slot & MASK] = v;
        }
    }

    /** Integers, longs and doubles (as their bits), one 64-bit word each, boxed again as they were read. */
    private static final class Words extends SlotColumn {
        private final DataType.Kind kind;
        private final Longs v = new Longs();

        Words(DataType.Kind kind) {
            this.kind = kind;
        }

        @Override
        void ensure(int size) {
            v.ensure(size);
        }

        @Override
        void put(int slot, Object x) {
            v.set(slot, switch (kind) {
                case INT, DATE -> (Integer) x;
                case DOUBLE -> Double.doubleToRawLongBits((Double) x);
                default -> (Long) x;
            });
        }

        @Override
        Object value(int slot) {
            long w = v.get(slot);
            return switch (kind) {
                case INT, DATE -> (Object) (int) w;
                case DOUBLE -> (Object) Double.longBitsToDouble(w);
                default -> (Object) w;
            };
        }
    }

    /** Values as they are; with {@code shared}, equal ones (strings) as one object, up to {@link #SHARED_LIMIT} distinct. */
    private static final class Values extends SlotColumn {
        private static final int SHARED_LIMIT = 1 << 16;
        private final Map<Object, Object> shared;
        private Object[][] chunks = {new Object[0]};
        private int capacity;

        Values(boolean shared) {
            this.shared = shared ? new HashMap<>() : null;
        }

        @Override
        void ensure(int size) {
            if (size <= capacity) {
                return;
            }
            if (capacity < CHUNK) {
                chunks[0] = Arrays.copyOf(chunks[0], firstChunk(chunks[0].length, size));
                capacity = chunks[0].length;
            }
            int need = chunks(size);
            if (need > chunks.length) {
                chunks = Arrays.copyOf(chunks, Math.max(need, chunks.length * 2));
            }
            while (capacity < size) {
                chunks[capacity >>> CHUNK_BITS] = new Object[CHUNK];
                capacity += CHUNK;
            }
        }

        @Override
        void put(int slot, Object x) {
            if (shared != null) {
                Object s = shared.get(x);
                if (s != null) {
                    x = s;
                } else if (shared.size() < SHARED_LIMIT) {
                    shared.put(x, x);
                }
            }
            chunks[slot >>> CHUNK_BITS][slot & MASK] = x;
        }

        @Override
        Object value(int slot) {
            return chunks[slot >>> CHUNK_BITS][slot & MASK];
        }

        @Override
        void clear() {
            super.clear();
            for (Object[] chunk : chunks) {
                if (chunk != null) {
                    Arrays.fill(chunk, null); // the values' objects are not kept alive by slots to be filled again
                }
            }
        }
    }
}
