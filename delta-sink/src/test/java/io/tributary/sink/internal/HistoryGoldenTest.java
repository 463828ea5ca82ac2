package io.tributary.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.RowJson;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink's history (SCD type 2) against Spark's MERGE of the same change batches ({@code golden/scd2}, the
 * batches of {@code golden/cdc}): out of order, repeated, deleted and inserted again, across batches.
 */
class HistoryGoldenTest {
    private static final RowJson CHANGES = new RowJson(ChangeUpsertTest.SCHEMA);

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"case-1, false", "case-1, true"})
    void theSinksHistoryIsSparksVersionForVersion(String name, boolean deletionVectors) throws IOException {
        Engine engine = KernelEngines.create();
        Map<String, String> settings = new HashMap<>(ChangeUpsertTest.CDC);
        settings.put("history", "true");
        SinkConfig c = ChangeUpsertTest.config(dir.resolve("t"), settings);
        WriteMode scd2 = WriteMode.forConfig(c, new DeltaTableWriter(engine, c.tablePath(), c.tableSchema(),
                deletionVectors ? Map.of("delta.enableDeletionVectors", "true") : Map.of()));
        String changes = "golden/cdc/" + name + "/";
        long duplicates = 0;
        for (int n = 0; getClass().getClassLoader().getResource(changes + "batch-" + n + ".json") != null; n++) {
            List<Object[]> batch = new ArrayList<>();
            for (String line : text(changes + "batch-" + n + ".json").split("\n")) {
                batch.add(CHANGES.parse(line)); // id INT, name STRING, op STRING, lsn BIGINT
            }
            duplicates += (Long) UpsertTables.write(scd2, n, UpsertTables.batchOf(batch)).metrics().get("numSourceChangesDuplicated");
        }
        List<Object[]> rows = new ArrayList<>(DeltaTables.readRows(c.tablePath()));
        rows.sort(Comparator.<Object[], Integer>comparing(r -> (Integer) r[0]).thenComparing(r -> (Long) r[3]));
        List<String> ours = new ArrayList<>();
        for (Object[] r : rows) { // id, name, lsn, __START_AT, __END_AT
            ours.add(r[0] + "|" + r[1] + "|" + r[2] + "|" + r[3] + "|" + r[4]);
        }
        List<String> spark = List.of(text("golden/scd2/" + name + "/spark-history.txt").split("\n"));
        assertThat(ours).containsExactlyElementsOf(spark);
        assertThat(duplicates).as("the repeated changes of the case").isEqualTo(30);
    }

    private String text(String resource) throws IOException {
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(resource)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
