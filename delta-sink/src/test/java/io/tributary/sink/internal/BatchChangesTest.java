package io.tributary.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Schema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The column form of a collapsed batch ({@link ColumnChanges}) against the map form
 * ({@link MapChanges}) on the same records: keys repeated, deleted and written again, a null key,
 * null values, with and without an order column.
 */
class BatchChangesTest {
    private static final Schema INT_KEY = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP, d DATE, n LONG, ok BOOLEAN");
    private static final Schema LONG_KEY = Schema.parse("id LONG, user STRING, amt DOUBLE");

    @Test
    void anIntKeyCollapsesAsTheMapFormDoes() {
        for (long seed = 0; seed < 20; seed++) {
            compare(INT_KEY, -1, seed);
            compare(INT_KEY, INT_KEY.indexOf("n"), seed);
        }
    }

    @Test
    void aLongKeyCollapsesAsTheMapFormDoes() {
        for (long seed = 0; seed < 20; seed++) {
            compare(LONG_KEY, -1, seed);
        }
    }

    @Test
    void aBatchOfMoreKeysThanAChunkHoldsCollapsesAsTheMapFormDoes() {
        // 80,000 records over 400,000 key values, about 72,000 keys: the columns span two chunks
        assertThat(compare(INT_KEY, -1, 1, 80_000, 400_000)).isGreaterThan(SlotColumn.CHUNK);
    }

    @Test
    void upsertsComeInKeyOrderWithTheNullKeyFirstAndDeletesLeftOut() {
        KeyColumns keys = new KeyColumns(LONG_KEY, List.of("id"));
        BatchChanges.Collector c = BatchChanges.collector(keys, -1, 0);
        c.add(null, new Object[] {5L, "e", 1.0});
        c.add(null, new Object[] {-3L, "m", 2.0});
        c.add(null, new Object[] {null, "z", 3.0});
        c.add(null, new Object[] {7L, "s", 4.0});
        c.add(tombstone("[7]"), null);
        c.add(tombstone("[9]"), null); // a key the batch had no row for
        c.add(null, new Object[] {5L, "e2", 5.0});
        BatchChanges changes = c.build();

        assertThat(changes).isInstanceOf(ColumnChanges.class);
        assertThat(changes.upsertsInKeyOrder()).isTrue();
        assertThat(changes.upserts()).extracting(Arrays::toString).containsExactly("[null, z, 3.0]", "[-3, m, 2.0]", "[5, e2, 5.0]");
        assertThat(changes.size()).isEqualTo(5);
        assertThat(changes.deletes()).isEqualTo(2);
        assertThat(changes.change(Key.single(9L))).isEqualTo(BatchChanges.Change.DELETE);
        assertThat(changes.change(Key.single(null))).isEqualTo(BatchChanges.Change.UPSERT);
        assertThat(changes.change(Key.single(6L))).isNull();
        assertThat(changes.keys()).containsExactlyInAnyOrder(Key.single(5L), Key.single(-3L), Key.single(null), Key.single(7L),
                Key.single(9L));
    }

    @Test
    void intKeysComeInKeyOrderFromTheSmallestToTheLargestInt() {
        Schema schema = Schema.parse("id INT, user STRING");
        BatchChanges.Collector c = BatchChanges.collector(new KeyColumns(schema, List.of("id")), -1, 0);
        for (int id : new int[] {0, Integer.MAX_VALUE, -1, Integer.MIN_VALUE, 1, -70_000, 70_000}) {
            c.add(null, new Object[] {id, "u" + id});
        }
        c.add(null, new Object[] {-1, "again"});
        BatchChanges changes = c.build();

        assertThat(changes).isInstanceOf(ColumnChanges.class);
        assertThat(changes.upserts()).extracting(Arrays::toString).containsExactly("[-2147483648, u-2147483648]",
                "[-70000, u-70000]", "[-1, again]", "[0, u0]", "[1, u1]", "[70000, u70000]", "[2147483647, u2147483647]");
    }

