package io.tributary.sink.internal;

import static io.tributary.sink.internal.UpsertTables.batchOf;
import static io.tributary.sink.internal.UpsertTables.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.tributary.delta.KernelEngines;
import io.tributary.delta.KernelRows;
import io.tributary.delta.KernelSchemas;
import io.tributary.delta.kernel.KernelInternals;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.settings.Values;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkConfig;
import io.tributary.sink.SinkSettings;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The key lookup ({@link KeyProbe}): its sorted set of a batch's keys answers as a hash set does, whatever the order the
 * table's keys come in: ascending (a file the upsert wrote), descending, or at random (a file another writer wrote); and
 * an upsert on a table with deletion vectors, through the probe, replaces exactly its keys' rows for every key kind.
 */
class KeyProbeTest {
    /** Plain (integral codes, in the values' order) and hashed (codes mixed, with the bit filter in front). */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void theSortedSetWalkedByTheFilesKeysFindsExactlyTheBatchsKeysInAnyOrder(boolean hashed) {
        java.util.function.LongUnaryOperator code = v -> hashed ? KeyProbe.mix(v) : v;
        Random rnd = new Random(7);
        Set<Long> expected = new HashSet<>();
        KeyProbe.LongSet set = new KeyProbe.LongSet(4, hashed);
        for (int i = 0; i < 5_000; i++) {
            long v = rnd.nextInt(40_000) - 20_000L;
            set.add(code.applyAsLong(v));
            expected.add(v);
        }
        for (long v : new long[] {0, Long.MIN_VALUE, Long.MAX_VALUE}) {
            set.add(code.applyAsLong(v));
            expected.add(v);
        }
        set.sorted();
        List<String> wrong = new ArrayList<>();
        for (long v = -20_010; v <= 20_010; v++) {
            if (set.contains(code.applyAsLong(v)) != expected.contains(v)) {
                wrong.add("ascending " + v);
            }
        }
        for (long v = 20_010; v >= -20_010; v -= 3) {
            if (set.contains(code.applyAsLong(v)) != expected.contains(v)) {
                wrong.add("descending " + v);
            }
        }
        for (int i = 0; i < 50_000; i++) {
            long v = i % 1000 == 0 ? (i % 2000 == 0 ? Long.MAX_VALUE : Long.MIN_VALUE) : rnd.nextInt(40_100) - 20_050L;
            if (set.contains(code.applyAsLong(v)) != expected.contains(v)) {
                wrong.add("at random " + v);
            }
        }
        assertThat(wrong).isEmpty();
    }

    /** Key kinds of the table test: every column a key may be of, and a value column each batch changes. */
    static final Schema KINDS = Schema.parse("grp INT, id INT, name STRING, day DATE, at TIMESTAMP, price DECIMAL(10,2), flag BOOLEAN,"
            + " amt DOUBLE, note STRING, op STRING");
    private static final long TS = 1_700_000_000_000_000L;

    @TempDir
    Path dir;

    private final Engine engine = KernelEngines.create();

    /** Row {@code i} of the table test: every key below unique, {@code grp} of three values, {@code id} of a third as many. */
    private static Object[] row(int i, String note, String op) {
        return new Object[] {i % 3, i / 3, "n" + i, 19_000 + i, TS + i * 1_000_000L, BigDecimal.valueOf(i * 100L + 25, 2), i % 2 == 0,
                i * 0.5, note, op};
    }

    /** A row whose every column but the note is null: its key is null in every key column (null equals null, as {@code <=>}). */
    private static Object[] nullKey(String note) {
        return new Object[] {null, null, null, null, null, null, null, null, note, "i"};
    }

