package io.tributary.sink.internal;

import static io.tributary.sink.internal.HistoryUpsertTest.c;
import static io.tributary.sink.internal.HistoryUpsertTest.config;
import static io.tributary.sink.internal.UpsertTables.batch;
import static io.tributary.sink.internal.UpsertTables.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * History (SCD type 2) in a table partitioned by a data column: a version stays in its partition when a later change
 * ends it, a key's next version goes to the partition of its own values, and a batch touches only the files that hold
 * the versions it ends.
 */
class HistoryPartitionedTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @org.junit.jupiter.api.io.TempDir
    Path dir;

    private final Engine engine = KernelEngines.create();

    private Path table() {
        return dir.resolve("t");
    }

    private WriteMode mode(boolean deletionVectors) {
        Map<String, String> settings = new LinkedHashMap<>(HistoryUpsertTest.SCD2);
        settings.put("partitionBy", "city");
        SinkConfig c = config(table(), settings);
        return WriteMode.forConfig(c, new DeltaTableWriter(engine, c.tablePath(),
                deletionVectors ? Map.of("delta.enableDeletionVectors", "true") : Map.of(),
                Partitioning.parse(c.partitionBy(), c.tableSchema())));
    }

    /** The table's rows as id|name|city|__START_AT|__END_AT, sorted. */
    private List<String> rows() {
        List<String> out = new ArrayList<>();
        for (Object[] row : DeltaTables.readRows(table().toString())) {
            out.add(row[0] + "|" + row[1] + "|" + row[2] + "|" + row[4] + "|" + row[5]);
        }
        out.sort(null);
        return out;
    }

    /** The partition folders of the data files version {@code v} adds (or re-adds with a vector) and removes. */
    private Map<String, TreeSet<String>> touched(long v) throws IOException {
        Map<String, TreeSet<String>> out = new LinkedHashMap<>(Map.of("add", new TreeSet<>(), "remove", new TreeSet<>()));
        for (String line : Files.readAllLines(table().resolve("_delta_log").resolve(String.format("%020d.json", v)))) {
            JsonNode action = JSON.readTree(line);
            for (String kind : List.of("add", "remove")) {
                if (action.has(kind)) {
                    String path = action.get(kind).path("path").asText();
                    out.get(kind).add(path.substring(0, path.indexOf('/')));
                    assertThat(path).startsWith("city=" + action.get(kind).path("partitionValues").path("city").asText() + "/");
                }
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aKeyMovingBetweenPartitionsEndsItsVersionWhereItIsAndOpensTheNextInItsNewPartition(boolean deletionVectors)
            throws IOException {
        WriteMode scd2 = mode(deletionVectors);
        write(scd2, 0, batch(c(1, "a", "x", "INSERT", 1), c(2, "b", "y", "INSERT", 1), c(3, "c", "z", "INSERT", 1),
                c(4, "d", "x", "INSERT", 1)));
        assertThat(Files.isDirectory(table().resolve("city=z"))).isTrue();

        CommitResult moved = write(scd2, 1, batch(c(1, "a", "y", "UPDATE", 5), c(2, null, null, "DELETE", 6)));
        assertThat(rows()).containsExactly("1|a|x|1|5", "1|a|y|5|null", "2|b|y|1|6", "3|c|z|1|null", "4|d|x|1|null");
        assertThat(touched(1).get("remove")).as("the files of the versions ended, in their own partitions").containsExactly(
                "city=x", "city=y");
        assertThat(touched(1).get("add")).containsExactly("city=x", "city=y").doesNotContain("city=z");
        if (deletionVectors) {
            // x's file keeps id 4 and marks id 1's version; every row of y's file is replaced, so it is removed
            assertThat(moved.metrics()).containsEntry("numTargetRowsCopied", 0L).containsEntry("numTargetDeletionVectorsAdded", 1L)
                    .containsEntry("numTargetFilesRemoved", 1L);
        } else {
            assertThat(moved.metrics()).containsEntry("numTargetRowsCopied", 1L).containsEntry("numTargetFilesRemoved", 2L);
        }

        // late: a change before the move, in a third partition; then the key deleted and inserted again
        write(scd2, 2, batch(c(1, "a", "z", "UPDATE", 3)));
        assertThat(rows()).containsExactly("1|a|x|1|3", "1|a|y|5|null", "1|a|z|3|5", "2|b|y|1|6", "3|c|z|1|null", "4|d|x|1|null");
        assertThat(touched(2).get("remove")).containsExactly("city=x");
        write(scd2, 3, batch(c(1, null, null, "DELETE", 7), c(2, "b", "x", "INSERT", 8)));
        assertThat(rows()).containsExactly("1|a|x|1|3", "1|a|y|5|7", "1|a|z|3|5", "2|b|x|8|null", "2|b|y|1|6", "3|c|z|1|null",
                "4|d|x|1|null");
        assertThat(touched(3).get("remove")).containsExactly("city=y");
        assertThat(touched(3).get("add")).doesNotContain("city=z");
    }
}
