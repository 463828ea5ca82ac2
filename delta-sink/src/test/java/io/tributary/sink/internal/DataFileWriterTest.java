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

    /**
     * A partitioned table with column mapping (mode id): each partition's files in its folder without the partition column,
     * the columns under their physical names; the same rows, partition values and statistics from both writers.
     */
    @Test
    void partitionedColumnMappedTablesGetTheSameRowsAndStatisticsFromBothWriters() throws IOException {
        List<Object[]> rows = rows();
        Map<String, JsonNode> direct = writePartitioned("direct", dir.resolve("direct"), rows);
        Map<String, JsonNode> kernel = writePartitioned("kernel", dir.resolve("kernel"), rows);

        assertThat(direct.keySet()).containsExactlyInAnyOrder("{\"flag\":\"true\"}", "{\"flag\":\"false\"}", "{\"flag\":null}");
        assertThat(direct).isEqualTo(kernel);
        assertThat(direct.values()).allSatisfy(stats -> assertThat(stats.get("minValues").has("flag")).isFalse());
        for (String table : List.of("direct", "kernel")) {
            List<Object[]> back = new ArrayList<>(DeltaTables.readRows(dir.resolve(table).toString()));
            back.sort(Comparator.comparingInt(r -> (Integer) r[2]));
            assertThat(back).hasSize(rows.size());
            for (int i = 0; i < rows.size(); i++) {
                assertThat(Arrays.deepEquals(back.get(i), rows.get(i))).as("%s row %d: %s", table, i, Arrays.deepToString(back.get(i))).isTrue();
            }
        }
    }

    /** Writes {@code rows} partitioned by {@code flag} with column mapping; each add's statistics by its partition values, keyed by column name. */
    private Map<String, JsonNode> writePartitioned(String strategy, Path table, List<Object[]> rows) throws IOException {
        System.setProperty(DataFileWriter.STRATEGY_PROPERTY, strategy);
        new DeltaTableWriter(KernelEngines.create(), table.toString(), Map.of("delta.columnMapping.mode", "id"),
                Partitioning.parse(List.of("flag"), SCHEMA))
                .append("app", 0, rows, Map.of(), new SinkOffsets("app", "events", "id", Map.of(0, (long) rows.size())));
        List<JsonNode> actions;
        try (Stream<String> lines = Files.lines(table.resolve("_delta_log/00000000000000000000.json"))) {
            actions = lines.map(DataFileWriterTest::readTree).toList();
        }
        JsonNode fields = readTree(actions.stream().filter(n -> n.has("metaData")).findFirst().orElseThrow()
                .get("metaData").get("schemaString").asText()).get("fields");
        Map<String, JsonNode> out = new java.util.TreeMap<>();
        for (JsonNode a : actions) {
            if (a.has("add")) {
                JsonNode add = a.get("add");
                String partition = logicalNames(add.get("partitionValues"), fields).toString();
                String folder = java.net.URLDecoder.decode(add.get("path").asText(), java.nio.charset.StandardCharsets.UTF_8);
                assertThat(folder).as("the partition's folder, by the column's physical name").startsWith(
                        add.get("partitionValues").fieldNames().next() + "=");
                out.put(partition, logicalNames(readTree(add.get("stats").asText()), fields));
            }
        }
        return out;
    }

    /** A statistics or partition-values object keyed by physical names, keyed by the columns' names (nested structs too). */
    private static JsonNode logicalNames(JsonNode node, JsonNode fields) {
        if (!node.isObject()) {
            return node;
        }
        com.fasterxml.jackson.databind.node.ObjectNode out = JSON.createObjectNode();
        node.fieldNames().forEachRemaining(key -> {
            JsonNode field = null;
            for (JsonNode f : fields) {
                if (f.get("metadata").path("delta.columnMapping.physicalName").asText().equals(key)) {
                    field = f;
                }
            }
            if (field == null) { // numRecords, minValues, ...
                out.set(key, logicalNames(node.get(key), fields));
            } else {
                JsonNode type = field.get("type");
                out.set(field.get("name").asText(), type.isObject() && type.has("fields") ? logicalNames(node.get(key), type.get("fields"))
                        : node.get(key));
            }
        });
        return out;
    }

    @Test
    void plainNamesAreThoseOfSchemasWithoutColumnMapping() {
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
