package io.tributary.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.Schema;
import io.tributary.schema.Timestamps;
import io.tributary.schema.TributaryException;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkOffsets;
import io.tributary.sink.TableCommit;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeltaTableWriterTest {
    private static final String APP = "tributary-test-sink";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final Engine engine = KernelEngines.create();

    private DeltaTableWriter writer(Schema schema) {
        return new DeltaTableWriter(engine, dir.resolve("table").toString(), schema, Map.of());
    }

    private static SinkOffsets offsets(long next) {
        return new SinkOffsets(APP, "events", "topic-id-1", Map.of(0, next));
    }

    private String table() {
        return dir.resolve("table").toString();
    }

    @Test
    void rowsOfEveryTypeReadBackEqual() {
        Schema schema = Schema.parse("b TINYINT, s SMALLINT, i INT, l BIGINT, f FLOAT, d DOUBLE, dec DECIMAL(12,3), "
                + "str STRING, flag BOOLEAN, day DATE, ts TIMESTAMP, ntz TIMESTAMP_NTZ, bin BINARY");
        Object[] full = {(byte) -3, (short) 300, 42, 1L << 40, 1.5f, 2.25, new BigDecimal("123456789.123"),
                "héllo", true, 19_000, Timestamps.parseMicros("2024-03-01T10:00:00.123456Z", true),
                Timestamps.parseMicros("2024-03-01T10:00:00.654321", false), new byte[] {1, 2, 3}};
        Object[] nulls = new Object[schema.size()];

        CommitResult r = writer(schema).append(APP, 0, List.of(full, nulls), Map.of(), offsets(2));

        assertThat(r.committed()).isTrue();
        assertThat(r.version()).isZero();
        List<Object[]> back = sorted(DeltaTables.readRows(table()), 2);
        assertThat(back).hasSize(2);
        assertThat(back.get(0)).containsExactly(nulls);
        assertThat(back.get(1)).containsExactly(full);
        assertThat(DeltaTables.schema(table())).contains(schema);
    }

    @Test
    void timestampsKeepTheirMicroseconds() {
        Schema schema = Schema.parse("id INT, ts TIMESTAMP");
        long micros = Timestamps.parseMicros("2024-01-01T00:00:00.000001Z", true);
        writer(schema).append(APP, 0, List.<Object[]>of(new Object[] {1, micros}, new Object[] {2, micros + 999}), Map.of(), offsets(2));

        List<Object[]> back = sorted(DeltaTables.readRows(table()), 0);
        assertThat(back.get(0)[1]).isEqualTo(micros);
        assertThat(back.get(1)[1]).isEqualTo(micros + 999);
    }

    @Test
    void windowStructColumnRoundTrips() {
        Schema schema = Schema.parse("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, t DOUBLE");
        long start = Timestamps.parseMicros("2024-01-01T10:00:00Z", true);
        Object[] row = {new Object[] {start, start + 600_000_000L}, "a", 8.0};
        Object[] nullWindow = {null, "b", 7.0};
        writer(schema).append(APP, 0, List.of(row, nullWindow), Map.of(), offsets(2));

        List<Object[]> back = DeltaTables.readRows(table());
        back.sort(Comparator.comparing(x -> (String) x[1]));
        assertThat((Object[]) back.get(0)[0]).containsExactly(start, start + 600_000_000L);
        assertThat(back.get(0)).endsWith("a", 8.0);
        assertThat(back.get(1)).containsExactly(null, "b", 7.0);
    }

    @Test
    void replayingACommittedBatchWritesNothing() throws Exception {
        Schema schema = Schema.parse("id INT");
        DeltaTableWriter w = writer(schema);
        w.append(APP, 0, List.<Object[]>of(new Object[] {1}), Map.of(), offsets(1));
        w.append(APP, 1, List.<Object[]>of(new Object[] {2}), Map.of(0, 1L), offsets(2));
        long files = parquetFiles();

        CommitResult again = w.append(APP, 1, List.<Object[]>of(new Object[] {2}), Map.of(0, 1L), offsets(2));

        assertThat(again.committed()).isFalse();
        assertThat(again.version()).isEqualTo(1);
        assertThat(DeltaTables.latestVersion(table())).isEqualTo(1);
        assertThat(DeltaTables.readRows(table())).hasSize(2);
        assertThat(parquetFiles()).isEqualTo(files);
        assertThat(DeltaTables.transactionVersion(table(), APP)).contains(1L);
    }

    @Test
    void offsetsThatDoNotMatchTheTableAreRefused() {
        Schema schema = Schema.parse("id INT");
        DeltaTableWriter w = writer(schema);
        w.append(APP, 0, List.<Object[]>of(new Object[] {1}), Map.of(), offsets(5));

        assertThatThrownBy(() -> w.append(APP, 1, List.<Object[]>of(new Object[] {2}), Map.of(0, 3L), offsets(6)))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("holds offsets {0=5}")
                .hasMessageContaining("starts at {0=3}");
        assertThat(DeltaTables.latestVersion(table())).isZero();
    }

    @Test
    void aDifferentSchemaIsRefused() {
        writer(Schema.parse("id INT")).append(APP, 0, List.<Object[]>of(new Object[] {1}), Map.of(), offsets(1));

        assertThatThrownBy(() -> writer(Schema.parse("id BIGINT")).append(APP, 1, List.<Object[]>of(new Object[] {2L}), Map.of(0, 1L), offsets(2)))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("has schema id INT, but the sink writes id BIGINT");
    }

    @Test
    void aCheckpointIsWrittenEveryTenCommits() {
        Schema schema = Schema.parse("id INT");
        DeltaTableWriter w = writer(schema);
        for (int b = 0; b <= 10; b++) {
            w.append(APP, b, List.<Object[]>of(new Object[] {b}), b == 0 ? Map.of() : Map.of(0, (long) b), offsets(b + 1));
        }

        assertThat(dir.resolve("table/_delta_log/00000000000000000010.checkpoint.parquet")).exists();
        assertThat(dir.resolve("table/_delta_log/_last_checkpoint")).exists();
        assertThat(DeltaTables.readRows(table())).hasSize(11);
        assertThat(DeltaTables.transactionVersion(table(), APP)).contains(10L);
        assertThat(DeltaTables.sinkOffsets(table())).contains(offsets(11));
    }

    @Test
    void versionZeroLooksLikeSparksFirstStreamingCommit() throws Exception {
        Schema schema = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");
        writer(schema).append(APP, 0, List.<Object[]>of(new Object[] {1, "a", 1.5, 0L}), Map.of(), offsets(3));

        List<JsonNode> actions = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("table/_delta_log/00000000000000000000.json"))) {
            actions.add(JSON.readTree(line));
        }
        JsonNode protocol = find(actions, "protocol");
        assertThat(protocol.path("writerFeatures").toString()).contains("domainMetadata");
        JsonNode schemaJson = JSON.readTree(find(actions, "metaData").path("schemaString").asText());
        assertThat(schemaJson.path("fields").findValuesAsText("name")).containsExactly("id", "user", "amt", "ts");
        assertThat(schemaJson.path("fields").get(3).path("type").asText()).isEqualTo("timestamp");
        assertThat(find(actions, "txn").path("appId").asText()).isEqualTo(APP);
        assertThat(find(actions, "txn").path("version").asLong()).isZero();
        assertThat(find(actions, "commitInfo").path("operation").asText()).isEqualTo("STREAMING UPDATE");
        assertThat(find(actions, "add").path("dataChange").asBoolean()).isTrue();
        assertThat(find(actions, "domainMetadata").path("domain").asText()).isEqualTo(SinkOffsets.DOMAIN);
        try (Stream<Path> files = Files.list(dir.resolve("table/_delta_log"))) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".crc") && n.startsWith("."));
        }

        List<TableCommit> history = DeltaTables.history(table());
        assertThat(history).hasSize(1);
        assertThat(history.get(0).operation()).isEqualTo("STREAMING UPDATE");
        assertThat(history.get(0).txnVersion()).isZero();
        assertThat(history.get(0).addedRows()).isEqualTo(1);
        assertThat(history.get(0).sinkOffsets()).isEqualTo(offsets(3));
    }

    private static JsonNode find(List<JsonNode> actions, String name) {
        return actions.stream().filter(a -> a.has(name)).findFirst().orElseThrow(() -> new AssertionError("no " + name + " action")).get(name);
    }

    @Test
    void aStreamedBatchWritesEveryRowOnceInFilesOfTheTargetSize() throws Exception {
        Schema schema = Schema.parse("id INT, s STRING");
        DeltaTableWriter w = new DeltaTableWriter(engine, table(), Map.of(), Partitioning.none(schema), 256 * 1024);
        int n = 200_000;

        CommitResult r;
        try (AppendStream stream = w.openAppend(APP, 0, Map.of())) {
            for (int i = 0; i < n; i++) {
                stream.add(new Object[] {i, "row " + i});
            }
            r = stream.commit(offsets(n));
        }

        assertThat(r.committed()).isTrue();
        assertThat(r.files()).isGreaterThan(1).isEqualTo((int) parquetFiles());
        List<Object[]> rows = sorted(DeltaTables.readRows(table()), 0);
        assertThat(rows).hasSize(n);
        for (int i = 0; i < n; i++) {
            assertThat(rows.get(i)).containsExactly(i, "row " + i);
        }
    }

    @Test
    void aStreamClosedWithoutCommitLeavesNeitherFilesNorAVersion() throws Exception {
        Schema schema = Schema.parse("id INT");
        DeltaTableWriter w = new DeltaTableWriter(engine, table(), Map.of(), Partitioning.none(schema), 64 * 1024);
        w.append(APP, 0, List.<Object[]>of(new Object[] {-1}), Map.of(), offsets(1));
        long before = parquetFiles();

        try (AppendStream stream = w.openAppend(APP, 1, Map.of(0, 1L))) {
            for (int i = 0; i < 300_000; i++) { // several files' worth: some are complete when the stream is dropped
                stream.add(new Object[] {i});
            }
        }

        assertThat(parquetFiles()).isEqualTo(before);
        assertThat(DeltaTables.latestVersion(table())).isZero();
        CommitResult retry = w.append(APP, 1, List.<Object[]>of(new Object[] {7}), Map.of(0, 1L), offsets(2));
        assertThat(retry.version()).isEqualTo(1);
        assertThat(DeltaTables.readRows(table())).hasSize(2);
    }

    private long parquetFiles() throws Exception {
        try (Stream<Path> files = Files.list(dir.resolve("table"))) {
            return files.filter(p -> p.toString().endsWith(".parquet")).count();
        }
    }

    private static List<Object[]> sorted(List<Object[]> rows, int intColumn) {
        List<Object[]> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing((Object[] r) -> r[intColumn] == null ? Integer.MIN_VALUE : ((Number) r[intColumn]).intValue()));
        return copy;
    }
}
