package io.tributary.topology.internal;

import io.tributary.expressions.Murmur3;
import io.tributary.schema.DataType;
import java.math.BigDecimal;
import java.math.BigInteger;
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

    /** The key of the greatest count that Spark's map meets first, or null where the type's hash is not Spark's here. */
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
            int pos = Murmur3.hashInt(h, 0) & (capacity - 1); // as Guava's murmur3_32, seed 0, in Spark's OpenHashSet
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
            case STRING -> Murmur3.hashBytes(((String) v).getBytes(StandardCharsets.UTF_8), 42);
            case DECIMAL -> decimalHash((BigDecimal) v);
            default -> null;
        };
    }

    /**
     * The hash code of Spark's {@code Decimal}, its Scala {@code BigDecimal}'s (Scala 2.13), which depends on the value, not
     * the scale: a whole number's as Scala's {@code BigInt} (an int itself, a long's Java hash code past the int range,
     * Java's {@code BigInteger} hash code past the long range); else, where the value is a double exactly, the Scala hash of
     * that double (an int, long or float it equals first); else the BigInteger hash of its digits mixed with its scale by
     * Scala's {@code MurmurHash3.mixLast}.
     */
    static int decimalHash(BigDecimal v) {
        BigDecimal stripped = v.signum() == 0 ? BigDecimal.ZERO : v.stripTrailingZeros();
        if (stripped.scale() <= 0) {
            BigInteger whole = stripped.toBigIntegerExact();
            return whole.bitLength() < 64 ? longHash(whole.longValue()) : whole.hashCode();
        }
        double d = v.doubleValue();
        if (!Double.isInfinite(d) && new BigDecimal(Double.toString(d)).compareTo(v) == 0) {
            return doubleHash(d);
        }
        return stripped.unscaledValue().hashCode() ^ Murmur3.mixK1(stripped.scale());
    }

    /** Scala's hash of a long: the int it equals, else Java's. */
    private static int longHash(long l) {
        return (int) l == l ? (int) l : Long.hashCode(l);
    }

    /** Scala's hash of a double: the int, long or float it equals first, else Java's. */
    private static int doubleHash(double d) {
        if ((int) d == d) {
            return (int) d;
        }
        if ((long) d == d) {
            return Long.hashCode((long) d);
        }
        if ((float) d == d) {
            return Float.hashCode((float) d);
        }
        return Double.hashCode(d);
    }
}