    /**
     * A STRING key's code is the hash of its UTF-8 bytes, computed from the String without encoding it, so that the
     * direct read's raw bytes ({@link DirectKeyRead}) meet the batch's Strings: one, two, three and four bytes a
     * character, and an unpaired surrogate (written as {@code '?'}).
     */
    @Test
    void aStringsCodeIsTheHashOfItsUtf8Bytes() {
        for (String s : List.of("", "abc", "é", "ÿ\u07ff", "日本語", "\uD83D\uDE00", "a\uD83D\uDE00b", "\uD800", "x\uDC00y", "\uDBFF\uDFFF",
                "\uD83D", "k123456")) {
            assertThat(KeyProbe.Code.hashUtf8(s)).as("code of %s", s)
                    .isEqualTo(KeyProbe.Code.hash(s.getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                    .isEqualTo(KeyProbe.Code.hash(java.nio.ByteBuffer.wrap(("--" + s).getBytes(java.nio.charset.StandardCharsets.UTF_8), 2,
                            s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length)));
        }
        assertThat(KeyProbe.Code.hashUtf8("ab")).isNotEqualTo(KeyProbe.Code.hashUtf8("ba"));
    }

    @Test
    void everyKeyKindTheLookupCoversGetsAProbeAndAStructKeyNone() {
        for (String keys : List.of("grp,id", "flag,name", "day", "at", "price", "amt", "name")) {
            KeyColumns k = new KeyColumns(KINDS, List.of(keys.split(",")));
            assertThat(KeyProbe.of(k, List.of(k.of(row(1, "v", "u")), k.of(nullKey("v"))))).as(keys).isNotNull();
        }
        Schema nested = Schema.parse("s STRUCT<a: INT>, v STRING");
        assertThat(KeyProbe.of(new KeyColumns(nested, List.of("s")), List.of(Key.single(new Object[] {1})))).isNull();
    }

    /**
     * On a table with deletion vectors (and the change data feed on or off), an upsert keyed by two columns, by a DATE,
     * a TIMESTAMP, a DECIMAL, a DOUBLE, or a BOOLEAN and a STRING, replaces and deletes exactly its keys' rows, a key null
     * in every column among them; with the feed on, its change files hold the old rows whole.
     */
    @ParameterizedTest
    @CsvSource({"'grp,id', false", "'grp,id', true", "'flag,name', false", "'flag,name', true", "day, false", "at, true", "price, false",
            "price, true", "amt, false", "amt, true", "'day,at', true", "name, true"})
    void theKeyLookupOfEveryKeyKindReplacesExactlyTheBatchsRows(String keyList, boolean changeFeed) throws IOException {
        Path table = dir.resolve(keyList.replace(',', '-') + "-" + changeFeed);
        Map<String, String> spec = Map.of("sink.delta.mode", "upsert", "sink.delta.keys", keyList, "sink.delta.deleteWhen", "op = 'd'",
                "sink.delta.exceptColumns", "op", "sink.delta.rowsPerFile", "50");
        Values values = Values.localized(SinkSettings.ALL, s -> s.under("sink.delta"), spec::get, (s, text, e) -> e);
        SinkConfig c = SinkConfig.builder(table.toString(), KINDS, "events", UpsertTables.APP, "test/sink").settings(values).build();
        Map<String, String> properties = new HashMap<>(DeletionVectorUpsertTest.DV);
        if (changeFeed) {
            properties.put("delta.enableChangeDataFeed", "true");
        }
        WriteMode mode = WriteMode.forConfig(c, new DeltaTableWriter(engine, c.tablePath(), c.tableSchema(), properties));
        KeyColumns keys = new KeyColumns(KINDS, List.of(keyList.split(",")));
        Model model = new Model(keys);
        List<Object[]> first = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            first.add(row(i, "v0", "i"));
        }
        model.apply(first);
        write(mode, 0, batchOf(first));

        List<Object[]> second = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            if (i % 7 == 0) {
                second.add(row(i, "v1", "u"));
            } else if (i % 11 == 0) {
                second.add(row(i, null, "d"));
            }
        }
        for (int i = 200; i < 205; i++) {
            second.add(row(i, "v1", "i"));
        }
        second.add(nullKey("null key"));
        List<Object[]> third = List.of(nullKey("null key again"), row(7, "v2", "u"), row(14, null, "d"), row(201, "v2", "u"),
                row(210, null, "d"));
        long version = 1;
        for (List<Object[]> batch : List.of(second, third)) {
            long[] counts = model.apply(batch);
            CommitResult r = write(mode, version, batchOf(batch));
            assertThat(rows(table)).as("%s, batch %s", keyList, version).containsExactlyInAnyOrderElementsOf(model.rows());
            assertThat(r.metrics()).as("%s, batch %s", keyList, version).containsEntry("numTargetRowsUpdated", counts[0])
                    .containsEntry("numTargetRowsDeleted", counts[1]).containsEntry("numTargetRowsInserted", counts[2])
                    .containsEntry("numTargetRowsCopied", 0L).containsEntry("numTargetFilesRemoved", 0L);
            if (changeFeed) {
                assertThat(changes(table, c.tableSchema(), version)).as("%s, batch %s", keyList, version)
                        .containsExactlyInAnyOrderElementsOf(model.changes());
            }
            version++;
        }
        assertThat(model.rows()).hasSize(200 - 16 + 5 + 1 - 1);
    }

