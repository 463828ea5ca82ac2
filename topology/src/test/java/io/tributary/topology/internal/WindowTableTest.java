package io.tributary.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
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
            int op = random.nextInt(1_000);
            if (op < 995) {
                // values of several lengths: replaced in place, or appended and the old bytes left for compaction
                byte[] value = ByteBuffer.allocate(8 + random.nextInt(3) * 50).putLong(step).array();
                if (slot < 0) {
                    table.insert(key, value, random.nextBoolean() ? WindowTable.DIRTY : WindowTable.IN_STORE);
                } else {
                    table.value(slot, value);
                }
                expected.put(Bytes.wrap(key), value);
            } else if (op < 999) {
                // the windows up to a start close: some, none or all of them
                long maxStart = (random.nextInt(9) - 1) * 600_000_000L;
                if (random.nextBoolean()) {
                    // as a batch's emission sorts before it removes: mostly the same bound (the removal takes the
                    // slots the sort found), then maybe a value moved in the slabs or a new entry (a new slot)
                    long sortedStart = random.nextInt(4) == 0 ? maxStart + 600_000_000L : maxStart;
                    table.sortedSlotsUpTo(sortedStart ^ Long.MIN_VALUE);
                    byte[] other = key(random.nextInt(5_000));
                    byte[] value = ByteBuffer.allocate(8 + random.nextInt(3) * 50).putLong(-step).array();
                    int at = table.find(other);
                    if (at >= 0) {
                        table.value(at, value);
                    } else if (random.nextBoolean()) {
                        table.insert(other, value, WindowTable.DIRTY);
                    }
                    if (at >= 0 || table.find(other) >= 0) {
                        expected.put(Bytes.wrap(other), value);
                    }
                }
                long withoutFlag = 0;
                for (int i = 0; i < table.capacity(); i++) {
                    if (table.key(i) != null && StateLayout.windowStart(table.key(i)) <= maxStart && !table.has(i, WindowTable.IN_STORE)) {
                        withoutFlag++;
                    }
                }
                assertThat(table.removeUpTo(maxStart ^ Long.MIN_VALUE, WindowTable.IN_STORE)).isEqualTo(withoutFlag);
                expected.keySet().removeIf(k -> StateLayout.windowStart(k.get()) <= maxStart);
            } else if (random.nextInt(5) == 0) {
                table.clear();
                expected.clear();
            }
            assertThat(table.size()).isEqualTo(expected.size());
        }
        Map<Bytes, Bytes> actual = new HashMap<>();
        for (int i = 0; i < table.capacity(); i++) {
            if (table.key(i) != null) {
                actual.put(Bytes.wrap(table.key(i)), Bytes.wrap(table.value(i)));
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
    void theSlotsUpToAWindowStartComeInTheStoresKeyOrder() {
        WindowTable table = new WindowTable();
        Random random = new Random(7);
        for (int n = 0; n < 20_000; n++) {
            byte[] key = key(random.nextInt(50_000));
            if (table.find(key) < 0) {
                table.insert(key, new byte[8], WindowTable.DIRTY);
            }
        }
        long maxStart = 3 * 600_000_000L;
        List<byte[]> sorted = new ArrayList<>();
        for (int slot : table.sortedSlotsUpTo(maxStart ^ Long.MIN_VALUE)) {
            sorted.add(table.key(slot));
        }
        List<byte[]> wanted = new ArrayList<>();
        for (int i = 0; i < table.capacity(); i++) {
            if (table.key(i) != null && StateLayout.windowStart(table.key(i)) <= maxStart) {
                wanted.add(table.key(i));
            }
        }
        wanted.sort(Arrays::compareUnsigned); // the store's order (RocksDB's bytewise comparator)
        assertThat(wanted).hasSizeGreaterThan(5_000).hasSizeLessThan(table.size());
        assertThat(sorted).containsExactlyElementsOf(wanted);
    }

    /** Groups that tie on their first 8 or 16 bytes, or differ only past them or by trailing zero bytes, sort as the store sorts them. */
    @Test
    void groupsEqualInTheirFirstBytesComeInTheStoresKeyOrder() {
        WindowTable table = new WindowTable();
        byte[][] groups = {{}, {0}, {0, 0}, {'a', 'b'}, {'a', 'b', 0}, {'a', 'b', 0, 0, 0, 0, 0, 0}, {'a', 'b', 0, 0, 0, 0, 0, 0, 0},
            "abcdefgh".getBytes(), "abcdefgh1".getBytes(), "abcdefgh0".getBytes(), "abcdefghij".getBytes(), {(byte) 0xff}, {(byte) 0x80, 1},
            "abcdefghijklmnop".getBytes(), "abcdefghijklmnop1".getBytes(), "abcdefghijklmnop0".getBytes(), "abcdefghijklmnop\0".getBytes()};
        List<byte[]> wanted = new ArrayList<>();
        for (long start : new long[] {600_000_000L, 0, 1_200_000_000L}) {
            for (byte[] g : groups) {
                byte[] key = StateLayout.key(start, g).get();
                table.insert(key, new byte[8], WindowTable.DIRTY);
                wanted.add(key);
            }
        }
        assertAllInTheStoresOrder(table, wanted);
    }

    /** Every slot of the table by {@code sortedSlotsUpTo}: the keys {@code wanted} in the store's order (RocksDB's bytewise comparator). */
    private static void assertAllInTheStoresOrder(WindowTable table, List<byte[]> wanted) {
        wanted.sort(Arrays::compareUnsigned);
        List<byte[]> sorted = new ArrayList<>();
        for (int slot : table.sortedSlotsUpTo(-1L)) {
            sorted.add(table.key(slot));
        }
        assertThat(sorted).containsExactlyElementsOf(wanted);
    }

    /** Window starts of a few entries each (sorted by comparing their bytes), of negative and far-apart starts, in the store's order. */
    @Test
    void fewEntriesPerWindowStartComeInTheStoresKeyOrder() {
        WindowTable table = new WindowTable();
        Random random = new Random(11);
        List<byte[]> wanted = new ArrayList<>();
        for (int s = 0; s < 3_000; s++) {
            long start = (random.nextInt(2_000) - 1_000) * 600_000_000L + (random.nextBoolean() ? 0 : 1L << 50);
            for (int g = random.nextInt(20); g > 0; g--) {
                byte[] group = random.nextInt(4) == 0 ? ("ab" + "\0".repeat(random.nextInt(20))).getBytes()
                        : ("user" + random.nextInt(30)).getBytes();
                byte[] key = StateLayout.key(start, group).get();
                if (table.find(key) < 0) {
                    table.insert(key, new byte[8], WindowTable.DIRTY);
                    wanted.add(key);
                }
            }
        }
        assertAllInTheStoresOrder(table, wanted);
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
