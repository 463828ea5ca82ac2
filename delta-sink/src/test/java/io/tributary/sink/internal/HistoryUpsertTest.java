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
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Change data kept as history (sink.delta.history: SCD type 2) in real tables. */
class HistoryUpsertTest {
    static final Schema SCHEMA = Schema.parse("id INT, name STRING, city STRING, op STRING, lsn BIGINT");
    static final Map<String, String> SCD2 = Map.of("mode", "upsert", "keys", "id", "sequenceBy", "lsn",
            "deleteWhen", "op = 'DELETE'", "exceptColumns", "op", "history", "true");

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

    private WriteMode mode(Map<String, String> properties) {
        SinkConfig c = config(table(), SCD2);
        return WriteMode.forConfig(c, new DeltaTableWriter(engine, c.tablePath(), c.tableSchema(), properties));
    }

    static Object[] c(int id, String name, String city, String op, long lsn) {
        return new Object[] {id, name, city, op, lsn};
    }

    /** The changes of the example in Databricks' documentation of AUTO CDC (APPLY CHANGES), in their order there. */
    static List<Object[]> documented() {
        return List.of(c(124, "Raul", "Oaxaca", "INSERT", 1), c(123, "Isabel", "Monterrey", "INSERT", 1),
                c(125, "Mercedes", "Tijuana", "INSERT", 2), c(126, "Lily", "Cancun", "INSERT", 2),
                c(123, null, null, "DELETE", 6), c(125, "Mercedes", "Guadalajara", "UPDATE", 6),
                c(125, "Mercedes", "Mexicali", "UPDATE", 5), c(123, "Isabel", "Chihuahua", "UPDATE", 5));
    }

    /** Its SCD type 2 table there: id, name, city, __START_AT, __END_AT. */
    static final List<String> DOCUMENTED_HISTORY = List.of("123|Isabel|Monterrey|1|5", "123|Isabel|Chihuahua|5|6",
            "124|Raul|Oaxaca|1|null", "125|Mercedes|Tijuana|2|5", "125|Mercedes|Mexicali|5|6", "125|Mercedes|Guadalajara|6|null",
            "126|Lily|Cancun|2|null");

    /** The table's rows as id|name|city|__START_AT|__END_AT, by id then start; the sequence column holds the start. */
    private List<String> rows() {
        List<String> out = new ArrayList<>();
        for (Object[] row : DeltaTables.readRows(table().toString())) {
            assertThat(row).hasSize(6); // id, name, city, lsn, __START_AT, __END_AT: op is not stored
            assertThat(row[3]).isEqualTo(row[4]);
            out.add(row[0] + "|" + row[1] + "|" + row[2] + "|" + row[4] + "|" + row[5]);
        }
        out.sort((a, b) -> {
            String[] x = a.split("\\|");
            String[] y = b.split("\\|");
            int c = Integer.compare(Integer.parseInt(x[0]), Integer.parseInt(y[0]));
            return c != 0 ? c : Long.compare(Long.parseLong(x[3]), Long.parseLong(y[3]));
        });
        return out;
    }

