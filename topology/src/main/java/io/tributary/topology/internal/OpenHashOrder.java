package io.tributary.topology.internal;

import io.tributary.schema.DataType;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The order in which Spark's {@code OpenHashMap} of boxed values (the buffer of its {@code mode}) meets its keys: by slot, a
 * key's slot the Murmur3 hash of its Java hash code masked by the capacity (64, doubled past a load of 0.7), and a taken slot
 * probed further by 1, 2, 3... Spark's mode without a tie rule is the first key of the greatest count in this order. Keys are
 * placed in their order here (Spark places them as they came), which differs from Spark's only where two keys share a slot.
 */
final class OpenHashOrder {
    private OpenHashOrder() {
    }

    /** The key of the greatest count that Spark's map meets first, or null where the type's hash is not Spark's here (DECIMAL). */
    static Object firstOfMost(Map<Object, Long> counts, DataType type) {
        int capacity = 64;
        while (counts.size() > (int) (0.7 * capacity)) {
            capacity *= 2;
        }
        Object[] slots = new Object[capacity];
        long[] slotCounts = new long[capacity];
        for (Map.Entry<Object, Long> e : counts.entrySet()) {
            Integer h = javaHash(type, e.getKey());
            if (h == null) {
                return null;
            }
            int pos = murmur3(h) & (capacity - 1);
            for (int delta = 1; slots[pos] != null; delta++) {
                pos = (pos + delta) & (capacity - 1);
            }
            slots[pos] = e.getKey();
            slotCounts[pos] = e.getValue();
        }
        Object best = null;
        long most = 0;
        for (int i = 0; i < capacity; i++) {
            if (slots[i] != null && slotCounts[i] > most) {
                best = slots[i];
                most = slotCounts[i];
            }
        }
        return best;
    }

    /** The hash code of Spark's value of the type: Java's boxed one, UTF8String's (Murmur3 of the bytes, seed 42) for text. */
    private static Integer javaHash(DataType type, Object v) {
        return switch (type.kind()) {
            case BYTE, SHORT, INT, DATE -> ((Number) v).intValue();
            case LONG, TIMESTAMP, TIMESTAMP_NTZ -> Long.hashCode(((Number) v).longValue());
            case DOUBLE -> Double.hashCode((Double) v);
            case FLOAT -> Float.hashCode((Float) v);
            case BOOLEAN -> Boolean.hashCode((Boolean) v);
            case STRING -> bytesHash(((String) v).getBytes(StandardCharsets.UTF_8));
            default -> null;
        };
    }

    /** Guava's murmur3_32 of one int, seed 0, as Spark's OpenHashSet mixes a hash code. */
    static int murmur3(int input) {
        return fmix(mixH1(0, mixK1(input)), 4);
    }

    /** Spark's Murmur3_x86_32.hashUnsafeBytes, seed 42: the whole words, then each byte left as a word of its own. */
    private static int bytesHash(byte[] b) {
        int aligned = b.length - b.length % 4;
        int h1 = 42;
        for (int i = 0; i < aligned; i += 4) {
            int word = (b[i] & 0xff) | (b[i + 1] & 0xff) << 8 | (b[i + 2] & 0xff) << 16 | (b[i + 3] & 0xff) << 24;
            h1 = mixH1(h1, mixK1(word));
        }
        for (int i = aligned; i < b.length; i++) {
            h1 = mixH1(h1, mixK1(b[i]));
        }
        return fmix(h1, b.length);
    }

    private static int mixK1(int k1) {
        return Integer.rotateLeft(k1 * 0xcc9e2d51, 15) * 0x1b873593;
    }

    private static int mixH1(int h1, int k1) {
        return Integer.rotateLeft(h1 ^ k1, 13) * 5 + 0xe6546b64;
    }

    private static int fmix(int h1, int length) {
        h1 ^= length;
        h1 ^= h1 >>> 16;
        h1 *= 0x85ebca6b;
        h1 ^= h1 >>> 13;
        h1 *= 0xc2b2ae35;
        return h1 ^ h1 >>> 16;
    }
}
