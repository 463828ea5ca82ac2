package io.tributary.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.api.Test;

/** The open windows' table keeps what a HashMap keeps through inserts, updates, removals, growth and clears. */
class WindowTableTest {
    @Test
    void randomInsertsUpdatesAndRemovalsMatchAHashMap() {
        Random random = new Random(42);
        WindowTable table = new WindowTable();
        Map<Bytes, byte[]> expected = new HashMap<>();
        for (int step = 0; step < 400_000; step++) {
            byte[] key = key(random.nextInt(5_000));
            int slot = table.find(key);
            assertThat(slot >= 0).isEqualTo(expected.containsKey(Bytes.wrap(key)));
            int op = random.nextInt(10);
            if (op < 6) {
                // values of several lengths: replaced in place, or appended and the old bytes left for compaction
                byte[] value = ByteBuffer.allocate(8 + random.nextInt(3) * 50).putLong(step).array();
                if (slot < 0) {
                    table.insert(key, value, WindowTable.DIRTY);
                } else {
                    table.value(slot, value);
                }
                expected.put(Bytes.wrap(key), value);
            } else if (op < 9) {
                if (slot >= 0) {
                    table.remove(slot);
                    expected.remove(Bytes.wrap(key));
                }
            } else if (random.nextInt(2_000) == 0) {
                table.clear();
                expected.clear();
            }
            assertThat(table.size()).isEqualTo(expected.size());
        }
        Map<Bytes, Bytes> actual = new HashMap<>();
        for (int i = 0; i < table.capacity(); i++) {
            if (table.key(i) != null) {
                actual.put(Bytes.wrap(table.key(i)), Bytes.wrap(table.value(i)));
                assertThat(table.has(i, WindowTable.DIRTY)).isTrue();
            }
        }
        Map<Bytes, Bytes> wanted = new HashMap<>();
        expected.forEach((k, v) -> wanted.put(k, Bytes.wrap(v)));
        assertThat(actual).isEqualTo(wanted);
        for (Bytes k : expected.keySet()) {
            assertThat(table.value(table.find(k.get()))).isEqualTo(expected.get(k));
        }
    }

    @Test
    void valuesThatChangeLengthLeaveBytesBehindThatCompactionReclaims() {
        WindowTable table = new WindowTable();
        Map<Bytes, Bytes> expected = new HashMap<>();
        for (int round = 0; round < 200; round++) {
            for (int n = 0; n < 1_000; n++) {
                byte[] key = key(n);
                byte[] value = new byte[round % 2 == 0 ? 8 : 60];
                Arrays.fill(value, (byte) (round + n));
                int slot = table.find(key);
                if (slot < 0) {
                    table.insert(key, value, WindowTable.DIRTY);
                } else {
                    table.value(slot, value);
                }
                expected.put(Bytes.wrap(key), Bytes.wrap(value));
            }
        }
        // 200 rounds of 1,000 entries of 30 to 80 bytes wrote about 11 MB; the live entries are about 40 KB
        assertThat(table.slabBytes()).as("slab bytes after compactions").isLessThanOrEqualTo(6L << 20);
        assertThat(table.size()).isEqualTo(1_000);
        for (Map.Entry<Bytes, Bytes> e : expected.entrySet()) {
            assertThat(table.value(table.find(e.getKey().get()))).isEqualTo(e.getValue().get());
        }
    }

    private static byte[] key(int n) {
        return StateLayout.key(n % 7 * 600_000_000L, ("user" + n).getBytes(java.nio.charset.StandardCharsets.UTF_8)).get();
    }
}