    /**
     * History (SCD type 2, tracking every column but the city) keyed by an INT and a DATE: the same random change stream,
     * out of order and with duplicates, in the same batches, leaves a table with deletion vectors (its versions found
     * through the probe, with the change data feed on and off) holding exactly the rows of a copy-on-write table (every
     * row read), with the same counts and no row copied.
     */
    @Test
    void historyKeyedByTwoColumnsWithDeletionVectorsEndsAsOnACopyOnWriteTable() {
        Schema schema = Schema.parse("grp INT, day DATE, name STRING, city STRING, op STRING, lsn BIGINT");
        Map<String, String> spec = Map.of("sink.delta.mode", "upsert", "sink.delta.keys", "grp,day", "sink.delta.sequenceBy", "lsn",
                "sink.delta.deleteWhen", "op = 'DELETE'", "sink.delta.exceptColumns", "op", "sink.delta.history", "true",
                "sink.delta.trackHistoryExceptColumns", "city", "sink.delta.rowsPerFile", "20");
        Values values = Values.localized(SinkSettings.ALL, s -> s.under("sink.delta"), spec::get, (s, text, e) -> e);
        List<Map<String, String>> properties = List.of(Map.of(), DeletionVectorUpsertTest.DV,
                Map.of("delta.enableDeletionVectors", "true", "delta.enableChangeDataFeed", "true"));
        List<Path> tables = new ArrayList<>();
        List<WriteMode> modes = new ArrayList<>();
        for (Map<String, String> p : properties) {
            Path table = dir.resolve("history-" + tables.size());
            SinkConfig c = SinkConfig.builder(table.toString(), schema, "events", UpsertTables.APP, "test/sink").settings(values).build();
            tables.add(table);
            modes.add(WriteMode.forConfig(c, new DeltaTableWriter(engine, c.tablePath(), c.tableSchema(), p)));
        }
        Random random = new Random(11);
        List<Object[]> changes = new ArrayList<>();
        for (long lsn = 1; lsn <= 400; lsn++) {
            int grp = random.nextInt(3);
            changes.add(new Object[] {grp, 19_000 + random.nextInt(15), "n" + random.nextInt(3), "c" + lsn,
                    random.nextInt(10) < 2 ? "DELETE" : "UPDATE", lsn});
        }
        long batchId = 0;
        for (int from = 0; from < changes.size(); batchId++) {
            int to = Math.min(changes.size(), from + 1 + random.nextInt(60));
            List<Object[]> arrival = new ArrayList<>(changes.subList(from, to));
            java.util.Collections.shuffle(arrival, random);
            arrival.add(changes.get(random.nextInt(to)));
            List<Map<String, Object>> metrics = new ArrayList<>();
            for (WriteMode mode : modes) {
                metrics.add(write(mode, batchId, batchOf(arrival)).metrics());
            }
            List<String> expected = rows(tables.get(0));
            for (int t = 1; t < tables.size(); t++) {
                assertThat(rows(tables.get(t))).as("table %s, batch %s", t, batchId).containsExactlyInAnyOrderElementsOf(expected);
                for (String metric : List.of("numTargetRowsInserted", "numTargetRowsUpdated", "numTargetRowsDeleted", "numSourceChangesDuplicated")) {
                    assertThat(metrics.get(t).get(metric)).as("%s of table %s, batch %s", metric, t, batchId).isEqualTo(metrics.get(0).get(metric));
                }
                assertThat(metrics.get(t)).as("table %s, batch %s", t, batchId).containsEntry("numTargetRowsCopied", 0L);
            }
            from = to;
        }
        assertThat(rows(tables.get(0))).as("versions of 45 keys").hasSizeGreaterThan(45);
    }

