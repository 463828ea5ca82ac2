package io.tributary.sink.internal;

import static io.tributary.sink.internal.UpsertTables.batch;
import static io.tributary.sink.internal.UpsertTables.batchOf;
import static io.tributary.sink.internal.UpsertTables.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.settings.Values;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkConfig;
import io.tributary.sink.SinkSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Change data through mode upsert (sequenceBy, deleteWhen, exceptColumns) into real tables. */
class ChangeUpsertTest {
    static final Schema SCHEMA = Schema.parse("id INT, name STRING, op STRING, lsn BIGINT");
    static final Map<String, String> CDC = Map.of("mode", "upsert", "keys", "id", "sequenceBy", "lsn",
            "deleteWhen", "op = 'd'", "exceptColumns", "op");

    @TempDir
    Path dir;

    private final Engine engine = KernelEngines.create();

    private Path table() {
        return dir.resolve("t");
    }

    static SinkConfig config(Path table, Map<String, String> settings) {
        Map<String, String> spec = new HashMap<>();
        settings.forEach((k, v) -> spec.put("sink.delta." + k, v));
        Values values = Values.localized(SinkSettings.ALL, s -> s.under("sink.delta"), spec::get, (s, text, e) -> e);
        return SinkConfig.builder(table.toString(), SCHEMA, "events", UpsertTables.APP, "test/sink").settings(values).build();
    }

    private WriteMode mode(Map<String, String> settings) {
        SinkConfig c = config(table(), settings);
        return WriteMode.forConfig(c, new DeltaTableWriter(engine, c.tablePath(), c.tableSchema(), Map.of()));
    }

    static Object[] c(int id, String name, String op, long lsn) {
        return new Object[] {id, name, op, lsn};
    }

    /** The table's rows as id:name:lsn, by id. */
    private List<String> rows() {
        TreeMap<Integer, String> out = new TreeMap<>();
        for (Object[] row : DeltaTables.readRows(table().toString())) {
            assertThat(row).hasSize(3); // op is not stored
            out.put((Integer) row[0], row[0] + ":" + row[1] + ":" + row[2]);
        }
        return new ArrayList<>(out.values());
    }

    @Test
    void deletesLateChangesAndReinsertsFollowTheSequenceAcrossBatches() {
        WriteMode cdc = mode(CDC);
        CommitResult b0 = write(cdc, 0, batch(c(1, "a", "i", 10), c(2, "b", "i", 11), c(3, "c", "i", 12), c(1, "a2", "u", 14),
                c(1, "a1", "u", 13), c(4, "x", "d", 15)));
        assertThat(rows()).containsExactly("1:a2:14", "2:b:11", "3:c:12");
        assertThat(b0.metrics()).containsEntry("numTargetRowsInserted", 3L).containsEntry("numSourceDeletesOfAbsentKeys", 1L)
                .containsEntry("numDeleteMarkers", 1L);

        CommitResult b1 = write(cdc, 1, batch(c(2, "b-old", "u", 9), c(3, null, "d", 20), c(4, "x", "i", 5), c(5, "e", "i", 21),
                c(1, "a2", "u", 14)));
        assertThat(rows()).containsExactly("1:a2:14", "2:b:11", "5:e:21");
        assertThat(b1.metrics()).containsEntry("numSourceKeysSkippedOutOfOrder", 3L).containsEntry("numTargetRowsDeleted", 1L)
                .containsEntry("numTargetRowsInserted", 1L).containsEntry("numTargetRowsUpdated", 0L)
                .containsEntry("numDeleteMarkers", 2L);

        CommitResult b2 = write(mode(CDC), 2, batch(c(3, "c-late", "u", 19), c(4, "y", "i", 16), c(3, "c-new", "i", 25)));
        assertThat(rows()).containsExactly("1:a2:14", "2:b:11", "3:c-new:25", "4:y:16", "5:e:21");
        assertThat(b2.metrics()).containsEntry("numSourceKeysSkippedOutOfOrder", 0L).containsEntry("numTargetRowsInserted", 2L)
                .containsEntry("numDeleteMarkers", 0L);
    }

    @ParameterizedTest
    @ValueSource(strings = {"name", "id, name"})
    void aStringOrTwoColumnKeyKeepsItsDeleteMarkersAcrossBatches(String keys) {
        Map<String, String> settings = new HashMap<>(CDC);
        settings.put("keys", keys);
        WriteMode cdc = mode(settings);
        write(cdc, 0, batch(c(1, "a", "i", 10), c(2, "b", "i", 11), c(2, "b", "d", 12)));
        write(cdc, 1, batch(c(2, "b", "u", 11), c(1, "a", "d", 13), c(1, "a", "u", 12)));
        CommitResult late = write(mode(settings), 2, batch(c(1, "a", "i", 9), c(2, "b", "i", 14)));
        assertThat(late.metrics()).containsEntry("numSourceKeysSkippedOutOfOrder", 1L).containsEntry("numDeleteMarkers", 1L);
        assertThat(rows()).containsExactly("2:b:14");
    }

