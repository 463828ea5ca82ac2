package io.tributary.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.types.FieldMetadata;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.StructType;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.Schema;
import io.tributary.schema.Timestamps;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkOffsets;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sink's own Parquet writer against Kernel's: the same rows read back and the same statistics in the log. */
class DataFileWriterTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final Schema SCHEMA = Schema.parse("b TINYINT, s SMALLINT, i INT NOT NULL, l BIGINT, f FLOAT, d DOUBLE, "
            + "small DECIMAL(5,2), mid DECIMAL(15,3), big DECIMAL(30,4), str STRING, flag BOOLEAN, day DATE, ts TIMESTAMP, "
            + "ntz TIMESTAMP_NTZ, bin BINARY, w STRUCT<start: TIMESTAMP, n: STRUCT<x: INT, y: STRING>>");

    @TempDir
    Path dir;

    @AfterEach
    void defaultStrategy() {
        System.clearProperty(DataFileWriter.STRATEGY_PROPERTY);
    }

    static List<Object[]> rows() {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 2_500; i++) {
            boolean nulls = i % 7 == 3;
            long ts = Timestamps.parseMicros("2024-03-01T10:00:00.123456Z", true) + i * 1_000_001L;
            rows.add(new Object[] {
                nulls ? null : (byte) (i % 200 - 100), nulls ? null : (short) (i * 3 - 2000), i, nulls ? null : (long) i << 33,
                nulls ? null : i / 8f, nulls ? null : (i % 11 == 0 ? Double.NaN : i * 0.25 - 100), new BigDecimal("123.45").negate().add(BigDecimal.valueOf(i, 2)),
                nulls ? null : BigDecimal.valueOf(i * 1_000_003L, 3), nulls ? null : new BigDecimal("-12345678901234567890.1234").add(BigDecimal.valueOf(i)),
                nulls ? null : "user-" + (i * 7919 % 1000) + (i % 5 == 0 ? "é" : ""), nulls ? null : i % 2 == 0, nulls ? null : 19_000 + i,
                nulls ? null : ts, nulls ? null : ts + 5, nulls ? null : new byte[] {(byte) i, 2, 3},
                i % 13 == 0 ? null : new Object[] {ts, i % 3 == 0 ? null : new Object[] {i, "n" + i}}});
        }
        return rows;
    }

    private JsonNode writeAndReadStats(String strategy, Path table, List<Object[]> rows) throws IOException {
        System.setProperty(DataFileWriter.STRATEGY_PROPERTY, strategy);
        DeltaTableWriter writer = new DeltaTableWriter(KernelEngines.create(), table.toString(), SCHEMA, Map.of());
        writer.append("app", 0, rows, Map.of(), new SinkOffsets("app", "events", "id", Map.of(0, (long) rows.size())));
        try (Stream<String> lines = Files.lines(table.resolve("_delta_log/00000000000000000000.json"))) {
            JsonNode add = lines.map(l -> readTree(l)).filter(n -> n.has("add")).findFirst().orElseThrow().get("add");
            return readTree(add.get("stats").asText());
        }
    }

    private static JsonNode readTree(String s) {
        try {
            return JSON.readTree(s);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void ownWriterAndKernelWriterGiveTheSameRowsAndStatistics() throws IOException {
        List<Object[]> rows = rows();
        JsonNode direct = writeAndReadStats("direct", dir.resolve("direct"), rows);
        JsonNode kernel = writeAndReadStats("kernel", dir.resolve("kernel"), rows);

        assertThat(direct).isEqualTo(kernel);
        assertThat(direct.get("numRecords").asLong()).isEqualTo(rows.size());
        assertThat(direct.get("minValues").get("i").asInt()).isZero();
        assertThat(direct.get("maxValues").get("i").asInt()).isEqualTo(rows.size() - 1);
        for (String table : List.of("direct", "kernel")) {
            List<Object[]> back = new ArrayList<>(DeltaTables.readRows(dir.resolve(table).toString()));
            back.sort(Comparator.comparingInt(r -> (Integer) r[2]));
            assertThat(back).hasSize(rows.size());
            for (int i = 0; i < rows.size(); i++) {
                assertThat(Arrays.deepEquals(back.get(i), rows.get(i))).as("%s row %d: %s", table, i, Arrays.deepToString(back.get(i))).isTrue();
            }
        }
    }

    @Test
    void aBatchLargerThanTheTargetFileSizeIsSplitIntoFiles() throws IOException {
        // a 1-byte target: a new file at every size check (each 10,000 rows), so the split shows without 128 MiB of data
        Schema schema = Schema.parse("i INT");
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 25_000; i++) {
            rows.add(new Object[] {i});
        }
        Path table = dir.resolve("t");
        new DeltaTableWriter(KernelEngines.create(), table.toString(), Map.of(), Partitioning.none(schema), 1)
                .append("app", 0, rows, Map.of(), new SinkOffsets("app", "events", "id", Map.of(0, 25_000L)));
        List<Long> perFile;
        try (Stream<String> lines = Files.lines(table.resolve("_delta_log/00000000000000000000.json"))) {
            perFile = lines.map(DataFileWriterTest::readTree).filter(n -> n.has("add"))
                    .map(n -> readTree(n.get("add").get("stats").asText()).get("numRecords").asLong()).sorted().toList();
        }
        assertThat(perFile).containsExactly(5_000L, 10_000L, 10_000L);
        assertThat(DeltaTables.readRows(table.toString())).hasSize(25_000);
    }

    @Test
    void columnMappedTablesAreLeftToKernel() {
        StructType plain = new StructType().add("a", IntegerType.INTEGER);
        StructType mapped = new StructType().add("a", IntegerType.INTEGER, true,
                FieldMetadata.builder().putString("delta.columnMapping.physicalName", "col-1").build());
        assertThat(DataFileWriter.plainNames(plain)).isTrue();
        assertThat(DataFileWriter.plainNames(mapped)).isFalse();
        assertThat(DataFileWriter.plainNames(new StructType().add("s", mapped))).isFalse();
    }

    @Test
    void onlyLocalFoldersAreWrittenDirectly() {
        assertThat(DataFileWriter.localDirectory("file:/tmp/t")).contains(Path.of("/tmp/t"));
        assertThat(DataFileWriter.localDirectory("file:///tmp/t")).contains(Path.of("/tmp/t"));
        assertThat(DataFileWriter.localDirectory("/tmp/t")).contains(Path.of("/tmp/t"));
        assertThat(DataFileWriter.localDirectory("s3a://bucket/t")).isEmpty();
    }
}
