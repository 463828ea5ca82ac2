package io.tributary.expressions.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.expressions.Murmur3;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The hashes read a value's bytes as little-endian words, as Spark's Murmur3 and XXH64 read them. */
class HashingTest {
    @Test
    void wordsAreReadLittleEndian() {
        Random random = new Random(9);
        byte[] b = new byte[64];
        for (int n = 0; n < 2_000; n++) {
            random.nextBytes(b);
            ByteBuffer buf = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
            int at = random.nextInt(b.length - 8);
            assertThat(Hashing.intLE(b, at)).isEqualTo(buf.getInt(at));
            assertThat(Hashing.longLE(b, at)).isEqualTo(buf.getLong(at));
        }
    }

    @Test
    void anAsciiTextHashesAsItsUtf8Bytes() {
        Random random = new Random(11);
        for (int n = 0; n < 2_000; n++) {
            char[] chars = new char[random.nextInt(40)];
            for (int i = 0; i < chars.length; i++) {
                chars[i] = (char) random.nextInt(0x80);
            }
            String s = new String(chars);
            int seed = random.nextInt();
            assertThat(Hashing.murmurAscii(s, seed)).as("'%s'", s).isEqualTo(Murmur3.hashBytes(s.getBytes(StandardCharsets.UTF_8), seed));
        }
    }
}
