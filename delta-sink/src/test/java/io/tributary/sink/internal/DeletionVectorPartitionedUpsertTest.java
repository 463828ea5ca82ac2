package io.tributary.sink.internal;

import static io.tributary.sink.internal.CopyOnWriteUpsertTest.SCHEMA;
import static io.tributary.sink.internal.CopyOnWriteUpsertTest.r;
import static io.tributary.sink.internal.UpsertTables.batch;
import static io.tributary.sink.internal.UpsertTables.tombstone;
import static io.tributary.sink.internal.UpsertTables.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The upsert with deletion vectors into a partitioned table: a file keeps its partition, the rows a batch
 * replaces are marked in its vector whichever partition the new row goes to, and the file's {@code add} with its
 * new vector keeps its partition values.
 */
class DeletionVectorPartitionedUpsertTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final Engine engine = KernelEngines.create();

    private CopyOnWriteUpsert upsert(Path table) {
        DeltaTableWriter w = new DeltaTableWriter(engine, table.toString(), DeletionVectorUpsertTest.DV,
                Partitioning.parse(List.of("user"), SCHEMA));
        return new CopyOnWriteUpsert(w, new RewriteCommitter(w), new KeyColumns(SCHEMA, List.of("id")), null, 100);
    }

    @Test
    void anUpsertIntoAPartitionedTableMarksRowsInEachPartitionsFilesAndKeepsTheirPartitionValues() throws IOException {
        Path table = dir.resolve("t");
        Map<Integer, String> expected = new TreeMap<>();
        List<Object[]> first = new ArrayList<>();
        for (int id = 1; id <= 8; id++) {
            String user = id % 2 == 0 ? "even" : "odd";
            first.add(r(id, user, id));
            expected.put(id, user + "/" + (double) id);
        }
        write(upsert(table), 0, UpsertTables.batchOf(first));
        assertThat(Files.isDirectory(table.resolve("user=even"))).isTrue();

        CommitResult b1 = write(upsert(table), 1, batch(r(2, "even", 2.5), r(3, "even", 3.5), r(9, "odd", 9), tombstone("[5]")));
        expected.put(2, "even/2.5");
        expected.put(3, "even/3.5"); // moves from odd to even: marked in odd's file, written in even
        expected.put(9, "odd/9.0");
        expected.remove(5);
        assertThat(DeletionVectorUpsertTest.rows(table)).isEqualTo(expected);
        assertThat(b1.metrics()).containsEntry("numTargetRowsCopied", 0L).containsEntry("numTargetFilesRemoved", 0L)
                .containsEntry("numTargetDeletionVectorsAdded", 2L).containsEntry("numTargetRowsDeleted", 1L);

        List<JsonNode> readds = new ArrayList<>();
        for (String line : Files.readAllLines(table.resolve("_delta_log/00000000000000000001.json"))) {
            JsonNode add = JSON.readTree(line).path("add");
            if (add.has("deletionVector")) {
                readds.add(add);
            }
        }
        assertThat(readds).hasSize(2).allSatisfy(add -> assertThat(add.path("path").asText())
                .startsWith("user=" + add.path("partitionValues").path("user").asText() + "/"));
        assertThat(readds).extracting(add -> add.path("deletionVector").path("storageType").asText()).containsOnly("u");

        CommitResult b2 = write(upsert(table), 2, batch(r(3, "odd", 3.75), r(4, "even", 4.5)));
        expected.put(3, "odd/3.75");
        expected.put(4, "even/4.5");
        assertThat(DeletionVectorUpsertTest.rows(table)).isEqualTo(expected);
        assertThat(b2.metrics()).containsEntry("numTargetDeletionVectorsUpdated", 1L).containsEntry("numTargetRowsCopied", 0L);
        DeletionVectorUpsertTest.keepForSpark("tributary-dv-partitioned", table, expected);
    }
}
