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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sink's change data against Spark's MERGE of the same batches ({@code golden/cdc}). */
class ChangeUpsertGoldenTest {
    private static final String CASE = "golden/cdc/case-1/";
    private static final RowJson CHANGES = new RowJson(ChangeUpsertTest.SCHEMA);

    @TempDir
    Path dir;

    @Test
    void theSinkGivesSparksMergeButKeepsDeletedKeysDeleted() throws IOException {
        Engine engine = KernelEngines.create();
        SinkConfig c = ChangeUpsertTest.config(dir.resolve("t"), ChangeUpsertTest.CDC);
        WriteMode cdc = WriteMode.forConfig(c, new DeltaTableWriter(engine, c.tablePath(), c.tableSchema(), Map.of()));
        Map<Integer, Object[]> latest = new HashMap<>(); // per id, the change with the greatest lsn of the whole stream
        for (int n = 0; getClass().getClassLoader().getResource(CASE + "batch-" + n + ".json") != null; n++) {
            List<Object[]> batch = new ArrayList<>();
            try (InputStream in = resource(n)) {
                for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                    Object[] change = CHANGES.parse(line); // id INT, name STRING, op STRING, lsn BIGINT
                    batch.add(change);
                    latest.merge((Integer) change[0], change, (a, b) -> (Long) a[3] >= (Long) b[3] ? a : b);
                }
            }
            UpsertTables.write(cdc, n, UpsertTables.batchOf(batch));
        }
        Map<Integer, String> ours = new TreeMap<>();
        for (Object[] r : DeltaTables.readRows(c.tablePath())) {
            ours.put((Integer) r[0], r[0] + "|" + r[1] + "|" + r[2]);
        }
        Map<Integer, String> spark = new TreeMap<>();
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(CASE + "spark-merge.txt")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                spark.put(Integer.parseInt(line.substring(0, line.indexOf('|'))), line);
            }
        }
        Set<Integer> onlySpark = new TreeSet<>(spark.keySet());
        onlySpark.removeAll(ours.keySet());
        assertThat(onlySpark).as("keys Spark's MERGE brought back after their delete").isNotEmpty()
                .allSatisfy(id -> assertThat(latest.get(id)[2]).as("the last change of key " + id).isEqualTo("d"));
        spark.keySet().removeAll(onlySpark);
        assertThat(ours).isEqualTo(spark);
    }

    private InputStream resource(int n) {
        return getClass().getClassLoader().getResourceAsStream(CASE + "batch-" + n + ".json");
    }
}
