package io.tributary.expressions.internal;

import io.tributary.expressions.Murmur3;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/**
 * Spark's row hashes bit for bit: {@code hash} is its Murmur3 x86_32 (with Spark's own handling of the
 * last bytes of text), {@code xxhash64} its XXH64; each value hashed with the previous hash as seed, from 42.
 */
public final class Hashing {
    private static final long P1 = 0x9E3779B185EBCA87L;
    private static final long P2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P3 = 0x165667B19E3779F9L;
    private static final long P4 = 0x85EBCA77C2B2AE63L;
    private static final long P5 = 0x27D4EB2F165667C5L;

    private Hashing() {
    }

    /** How a value of one type feeds a hash: as an int, a long or bytes. */
    interface Feed {
        int murmur(Object v, int seed);

        long xx(Object v, long seed);
    }

    /** {@link io.tributary.expressions.SparkHash#xxhash64}: one value's XXH64 as Spark hashes a value of {@code type}. */
    public static java.util.function.ToLongFunction<Object> xxhash64(io.tributary.schema.DataType type, long seed) {
        Feed f = feed(type);
        return v -> f.xx(v, seed);
    }

    static Feed feed(io.tributary.schema.DataType type) {
        if (CalendarIntervals.isCalendar(type)) {
            return calendar();
        }
        return switch (type.kind()) {
            case BOOLEAN -> ints(v -> (Boolean) v ? 1 : 0);
            case BYTE, SHORT, INT, DATE -> ints(v -> ((Number) v).intValue());
            case FLOAT -> ints(v -> (Float) v == -0.0f ? 0 : Float.floatToIntBits((Float) v));
            case LONG, TIMESTAMP, TIMESTAMP_NTZ -> longs(v -> (Long) v);
            case DOUBLE -> longs(v -> (Double) v == -0.0d ? 0L : Double.doubleToLongBits((Double) v));
            case DECIMAL -> type.precision() <= 18 ? longs(v -> ((BigDecimal) v).unscaledValue().longValue())
                    : bytes(v -> ((BigDecimal) v).unscaledValue().toByteArray());
            case STRING -> text();
            case BINARY -> bytes(v -> (byte[]) v);
            case ARRAY -> elements(feed(type.element()));
            case STRUCT -> fields(type.struct().fields().stream().map(f -> feed(f.type())).toArray(Feed[]::new));
            default -> throw new IllegalArgumentException("no hash of " + type);
        };
    }

    /** An array's elements, each hashed with the hash so far as its seed; a null element leaves it as it is, as in Spark. */
    private static Feed elements(Feed element) {
        return new Feed() {
            public int murmur(Object v, int seed) {
                int h = seed;
                for (Object e : (java.util.List<?>) v) {
                    h = e == null ? h : element.murmur(e, h);
                }
                return h;
            }

            public long xx(Object v, long seed) {
                long h = seed;
                for (Object e : (java.util.List<?>) v) {
                    h = e == null ? h : element.xx(e, h);
                }
                return h;
            }
        };
    }

    /** A CALENDAR INTERVAL: its microseconds, then its days, then its months, as Spark hashes one. */
    private static Feed calendar() {
        return new Feed() {
            public int murmur(Object v, int seed) {
                CalendarInterval c = (CalendarInterval) v;
                return Murmur3.hashInt(c.months(), Murmur3.hashInt(c.days(), Murmur3.hashLong(c.micros(), seed)));
            }

            public long xx(Object v, long seed) {
                CalendarInterval c = (CalendarInterval) v;
                return xxInt(c.months(), xxInt(c.days(), xxLong(c.micros(), seed)));
            }
        };
    }

    /** A struct's fields in order, as {@link #elements} hashes an array's. */
    private static Feed fields(Feed[] fields) {
        return new Feed() {
            public int murmur(Object v, int seed) {
                int h = seed;
                Object[] s = (Object[]) v;
                for (int i = 0; i < fields.length; i++) {
                    h = s[i] == null ? h : fields[i].murmur(s[i], h);
                }
                return h;
            }

            public long xx(Object v, long seed) {
                long h = seed;
                Object[] s = (Object[]) v;
                for (int i = 0; i < fields.length; i++) {
                    h = s[i] == null ? h : fields[i].xx(s[i], h);
                }
                return h;
            }
        };
    }

    private static Feed ints(java.util.function.ToIntFunction<Object> f) {
        return new Feed() {
            public int murmur(Object v, int seed) {
                return Murmur3.hashInt(f.applyAsInt(v), seed);
            }

            public long xx(Object v, long seed) {
                return xxInt(f.applyAsInt(v), seed);
            }
        };
    }