    @ParameterizedTest
    @ValueSource(strings = {"op = d", "op = 'd'", "op IN ('d', 'D')", "op in (d,D)", "lower(op) = 'd'", "op = 'd' OR op == 'D'",
        "upper(op) IN ('D') AND id > 0", "op <=> 'd' or op = 'D'"})
    void deleteWhenTakesASparkSqlConditionOrTheOlderColumnEqualsValueForm(String condition) {
        Map<String, String> settings = new HashMap<>(CDC);
        settings.put("deleteWhen", condition);
        WriteMode cdc = mode(settings);
        write(cdc, 0, batch(c(1, "a", "i", 1), c(2, "b", "i", 2), c(3, "c", "i", 3)));
        write(cdc, 1, batch(c(1, null, "d", 4), c(2, null, condition.contains("D") ? "D" : "d", 5), c(3, "c", "x", 6)));
        assertThat(rows()).containsExactly("3:c:6");
    }

    @Test
    void withoutSequenceByTheLastChangeInKafkaOrderWins() {
        WriteMode cdc = mode(Map.of("mode", "upsert", "keys", "id", "deleteWhen", "op = d", "exceptColumns", "op"));
        write(cdc, 0, batch(c(1, "a", "i", 10), c(2, "b", "i", 11), c(2, null, "d", 12), c(1, "a-last", "u", 1)));
        write(cdc, 1, batch(c(1, "a-older", "u", 0)));
        assertThat(rows()).containsExactly("1:a-older:0");
    }

