package io.tributary.sink.internal;

import static io.tributary.sink.internal.HistoryUpsertTest.c;
import static io.tributary.sink.internal.HistoryUpsertTest.config;
import static io.tributary.sink.internal.HistoryUpsertTest.documented;
import static io.tributary.sink.internal.UpsertTables.batch;
import static io.tributary.sink.internal.UpsertTables.batchOf;
import static io.tributary.sink.internal.UpsertTables.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.TributaryException;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** History with tracked columns (sink.delta.trackHistoryColumns / trackHistoryExceptColumns: AUTO CDC's TRACK HISTORY ON). */
class HistoryTrackingTest {
    @TempDir
    Path dir;

    private final Engine engine = KernelEngines.create();

    private Path table() {
        return dir.resolve("t");
    }

    private WriteMode mode(String setting, String columns, Map<String, String> properties) {
        Map<String, String> settings = new LinkedHashMap<>(HistoryUpsertTest.SCD2);
        settings.put(setting, columns);
        SinkConfig c = config(table(), settings);
        return WriteMode.forConfig(c, new DeltaTableWriter(engine, c.tablePath(), c.tableSchema(), properties));
    }

    /** The table's rows as id|name|city|lsn|__START_AT|__END_AT, by id then start: lsn is the version's latest change. */
    private List<String> rows() {
        List<String> out = new ArrayList<>();
        for (Object[] row : DeltaTables.readRows(table().toString())) {
            out.add(row[0] + "|" + row[1] + "|" + row[2] + "|" + row[3] + "|" + row[4] + "|" + row[5]);
        }
        out.sort(HistoryTrackingTest::byIdThenStart);
        return out;
    }

    private static int byIdThenStart(String a, String b) {
        String[] x = a.split("\\|");
        String[] y = b.split("\\|");
        int c = Integer.compare(Integer.parseInt(x[0]), Integer.parseInt(y[0]));
        return c != 0 ? c : Long.compare(Long.parseLong(x[4]), Long.parseLong(y[4]));
    }

    /** Databricks' documented example of TRACK HISTORY ON * EXCEPT (city): a change of the city alone opens no version. */
    @Test
    void theDocumentedExampleTrackingEveryColumnButCityKeepsOneVersionPerName() {
        CommitResult r = write(mode("trackHistoryExceptColumns", "city", Map.of()), 0, batchOf(documented()));
        assertThat(rows()).containsExactly("123|Isabel|Chihuahua|5|1|6", "124|Raul|Oaxaca|1|1|null", "125|Mercedes|Guadalajara|6|2|null",
                "126|Lily|Cancun|2|2|null");
        assertThat(r.metrics()).containsEntry("numTargetRowsInserted", 4L);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aLaterBatchChangingOnlyUntrackedColumnsUpdatesTheCurrentVersionInPlace(boolean deletionVectors) {
        WriteMode scd2 = mode("trackHistoryColumns", "name", deletionVectors ? Map.of("delta.enableDeletionVectors", "true") : Map.of());
        write(scd2, 0, batch(c(1, "a", "x", "INSERT", 1), c(2, "b", "x", "INSERT", 1)));
        CommitResult moved = write(scd2, 1, batch(c(1, "a", "y", "UPDATE", 4)));
        assertThat(rows()).containsExactly("1|a|y|4|1|null", "2|b|x|1|1|null");
        assertThat(moved.metrics()).containsEntry("numTargetRowsInserted", 0L).containsEntry("numTargetRowsUpdated", 1L);

        write(scd2, 2, batch(c(1, "a2", "y", "UPDATE", 6), c(2, "b", "z", "UPDATE", 3)));
        assertThat(rows()).containsExactly("1|a|y|4|1|6", "1|a2|y|6|6|null", "2|b|z|3|1|null");

        // late: an older change of the city alone, inside the first version, leaves its newer values
        CommitResult late = write(scd2, 3, batch(c(1, "a", "old", "UPDATE", 2)));
        assertThat(rows()).containsExactly("1|a|y|4|1|6", "1|a2|y|6|6|null", "2|b|z|3|1|null");
        assertThat(late.metrics()).containsEntry("numTargetRowsUpdated", 0L).containsEntry("numTargetRowsInserted", 0L);

        // late: a change of the name before the current version, which then has the same name: the two are one version
        CommitResult merged = write(scd2, 4, batch(c(1, "a2", "w", "UPDATE", 5)));
        assertThat(rows()).containsExactly("1|a|y|4|1|5", "1|a2|y|6|5|null", "2|b|z|3|1|null");
        assertThat(merged.metrics()).containsEntry("numTargetRowsDeleted", 1L).containsEntry("numTargetRowsInserted", 1L);

        write(scd2, 5, batch(c(1, null, null, "DELETE", 8), c(1, "a2", "v", "UPDATE", 7)));
        assertThat(rows()).containsExactly("1|a|y|4|1|5", "1|a2|v|7|5|8", "2|b|z|3|1|null");

        // late: a delete inside a version updated in place ends it there; its latest change opens the next version
        // (the version before the delete keeps the latest values: the ones in between are not kept)
        write(scd2, 6, batch(c(2, null, null, "DELETE", 2)));
        assertThat(rows()).containsExactly("1|a|y|4|1|5", "1|a2|v|7|5|8", "2|b|z|3|1|2", "2|b|z|3|3|null");
    }

    /**
     * Random streams, in any order within a batch, with duplicates of changes of this batch and earlier ones: the history
     * is the serial one. (A late change inside a version updated in place by an earlier batch is the known difference,
     * {@code docs/cdc.md}; the test above shows it.)
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void randomChangeStreamsEndAsTheTrackedHistoryOfTheirSequenceOrder(long seed) {
        Random random = new Random(seed);
        List<Object[]> changes = new ArrayList<>();
        for (long lsn = 1; lsn <= 300; lsn++) {
            int kind = random.nextInt(10);
            changes.add(c(random.nextInt(20), "n" + random.nextInt(3), "c" + lsn, kind < 2 ? "DELETE" : "UPDATE", lsn));
        }
        WriteMode scd2 = mode("trackHistoryExceptColumns", "city",
                random.nextBoolean() ? Map.of("delta.enableDeletionVectors", "true") : Map.of());
        int batchId = 0;
        for (int from = 0; from < changes.size(); batchId++) {
            int to = Math.min(changes.size(), from + 1 + random.nextInt(50));
            List<Object[]> arrival = new ArrayList<>(changes.subList(from, to));
            Collections.shuffle(arrival, random);
            for (int i = 0; i < 5; i++) {
                arrival.add(random.nextInt(arrival.size()), changes.get(random.nextInt(to)));
            }
            write(scd2, batchId, batchOf(arrival));
            from = to;
        }
        assertThat(rows()).containsExactlyElementsOf(serialTrackedHistory(changes));
    }

    /**
     * The history of {@code changes} (distinct sequences) in sequence order, tracking the name: a change with the name of
     * the version before it updates that version (city and lsn), a delete ends it.
     */
    private static List<String> serialTrackedHistory(List<Object[]> changes) {
        Map<Integer, List<Object[]>> byKey = new TreeMap<>();
        changes.stream().sorted((a, b) -> Long.compare((Long) a[4], (Long) b[4]))
                .forEach(ch -> byKey.computeIfAbsent((Integer) ch[0], k -> new ArrayList<>()).add(ch));
        List<String> out = new ArrayList<>();
        byKey.forEach((id, list) -> {
            Object[] open = null;
            long start = 0;
            for (Object[] ch : list) {
                boolean delete = "DELETE".equals(ch[3]);
                if (open != null && !delete && open[1].equals(ch[1])) {
                    open = ch;
                    continue;
                }
                if (open != null) {
                    out.add(id + "|" + open[1] + "|" + open[2] + "|" + open[4] + "|" + start + "|" + ch[4]);
                }
                open = delete ? null : ch;
                start = (Long) ch[4];
            }
            if (open != null) {
                out.add(id + "|" + open[1] + "|" + open[2] + "|" + open[4] + "|" + start + "|null");
            }
        });
        out.sort(HistoryTrackingTest::byIdThenStart);
        return out;
    }

    @Test
    void trackedColumnsAreCheckedNamingTheKey() {
        Map<String, String> both = new LinkedHashMap<>(HistoryUpsertTest.SCD2);
        both.put("trackHistoryColumns", "name");
        both.put("trackHistoryExceptColumns", "city");
        assertThatThrownBy(() -> config(table(), both)).isInstanceOf(TributaryException.class)
                .hasMessageContaining("sink.delta.trackHistoryColumns and sink.delta.trackHistoryExceptColumns are both set");
        Map<String, String> sequence = new LinkedHashMap<>(HistoryUpsertTest.SCD2);
        sequence.put("trackHistoryColumns", "lsn");
        assertThatThrownBy(() -> config(table(), sequence)).isInstanceOf(TributaryException.class)
                .hasMessageContaining("sink.delta.trackHistoryColumns names column 'lsn', the sink.delta.sequenceBy column");
        Map<String, String> dropped = new LinkedHashMap<>(HistoryUpsertTest.SCD2);
        dropped.put("trackHistoryExceptColumns", "op");
        assertThatThrownBy(() -> config(table(), dropped)).isInstanceOf(TributaryException.class)
                .hasMessageContaining("sink.delta.trackHistoryExceptColumns names column 'op', which sink.delta.exceptColumns leaves out");
        Map<String, String> noHistory = new LinkedHashMap<>(HistoryUpsertTest.SCD2);
        noHistory.remove("history");
        noHistory.put("trackHistoryColumns", "name");
        assertThatThrownBy(() -> config(table(), noHistory)).isInstanceOf(TributaryException.class)
                .hasMessageContaining("sink.delta.trackHistoryColumns is set, but sink.delta.history is not true");
    }
}