    @Test
    void theDocumentedExampleInOneBatchGivesTheDocumentedHistory() {
        CommitResult r = write(mode(Map.of()), 0, batchOf(documented()));
        assertThat(rows()).containsExactlyElementsOf(DOCUMENTED_HISTORY);
        assertThat(r.metrics()).containsEntry("numTargetRowsInserted", 7L).containsEntry("numSourceKeys", 4L);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void theDocumentedExampleOneChangeABatchInReverseGivesTheSameHistory(boolean deletionVectors) {
        WriteMode scd2 = mode(deletionVectors ? Map.of("delta.enableDeletionVectors", "true") : Map.of());
        List<Object[]> reversed = new ArrayList<>(documented());
        Collections.reverse(reversed);
        long copied = 0;
        long ended = 0;
        for (int i = 0; i < reversed.size(); i++) {
            CommitResult r = write(scd2, i, batch(reversed.get(i)));
            copied += (Long) r.metrics().get("numTargetRowsCopied");
            ended += (Long) r.metrics().get("numTargetRowsUpdated");
        }
        assertThat(rows()).containsExactlyElementsOf(DOCUMENTED_HISTORY);
        assertThat(ended).as("versions a later batch ended: Mexicali by Guadalajara, Chihuahua by the delete").isEqualTo(2);
        if (deletionVectors) {
            assertThat(copied).as("with deletion vectors no row is written again").isZero();
        }
    }

    @Test
    void aLateChangeBeforeADeleteOfAnAbsentKeyEndsAtTheDeleteAndDuplicatesAreIgnored() {
        WriteMode scd2 = mode(Map.of());
        CommitResult b0 = write(scd2, 0, batch(c(7, null, null, "DELETE", 3), c(8, "a", "x", "INSERT", 1)));
        assertThat(b0.metrics()).containsEntry("numHistoryDeletes", 1L);
        assertThat(rows()).containsExactly("8|a|x|1|null");
        write(scd2, 1, batch(c(7, "b", "y", "INSERT", 1), c(8, "a2", "x", "UPDATE", 4), c(8, "a2", "x", "UPDATE", 4)));
        assertThat(rows()).containsExactly("7|b|y|1|3", "8|a|x|1|4", "8|a2|x|4|null");
        CommitResult b2 = write(scd2, 2, batch(c(7, "c", "y", "UPDATE", 5), c(7, "b", "y", "INSERT", 1), c(8, "a2", "x", "UPDATE", 4)));
        assertThat(rows()).containsExactly("7|b|y|1|3", "7|c|y|5|null", "8|a|x|1|4", "8|a2|x|4|null");
        assertThat(b2.metrics()).containsEntry("numSourceChangesDuplicated", 2L).containsEntry("numTargetRowsInserted", 1L)
                .containsEntry("numTargetRowsUpdated", 0L);
        CommitResult b3 = write(scd2, 3, batch(c(7, "b-between", "z", "UPDATE", 2), c(8, null, null, "DELETE", 9)));
        assertThat(rows()).containsExactly("7|b|y|1|2", "7|b-between|z|2|3", "7|c|y|5|null", "8|a|x|1|4", "8|a2|x|4|9");
        assertThat(b3.metrics()).containsEntry("numTargetRowsUpdated", 2L).containsEntry("numHistoryDeletes", 0L);
    }

    /** Random change streams, out of order within and across batches, with duplicates: the history is the serial one. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void randomChangeStreamsEndAsTheHistoryOfTheirSequenceOrder(long seed) {
        Random random = new Random(seed);
        List<Object[]> changes = new ArrayList<>();
        for (long lsn = 1; lsn <= 300; lsn++) {
            int kind = random.nextInt(10);
            changes.add(c(random.nextInt(20), "n" + lsn, "c" + random.nextInt(3), kind < 3 ? "DELETE" : "UPDATE", lsn));
        }
        List<Object[]> arrival = new ArrayList<>(changes);
        for (int i = 0; i < 200; i++) {
            int a = random.nextInt(arrival.size() - 1);
            int b = Math.min(arrival.size() - 1, a + 1 + random.nextInt(40));
            Collections.swap(arrival, a, b);
        }
        for (int i = 0; i < 40; i++) {
            arrival.add(random.nextInt(arrival.size()), arrival.get(random.nextInt(arrival.size())));
        }
        WriteMode scd2 = mode(random.nextBoolean() ? Map.of("delta.enableDeletionVectors", "true") : Map.of());
        int batchId = 0;
        for (int from = 0; from < arrival.size(); batchId++) {
            int to = Math.min(arrival.size(), from + 1 + random.nextInt(50));
            write(scd2, batchId, batchOf(arrival.subList(from, to)));
            from = to;
        }
        assertThat(rows()).containsExactlyElementsOf(serialHistory(changes));
    }

    /** The history of {@code changes} (distinct sequences) in sequence order: each upsert ends at the key's next change. */
    static List<String> serialHistory(List<Object[]> changes) {
        Map<Integer, List<Object[]>> byKey = new TreeMap<>();
        changes.stream().sorted((a, b) -> Long.compare((Long) a[4], (Long) b[4]))
                .forEach(ch -> byKey.computeIfAbsent((Integer) ch[0], k -> new ArrayList<>()).add(ch));
        List<String> out = new ArrayList<>();
        byKey.forEach((id, list) -> {
            for (int i = 0; i < list.size(); i++) {
                Object[] ch = list.get(i);
                if (!"DELETE".equals(ch[3])) {
                    out.add(id + "|" + ch[1] + "|" + ch[2] + "|" + ch[4] + "|" + (i + 1 < list.size() ? list.get(i + 1)[4] : null));
                }
            }
        });
        return out;
    }

    @Test
    void historyWithoutASequenceOrInModeAppendIsRefusedNamingTheKey() {
        Map<String, String> noSequence = new LinkedHashMap<>(SCD2);
        noSequence.remove("sequenceBy");
        assertThatThrownBy(() -> config(table(), noSequence)).isInstanceOf(TributaryException.class)
                .hasMessageContaining("sink.delta.history is true, but sink.delta.sequenceBy is not set");
        assertThatThrownBy(() -> config(table(), Map.of("mode", "append", "history", "true"))).isInstanceOf(TributaryException.class)
                .hasMessageContaining("sink.delta.history is set, but sink.delta.mode is append");
    }
}
