package io.tributary.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Schema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A batch whose keys spill to disk beyond a bound ({@link SpillingCollector}, {@link SpilledChanges}) against the map
 * form ({@link MapChanges}) on the same records: keys repeated across runs, deleted in one run and written again in
 * a later one, a null key, null values of every flat type, with and without an order column.
 */
class SpilledChangesTest {
    private static final Schema SCHEMA = Schema.parse(
            "id INT, user STRING, amt DOUBLE, ts TIMESTAMP, d DATE, n LONG, ok BOOLEAN, b BYTE, s SHORT, f FLOAT, dec DECIMAL(10,2), bin BINARY");
    private static final Schema LONG_KEY = Schema.parse("id LONG, user STRING, amt DOUBLE");

    @Test
    void keysSpilledInRunsMergeAsTheRecordsCollapseInMemory() {
        compareSeeds(0, 5);
    }

    /** The same over fifteen more seeds (about a minute and a half on two cores): in the scenarios step, {@code -Pscenarios}. */
    @Test
    @Tag("integration")
    @Tag("scenarios")
    void keysSpilledInRunsMergeAsTheRecordsCollapseInMemoryOverMoreSeeds() {
        compareSeeds(5, 20);
    }

    private static void compareSeeds(long from, long to) {
        for (long seed = from; seed < to; seed++) {
            for (int bound : new int[] {2, 9, 150}) { // 2: more runs than a merge opens at once
                compare(SCHEMA, -1, seed, bound);
                compare(SCHEMA, SCHEMA.indexOf("n"), seed, bound);
                compare(LONG_KEY, -1, seed, bound);
            }
        }
    }

    @Test
    void aBatchUnderTheBoundStaysInMemoryAndWritesNothing() throws IOException {
        KeyColumns keys = new KeyColumns(LONG_KEY, List.of("id"));
        SpillingCollector c = new SpillingCollector(keys, -1, 0, 10);
        for (long id = 0; id < 9; id++) {
            c.add(null, new Object[] {id, "u", 1.0});
        }
        assertThat(c.build()).isInstanceOf(ColumnChanges.class);
    }

    @Test
    void theRunsAreDeletedAfterTheCommitAndWhenTheBatchIsDiscarded() throws IOException {
        KeyColumns keys = new KeyColumns(LONG_KEY, List.of("id"));
        SpillingCollector c = new SpillingCollector(keys, -1, 0, 10);
        for (long id = 0; id < 25; id++) {
            c.add(null, new Object[] {id, "u" + id, 1.0});
        }
        assertThat(ownFolders()).hasSize(1);
        BatchChanges built = c.build();
        assertThat(built).isInstanceOf(SpilledChanges.class);
        assertThat(built.upserts()).hasSize(25);
        ((SpilledChanges) built).close();
        assertThat(ownFolders()).isEmpty();

        SpillingCollector failed = new SpillingCollector(keys, -1, 0, 10);
        for (long id = 0; id < 25; id++) {
            failed.add(null, new Object[] {id, "u", 1.0});
        }
        assertThat(ownFolders()).hasSize(1);
        failed.discard();
        assertThat(ownFolders()).isEmpty();
    }

    @Test
    void theFolderOfAProcessThatEndedIsDeletedByTheNextBatchThatSpills() throws IOException {
        Path root = SpillFolder.root();
        Files.createDirectories(root);
        Process ended = new ProcessBuilder("true").start();
        ProcessHandle handle = ended.toHandle();
        handle.onExit().join();
        Path left = Files.createDirectories(root.resolve(handle.pid() + "-1"));
        Files.writeString(left.resolve("run-0"), "left by a process killed before its commit");

        Path mine = SpillFolder.create();
        assertThat(left).doesNotExist();
        assertThat(mine).exists();
        SpillFolder.delete(mine);
        assertThat(mine).doesNotExist();
    }

    @Test
    void aNestedColumnOrAKeyThatIsNotOneIntegralColumnDoesNotSpill() {
        assertThat(SpillingCollector.fits(new KeyColumns(Schema.parse("id INT, tags ARRAY<STRING>"), List.of("id")))).isFalse();
        assertThat(SpillingCollector.fits(new KeyColumns(SCHEMA, List.of("user")))).isFalse();
        assertThat(SpillingCollector.fits(new KeyColumns(SCHEMA, List.of("id")))).isTrue();
    }

