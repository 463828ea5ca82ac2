package io.tributary.sink.internal;

import static io.tributary.sink.internal.UpsertTables.APP;
import static io.tributary.sink.internal.UpsertTables.config;
import static io.tributary.sink.internal.UpsertTables.offsets;
import static io.tributary.sink.internal.UpsertTables.start;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.Schema;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkConfig;
import io.tributary.sink.SinkMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upsert batches read in Kafka order whose keys spill to disk beyond a small bound give the table, its files and
 * the commit's metrics that the same batches collapsed in memory give: into a new table, then into that table with
 * updates, deletes (tombstones) and new keys, with and without an order column.
 */
class SpilledUpsertTest {
    private static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE, n LONG");

    @TempDir
    Path dir;

    private final Engine engine = KernelEngines.create();

    @Test
    void batchesThatSpillGiveTheTableThatBatchesInMemoryGive() throws Exception {
        for (String order : new String[] {null, "n"}) {
            Path inMemory = dir.resolve("memory-" + order);
            Path spilled = dir.resolve("spilled-" + order);
            Random random = new Random(order == null ? 1 : 2);
            for (long batchId = 0; batchId < 3; batchId++) {
                List<Object[]> records = records(random, batchId == 0 ? 3_000 : 1_500);
                CommitResult want = commit(inMemory, order, Integer.MAX_VALUE, batchId, records);
                CommitResult got = commit(spilled, order, 97, batchId, records);
                assertThat(got.metrics()).as("batch " + batchId + ", order " + order).isEqualTo(want.metrics());
                assertThat(rows(spilled)).as("batch " + batchId + ", order " + order).isEqualTo(rows(inMemory));
                assertThat(addedFiles(spilled, batchId)).as("the files added: rows and key range of each").isEqualTo(addedFiles(inMemory, batchId));
            }
            assertThat(rows(spilled)).hasSizeGreaterThan(400);
        }
        String pid = ProcessHandle.current().pid() + "-";
        try (Stream<Path> left = Files.exists(SpillFolder.root()) ? Files.list(SpillFolder.root()) : Stream.empty()) {
            assertThat(left.filter(f -> f.getFileName().toString().startsWith(pid))).as("spill folders left after the commits").isEmpty();
        }
    }

    /** Rows and tombstones (a row of one element, the record key) of keys 0..799, in Kafka order. */
    private static List<Object[]> records(Random random, int n) {
        List<Object[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int id = random.nextInt(800);
            out.add(random.nextInt(6) == 0 ? new Object[] {"[" + id + "]"}
                    : new Object[] {id, "u" + random.nextInt(40), random.nextInt(1000) / 4.0, (long) random.nextInt(10)});
        }
        return out;
    }

    private CommitResult commit(Path table, String order, int spillKeys, long batchId, List<Object[]> records) {
        SinkConfig c = config(table, SCHEMA, SinkMode.UPSERT, List.of("id"), order, 50);
        DeltaTableWriter w = new DeltaTableWriter(engine, c.tablePath(), SCHEMA, Map.of());
        CopyOnWriteUpsert mode = new CopyOnWriteUpsert(w, new RewriteCommitter(w), new KeyColumns(SCHEMA, List.of("id")), order, 50, spillKeys);
        KeyedBatch batch = mode.openKeyed(APP, batchId, start(batchId), records.size()).orElseThrow();
        long offset = batchId * 100;
        for (Object[] r : records) {
            boolean tombstone = r.length == 1;
            batch.add(new RecordOrigin(0, offset++, 0, tombstone ? ((String) r[0]).getBytes(StandardCharsets.UTF_8) : null),
                    tombstone ? null : r.clone());
        }
        CommitResult result = batch.commit(offsets((batchId + 1) * 100), records.size());
        assertThat(result.committed()).isTrue();
        return result;
    }

    private static List<String> rows(Path table) {
        return DeltaTables.readRows(table.toString()).stream().map(Arrays::toString).sorted().toList();
    }

    /** The statistics (rows, smallest and largest values) of the files version {@code version} adds, in order. */
    private static List<String> addedFiles(Path table, long version) throws Exception {
        List<String> out = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        for (String line : Files.readAllLines(table.resolve("_delta_log").resolve(String.format("%020d.json", version)))) {
            JsonNode add = json.readTree(line).get("add");
            if (add != null) {
                JsonNode stats = json.readTree(add.get("stats").asText());
                out.add(stats.get("numRecords") + " " + stats.get("minValues") + " " + stats.get("maxValues"));
            }
        }
        out.sort(null);
        return out;
    }
}