    @Test
    void aStringOrSeveralColumnsKeyTakesTheMapForm() {
        assertThat(ColumnChanges.fits(new KeyColumns(INT_KEY, List.of("user")))).isFalse();
        assertThat(ColumnChanges.fits(new KeyColumns(INT_KEY, List.of("id", "user")))).isFalse();
        assertThat(ColumnChanges.fits(new KeyColumns(INT_KEY, List.of("ts")))).isTrue();
    }

    private static void compare(Schema schema, int orderIndex, long seed) {
        compare(schema, orderIndex, seed, 3_000, 400);
    }

    /** @return how many keys the batch held */
    private static int compare(Schema schema, int orderIndex, long seed, int records, int keyRange) {
        KeyColumns keys = new KeyColumns(schema, List.of("id"));
        MapChanges.Collector expected = new MapChanges.Collector(keys, orderIndex, 0);
        ColumnChanges.Collector actual = new ColumnChanges.Collector(keys, orderIndex, 0);
        Random random = new Random(seed);
        boolean longKey = schema == LONG_KEY;
        for (int i = 0; i < records; i++) {
            Integer id = random.nextInt(50) == 0 ? null : random.nextInt(keyRange) - keyRange / 2;
            if (random.nextInt(10) == 0) {
                RecordOrigin t = tombstone("[" + id + "]");
                expected.add(t, null);
                actual.add(t, null);
                continue;
            }
            Object key = id == null ? null : longKey ? (Object) (id * 1_000_000_007L) : id;
            Object[] row = longKey ? new Object[] {key, user(random), amt(random)}
                    : new Object[] {key, user(random), amt(random), random.nextBoolean() ? null : random.nextLong(),
                            random.nextInt(5) == 0 ? null : random.nextInt(20_000), random.nextInt(5) == 0 ? null : (long) random.nextInt(5),
                            random.nextInt(3) == 0 ? null : random.nextBoolean()};
            expected.add(null, row);
            actual.add(null, row.clone());
        }
        BatchChanges want = expected.build();
        BatchChanges got = actual.build();
        String at = "seed " + seed + ", order column " + orderIndex;
        assertThat(got.size()).as(at).isEqualTo(want.size());
        assertThat(got.deletes()).as(at).isEqualTo(want.deletes());
        assertThat(new HashSet<>(got.keys())).as(at).isEqualTo(new HashSet<>(want.keys()));
        java.util.Map<Key, BatchChanges.Change> wantChanges = new java.util.HashMap<>();
        java.util.Map<Key, BatchChanges.Change> gotChanges = new java.util.HashMap<>();
        for (Key k : want.keys()) {
            wantChanges.put(k, want.change(k));
            gotChanges.put(k, got.change(k));
        }
        assertThat(gotChanges).as(at).isEqualTo(wantChanges);
        List<Object[]> sorted = new ArrayList<>(want.upserts());
        sorted.sort(keys.rowOrder());
        assertThat(got.upserts().stream().map(Arrays::deepToString).toList()).as(at)
                .isEqualTo(sorted.stream().map(Arrays::deepToString).toList());
        assertThat(got.upserts().stream().map(BatchChangesTest::types).toList()).as(at + ": the values' Java types, as the rows were read")
                .isEqualTo(sorted.stream().map(BatchChangesTest::types).toList());
        return got.size();
    }

    private static List<String> types(Object[] row) {
        return Arrays.stream(row).map(v -> v == null ? "null" : v.getClass().getSimpleName()).toList();
    }

    private static String user(Random random) {
        return random.nextInt(20) == 0 ? null : "u" + random.nextInt(30);
    }

    private static Double amt(Random random) {
        return random.nextInt(20) == 0 ? null : random.nextInt(1000) / 8.0;
    }

    private static RecordOrigin tombstone(String key) {
        return new RecordOrigin(0, 0, 0, key.getBytes(StandardCharsets.UTF_8));
    }
}
