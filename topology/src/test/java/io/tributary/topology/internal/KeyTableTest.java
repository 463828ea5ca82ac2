package io.tributary.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** KeyTable holds what a HashMap of the same keys holds, through growth, removals and compaction. */
class KeyTableTest {
    @Test
    void findsWhatAMapHoldsThroughGrowthRemovalsAndCompaction() {
        KeyTable table = new KeyTable();
        Map<String, Long> map = new HashMap<>();
        Random random = new Random(7);
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 60_000; i++) {
                String k = "[" + random.nextInt(200_000) + ",\"u" + (i % 7) + "\"]";
                byte[] key = k.getBytes(StandardCharsets.UTF_8);
                if (!map.containsKey(k)) {
                    assertThat(table.find(key)).isEqualTo(-1);
                    long v = random.nextInt(1000);
                    table.add(key, v, KeyTable.UNSTORED);
                    map.put(k, v);
                }
            }
            long cut = 300 + round * 200;
            for (int e = 0; e < table.entries(); e++) {
                if (table.state(e) != KeyTable.REMOVED && table.value(e) <= cut) {
                    table.state(e, KeyTable.REMOVED);
                }
            }
            map.values().removeIf(v -> v <= cut);
            table.compact();
            assertThat(table.size()).isEqualTo(map.size());
            for (Map.Entry<String, Long> m : map.entrySet()) {
                int e = table.find(m.getKey().getBytes(StandardCharsets.UTF_8));
                assertThat(e).isGreaterThanOrEqualTo(0);
                assertThat(table.value(e)).isEqualTo(m.getValue());
                assertThat(new String(table.key(e), StandardCharsets.UTF_8)).isEqualTo(m.getKey());
            }
        }
        assertThat(table.find("[-1]".getBytes(StandardCharsets.UTF_8))).isEqualTo(-1);
    }
}