    private static Feed longs(java.util.function.ToLongFunction<Object> f) {
        return new Feed() {
            public int murmur(Object v, int seed) {
                return Murmur3.hashLong(f.applyAsLong(v), seed);
            }

            public long xx(Object v, long seed) {
                return xxLong(f.applyAsLong(v), seed);
            }
        };
    }

    private static Feed bytes(java.util.function.Function<Object, byte[]> f) {
        return new Feed() {
            public int murmur(Object v, int seed) {
                return Murmur3.hashBytes(f.apply(v), seed);
            }

            public long xx(Object v, long seed) {
                return xxBytes(f.apply(v), seed);
            }
        };
    }

    /** A STRING: its UTF-8 bytes; an ASCII text's, which are its chars, read without making them. */
    private static Feed text() {
        return new Feed() {
            public int murmur(Object v, int seed) {
                String s = (String) v;
                return ascii(s) ? murmurAscii(s, seed) : Murmur3.hashBytes(s.getBytes(StandardCharsets.UTF_8), seed);
            }

            public long xx(Object v, long seed) {
                return xxBytes(((String) v).getBytes(StandardCharsets.UTF_8), seed);
            }
        };
    }

    private static boolean ascii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /** {@link #murmurBytes} of an ASCII text's bytes, which are its chars. */
    static int murmurAscii(String s, int seed) {
        int n = s.length();
        int aligned = n - n % 4;
        int h1 = seed;
        for (int i = 0; i < aligned; i += 4) {
            h1 = Murmur3.mixH1(h1, Murmur3.mixK1(s.charAt(i) | s.charAt(i + 1) << 8 | s.charAt(i + 2) << 16 | s.charAt(i + 3) << 24));
        }
        for (int i = aligned; i < n; i++) {
            h1 = Murmur3.mixH1(h1, Murmur3.mixK1(s.charAt(i)));
        }
        return Murmur3.fmix(h1, n);
    }

    /** The little-endian int at {@code i} (read by hand: no buffer per value, and as fast before the JIT's last tier). */
    static int intLE(byte[] b, int i) {
        return (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF) << 16 | b[i + 3] << 24;
    }

    static long longLE(byte[] b, int i) {
        return (intLE(b, i) & 0xFFFFFFFFL) | (long) intLE(b, i + 4) << 32;
    }

    private static long xxFmix(long h) {
        h ^= h >>> 33;
        h *= P2;
        h ^= h >>> 29;
        h *= P3;
        return h ^ (h >>> 32);
    }

    static long xxInt(int v, long seed) {
        long h = seed + P5 + 4L;
        h ^= (v & 0xFFFFFFFFL) * P1;
        h = Long.rotateLeft(h, 23) * P2 + P3;
        return xxFmix(h);
    }

    static long xxLong(long v, long seed) {
        long h = seed + P5 + 8L;
        h ^= Long.rotateLeft(v * P2, 31) * P1;
        h = Long.rotateLeft(h, 27) * P1 + P4;
        return xxFmix(h);
    }

    private static long round(long acc, long lane) {
        return Long.rotateLeft(acc + lane * P2, 31) * P1;
    }

    private static long merge(long h, long v) {
        return (h ^ round(0, v)) * P1 + P4;
    }

    static long xxBytes(byte[] b, long seed) {
        int off = 0;
        int end = b.length;
        long h;
        if (end >= 32) {
            long v1 = seed + P1 + P2;
            long v2 = seed + P2;
            long v3 = seed;
            long v4 = seed - P1;
            do {
                v1 = round(v1, longLE(b, off));
                v2 = round(v2, longLE(b, off + 8));
                v3 = round(v3, longLE(b, off + 16));
                v4 = round(v4, longLE(b, off + 24));
                off += 32;
            } while (off <= end - 32);
            h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
            h = merge(h, v1);
            h = merge(h, v2);
            h = merge(h, v3);
            h = merge(h, v4);
        } else {
            h = seed + P5;
        }
        h += end;
        while (off <= end - 8) {
            h ^= round(0, longLE(b, off));
            h = Long.rotateLeft(h, 27) * P1 + P4;
            off += 8;
        }
        if (off <= end - 4) {
            h ^= (intLE(b, off) & 0xFFFFFFFFL) * P1;
            h = Long.rotateLeft(h, 23) * P2 + P3;
            off += 4;
        }
        while (off < end) {
            h ^= (b[off] & 0xFF) * P5;
            h = Long.rotateLeft(h, 11) * P1;
            off++;
        }
        return xxFmix(h);
    }
}