    private static List<Path> ownFolders() throws IOException {
        Path root = SpillFolder.root();
        if (!Files.exists(root)) {
            return List.of();
        }
        String pid = ProcessHandle.current().pid() + "-";
        try (Stream<Path> folders = Files.list(root)) {
            return folders.filter(f -> f.getFileName().toString().startsWith(pid)).toList();
        }
    }

    private static void compare(Schema schema, int orderIndex, long seed, int bound) {
        KeyColumns keys = new KeyColumns(schema, List.of("id"));
        MapChanges.Collector expected = new MapChanges.Collector(keys, orderIndex, 0);
        SpillingCollector actual = new SpillingCollector(keys, orderIndex, 0, bound);
        Random random = new Random(seed);
        boolean longKey = schema == LONG_KEY;
        for (int i = 0; i < 2_000; i++) {
            Integer id = random.nextInt(50) == 0 ? null : random.nextInt(300) - 150;
            if (random.nextInt(8) == 0) {
                RecordOrigin t = new RecordOrigin(0, i, 0, ("[" + id + "]").getBytes(StandardCharsets.UTF_8));
                expected.add(t, null);
                actual.add(t, null);
                continue;
            }
            Object key = id == null ? null : longKey ? (Object) (id * 1_000_000_007L) : id;
            Object[] row = longKey ? new Object[] {key, user(random), amt(random)} : row(key, random);
            expected.add(null, row);
            actual.add(null, row.clone());
        }
        BatchChanges want = expected.build();
        BatchChanges got = actual.build();
        String at = "seed " + seed + ", bound " + bound + ", order column " + orderIndex;
        try {
            assertThat(got.size()).as(at).isEqualTo(want.size());
            assertThat(got.deletes()).as(at).isEqualTo(want.deletes());
            assertThat(new HashSet<>(got.keys())).as(at).isEqualTo(new HashSet<>(want.keys()));
            Map<Key, BatchChanges.Change> wantChanges = new HashMap<>();
            Map<Key, BatchChanges.Change> gotChanges = new HashMap<>();
            for (Key k : want.keys()) {
                wantChanges.put(k, want.change(k));
                gotChanges.put(k, got.change(k));
            }
            assertThat(gotChanges).as(at).isEqualTo(wantChanges);
            assertThat(got.change(Key.single(longKey ? (Object) 999_999_999_999L : (Object) 9_999))).as(at).isNull();
            List<Object[]> sorted = new ArrayList<>(want.upserts());
            sorted.sort(keys.rowOrder());
            List<String> wantRows = sorted.stream().map(SpilledChangesTest::typed).toList();
            assertThat(got.upserts().stream().map(SpilledChangesTest::typed).toList()).as(at + ", iterated").isEqualTo(wantRows);
            List<String> byIndex = new ArrayList<>();
            List<Object[]> upserts = got.upserts();
            for (int i = 0; i < upserts.size(); i++) {
                byIndex.add(typed(upserts.get(i)));
            }
            assertThat(byIndex).as(at + ", by index").isEqualTo(wantRows);
        } finally {
            if (got instanceof SpilledChanges s) {
                s.close();
            }
        }
    }

    /** A row's values with their Java types, as the rows were read. */
    private static String typed(Object[] row) {
        StringBuilder out = new StringBuilder();
        for (Object v : row) {
            out.append(v == null ? "null" : v.getClass().getSimpleName() + ":" + (v instanceof byte[] b ? Arrays.toString(b) : v)).append(' ');
        }
        return out.toString();
    }

    private static Object[] row(Object key, Random random) {
        return new Object[] {key, user(random), amt(random), random.nextBoolean() ? null : random.nextLong(),
                random.nextInt(5) == 0 ? null : random.nextInt(20_000), random.nextInt(5) == 0 ? null : (long) random.nextInt(5),
                random.nextInt(3) == 0 ? null : random.nextBoolean(), random.nextInt(4) == 0 ? null : (byte) random.nextInt(),
                random.nextInt(4) == 0 ? null : (short) random.nextInt(), random.nextInt(4) == 0 ? null : random.nextFloat(),
                random.nextInt(4) == 0 ? null : java.math.BigDecimal.valueOf(random.nextInt(100_000), 2),
                random.nextInt(4) == 0 ? null : new byte[] {(byte) random.nextInt(), 7}};
    }

    private static String user(Random random) {
        return random.nextInt(20) == 0 ? null : random.nextInt(7) == 0 ? "ü€" + random.nextInt(30) : "u" + random.nextInt(30);
    }

    private static Double amt(Random random) {
        return random.nextInt(20) == 0 ? null : random.nextInt(1000) / 8.0;
    }
}