    /** A change stream with inserts, updates, deletes, re-inserts, duplicates and late changes, in random batches. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void randomChangeStreamsEndAsTheirSerialResultInSequenceOrder(long seed) {
        Random random = new Random(seed);
        List<Object[]> changes = new ArrayList<>();
        for (long lsn = 1; lsn <= 400; lsn++) {
            int id = random.nextInt(25);
            int kind = random.nextInt(10);
            changes.add(c(id, "n" + lsn, kind < 3 ? "d" : kind < 5 ? "i" : "u", lsn));
        }
        List<Object[]> arrival = new ArrayList<>(changes);
        for (int i = 0; i < 300; i++) { // local swaps: out of order within and across batches
            int a = random.nextInt(arrival.size() - 1);
            int b = Math.min(arrival.size() - 1, a + 1 + random.nextInt(30));
            Object[] t = arrival.get(a);
            arrival.set(a, arrival.get(b));
            arrival.set(b, t);
        }
        for (int i = 0; i < 60; i++) { // duplicates, some much later
            arrival.add(random.nextInt(arrival.size()), arrival.get(random.nextInt(arrival.size())));
        }
        WriteMode cdc = mode(CDC);
        Map<Integer, Long> stored = new HashMap<>(); // the serial model: per key, the sequence of the change applied last
        long expectedSkipped = 0;
        long skipped = 0;
        int batchId = 0;
        for (int from = 0; from < arrival.size(); batchId++) {
            int to = Math.min(arrival.size(), from + 1 + random.nextInt(40));
            List<Object[]> batch = arrival.subList(from, to);
            Map<Integer, Long> winners = new HashMap<>();
            batch.forEach(ch -> winners.merge((Integer) ch[0], (Long) ch[3], Math::max));
            for (Map.Entry<Integer, Long> w : winners.entrySet()) {
                Long before = stored.get(w.getKey());
                if (before != null && w.getValue() <= before) {
                    expectedSkipped++;
                } else {
                    stored.put(w.getKey(), w.getValue());
                }
            }
            skipped += (Long) write(cdc, batchId, batchOf(batch)).metrics().get("numSourceKeysSkippedOutOfOrder");
            from = to;
        }
        Map<Integer, Object[]> latest = new TreeMap<>();
        for (Object[] ch : changes) { // lsn order: the last change of a key decides
            latest.put((Integer) ch[0], ch);
        }
        List<String> expected = new ArrayList<>();
        latest.values().stream().filter(ch -> !ch[2].equals("d")).forEach(ch -> expected.add(ch[0] + ":" + ch[1] + ":" + ch[3]));
        assertThat(rows()).containsExactlyElementsOf(expected);
        assertThat(skipped).isEqualTo(expectedSkipped).isPositive();
    }

    @Test
    void aDeleteMarkerOlderThanTheRetentionIsDroppedAndALateChangeThenComesBack() {
        long day = Duration.ofDays(1).toMillis();
        long[] now = {0};
        SinkConfig c = config(table(), CDC); // deleteRetention: 7 days
        DeltaTableWriter writer = new DeltaTableWriter(engine, c.tablePath(), c.tableSchema(), Map.of());
        WriteMode cdc = new ChangeUpsert(writer, new RewriteCommitter(writer), c, () -> now[0]);
        write(cdc, 0, batch(c(1, "a", "i", 10), c(2, "b", "i", 11)));
        write(cdc, 1, batch(c(1, null, "d", 12)));
        now[0] = 6 * day;
        CommitResult kept = write(cdc, 2, batch(c(1, "a-late", "u", 11)));
        assertThat(kept.metrics()).containsEntry("numSourceKeysSkippedOutOfOrder", 1L).containsEntry("numDeleteMarkersExpired", 0L);
        assertThat(rows()).containsExactly("2:b:11");
        now[0] = 7 * day + 1;
        CommitResult dropped = write(cdc, 3, batch(c(2, "b2", "u", 13)));
        assertThat(dropped.metrics()).containsEntry("numDeleteMarkersExpired", 1L).containsEntry("numDeleteMarkers", 0L);
        write(cdc, 4, batch(c(1, "a-later", "u", 11)));
        assertThat(rows()).as("past deleteRetention a late change inserts the key again").containsExactly("1:a-later:11", "2:b2:13");
    }

    @Test
    void aDeleteConditionThatIsNullDoesNotDeleteAsSparksMergeClause() {
        Map<String, String> settings = new HashMap<>(CDC);
        settings.put("deleteWhen", "op = 'd' AND name IS NULL OR CASE WHEN op = 'x' THEN NULL ELSE false END");
        WriteMode cdc = mode(settings);
        write(cdc, 0, batch(c(1, "a", "i", 1), c(2, "b", "i", 2), c(3, "c", "i", 3)));
        write(cdc, 1, batch(c(1, null, "d", 4), c(2, "b-kept", "d", 5), c(3, "c-null", "x", 6)));
        assertThat(rows()).as("1 deleted; 2's condition is false, 3's null: both upserts").containsExactly("2:b-kept:5", "3:c-null:6");
    }

    @Test
    void aDeleteConditionThatFailsOnAChangeStopsTheBatchNamingTheRecord() {
        Map<String, String> settings = new HashMap<>(CDC);
        settings.put("deleteWhen", "CAST(op AS INT) = 0");
        WriteMode cdc = mode(settings);
        write(cdc, 0, batch(c(1, "a", "0", 1)));
        assertThat(rows()).isEmpty();
        assertThatThrownBy(() -> write(cdc, 1, batch(c(2, "b", "1", 2), c(3, "c", "d", 3))))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("deleteWhen \"CAST(op AS INT) = 0\" fails on the change at partition 0 offset 1")
                .hasMessageContaining("CAST_INVALID_INPUT");
        assertThat(rows()).as("nothing of the failed batch").isEmpty();
    }

    @Test
    void aDeleteConditionThatDoesNotCompileIsRefusedWhereTheSpecWroteIt() {
        Map<String, String> spec = Map.of("sink.delta.mode", "upsert", "sink.delta.keys", "id", "sink.delta.deleteWhen", "op = 'd' AND");
        Values values = Values.localized(SinkSettings.ALL, s -> s.under("sink.delta"), spec::get,
                (s, text, e) -> new TributaryException("spec pipeline.yaml line 9: " + e.getMessage()));
        assertThatThrownBy(() -> SinkConfig.builder(table().toString(), SCHEMA, "events", UpsertTables.APP, "test/sink").settings(values).build())
                .isInstanceOf(TributaryException.class)
                .hasMessageStartingWith("spec pipeline.yaml line 9: sink.delta.deleteWhen \"op = 'd' AND\" is not a condition");
    }

    @Test
    void settingsThatCannotWorkTogetherAreRefusedNamingTheKey() {
        assertThatThrownBy(() -> config(table(), Map.of("mode", "upsert", "keys", "id", "sequenceBy", "lsn", "order", "lsn")))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("sink.delta.sequenceBy 'lsn' and sink.delta.order 'lsn' are both set");
        assertThatThrownBy(() -> config(table(), Map.of("mode", "upsert", "keys", "id", "sequenceBy", "lsn", "exceptColumns", "op, lsn")))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("sink.delta.exceptColumns names column 'lsn', the sink.delta.sequenceBy column");
        assertThatThrownBy(() -> config(table(), Map.of("mode", "upsert", "keys", "id", "deleteWhen", "op = 'd' or")))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("sink.delta.deleteWhen \"op = 'd' or\" is not a condition over the sink's schema");
        assertThatThrownBy(() -> config(table(), Map.of("mode", "upsert", "keys", "id", "deleteWhen", "kind = 'd'")))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("sink.delta.deleteWhen \"kind = 'd'\" is not a condition").hasMessageContaining("kind");
        assertThatThrownBy(() -> config(table(), Map.of("mode", "upsert", "keys", "id", "deleteWhen", "lower(op)")))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("\"lower(op)\" is STRING, and a delete condition needs a BOOLEAN");
        assertThatThrownBy(() -> config(table(), Map.of("mode", "upsert", "keys", "id", "sequenceBy", "seq")))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("sink.delta.sequenceBy names column 'seq', which is not in the sink's schema");
        assertThatThrownBy(() -> config(table(), Map.of("mode", "append", "sequenceBy", "lsn")))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("sink.delta.sequenceBy is set, but sink.delta.mode is append");
        assertThatThrownBy(() -> config(table(), Map.of("mode", "upsert", "keys", "id", "exceptColumns", "id")))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("sink.delta.exceptColumns names column 'id', a key column");
    }
}