    /** What the table holds after each batch, and the changes of the last: a row and a change as their columns' text. */
    private static final class Model {
        private final KeyColumns keys;
        private final Map<Key, String> rows = new HashMap<>();
        private final List<String> changes = new ArrayList<>();

        Model(KeyColumns keys) {
            this.keys = keys;
        }

        /** Applies a batch of distinct keys; returns rows updated, deleted, inserted. */
        long[] apply(List<Object[]> batch) {
            long[] counts = new long[3];
            changes.clear();
            for (Object[] change : batch) {
                Key key = keys.of(change);
                String stored = Arrays.toString(Arrays.copyOf(change, change.length - 1));
                String old = "d".equals(change[change.length - 1]) ? rows.remove(key) : rows.put(key, stored);
                if ("d".equals(change[change.length - 1])) {
                    counts[1] += old == null ? 0 : 1;
                    add(old, "delete");
                } else {
                    counts[old == null ? 2 : 0]++;
                    add(old, "update_preimage");
                    add(stored, old == null ? "insert" : "update_postimage");
                }
            }
            return counts;
        }

        private void add(String row, String type) {
            if (row != null) {
                changes.add(row + " " + type);
            }
        }

        List<String> rows() {
            return new ArrayList<>(rows.values());
        }

        List<String> changes() {
            return changes;
        }
    }

    private static List<String> rows(Path table) {
        return DeltaTables.readRows(table.toString()).stream().map(Arrays::toString).toList();
    }

    private List<String> changes(Path table, Schema tableSchema, long version) throws IOException {
        return changes(engine, table, tableSchema, version);
    }

    /** The rows of a version's change data files, each as its table columns' text and its change type. */
    static List<String> changes(Engine engine, Path table, Schema tableSchema, long version) throws IOException {
        String log = Files.readString(table.resolve(String.format("_delta_log/%020d.json", version)));
        List<Field> fields = new ArrayList<>(tableSchema.fields());
        fields.add(new Field("_change_type", DataType.STRING, true));
        Schema schema = new Schema(fields);
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("\\{\"cdc\":\\{\"path\":\"([^\"]+)\"").matcher(log);
        while (m.find()) {
            Path file = table.resolve(m.group(1));
            FileStatus fs = FileStatus.of(file.toUri().toString(), Files.size(file), 0);
            List<Object[]> rows = new ArrayList<>();
            try (CloseableIterator<ColumnarBatch> batches = engine.getParquetHandler()
                    .readParquetFiles(KernelInternals.single(fs), KernelSchemas.toKernel(schema), Optional.empty()).map(r -> r.getData())) {
                while (batches.hasNext()) {
                    KernelRows.addRows(schema, new FilteredColumnarBatch(batches.next(), Optional.empty()), rows);
                }
            }
            for (Object[] r : rows) {
                out.add(Arrays.toString(Arrays.copyOf(r, r.length - 1)) + " " + r[r.length - 1]);
            }
        }
        return out;
    }
}
