package io.tributary.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
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
        for (int step = 0; step < 200_000; step++) {
            byte[] key = key(random.nextInt(5_000));
            int slot = table.find(key);
            assertThat(slot >= 0).isEqualTo(expected.containsKey(Bytes.wrap(key)));
            int op = random.nextInt(10);
            if (op < 6) {
                byte[] value = ByteBuffer.allocate(8).putLong(step).array();
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
        Map<Bytes, byte[]> actual = new HashMap<>();
        for (int i = 0; i < table.capacity(); i++) {
            if (table.key(i) != null) {
                actual.put(Bytes.wrap(table.key(i)), table.value(i));
                assertThat(table.has(i, WindowTable.DIRTY)).isTrue();
            }
        }
        assertThat(actual).isEqualTo(expected);
        for (Bytes k : expected.keySet()) {
            assertThat(table.value(table.find(k.get()))).isEqualTo(expected.get(k));
        }
    }

    private static byte[] key(int n) {
        return StateLayout.key(n % 7 * 600_000_000L, ("user" + n).getBytes(java.nio.charset.StandardCharsets.UTF_8)).get();
    }
}
