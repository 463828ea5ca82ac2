package io.tributary.sink;

import static io.tributary.sink.VariantColumnSinkTest.action;
import static io.tributary.sink.VariantColumnSinkTest.golden;
import static io.tributary.sink.VariantColumnSinkTest.keep;
import static io.tributary.sink.VariantColumnSinkTest.lines;
import static io.tributary.sink.VariantColumnSinkTest.sparkQuery;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.expressions.Transform;
import io.tributary.sink.maintenance.Optimize;
import io.tributary.sink.maintenance.OptimizeOptions;
import io.tributary.sink.maintenance.OptimizeResult;
import io.tributary.testing.Folders;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * VARIANT columns in partitioned and column-mapped tables, and such tables compacted, against Spark 4.2 + Delta 4.4
 * ({@code golden/variant/layouts}, recorded by compat/spark's {@code SparkVariants record-layouts}): the sink writes a
 * partition's files into its folder without the partition column, a column-mapped table's columns under their physical
 * names with their ids as Parquet field ids, each VARIANT as Spark's group, and its rows read back as
 * Spark's query gives them ({@code golden/variant/spark.tsv}). Every table has the columns {@code id, payload, typed, part}
 * ({@code part = id % 3}). {@code -Dtributary.variant.keep=DIR} leaves the tables in {@code DIR} for {@code SparkVariants read}.
 */
class VariantTableLayoutsTest {
    /** compat/spark's SparkVariants.SELECT_LAYOUTS: SparkVariants.SELECT and the partition column. */
    static final List<String> SELECT = withPart(VariantColumnSinkTest.SELECT);
    private static final TopicPartition P0 = new TopicPartition("events", 0);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static List<String> withPart(List<String> select) {
        List<String> out = new ArrayList<>(select);
        out.add("id % 3 AS part");
        return out;
    }

    @Test
    void aPartitionedVariantTableHasEachPartitionsFilesInItsFolder() throws IOException {
        Path table = dir.resolve("partitioned");
        append(table, List.of("part"), Map.of(), cases(), 0);

        List<Path> files = dataFiles(table);
        assertThat(files).hasSize(3);
        for (Path f : files) {
            assertThat(table.relativize(f).getName(0).toString()).matches("part=[012]");
            assertThat(columns(f)).as("the partition column stays out of %s", f).containsExactly("id", "payload", "typed");
            assertThat(variantGroups(f)).isEqualTo(variantGroups(sparkFile("partitioned")));
        }
        Map<String, Long> rowsPerPartition = new LinkedHashMap<>();
        for (JsonNode add : adds(table, 0)) {
            JsonNode stats = JSON.readTree(add.get("stats").asText());
            rowsPerPartition.put(add.get("partitionValues").get("part").asText(), stats.get("numRecords").asLong());
            assertThat(stats.get("minValues").has("id")).isTrue();
            assertThat(stats.get("minValues").has("part")).isFalse();
            assertThat(stats.get("nullCount").get("payload").asLong()).as("a VARIANT's null count, as Spark writes it: %s", stats).isZero();
            assertThat(stats.get("minValues").has("payload")).isFalse();
        }
        assertThat(rowsPerPartition).containsOnly(Map.entry("0", 3L), Map.entry("1", 3L), Map.entry("2", 3L));
        assertThat(sparkQuery(DeltaTables.readRows(table.toString()))).isEqualTo(lines("spark.tsv"));
        keep(table, "partitioned");
    }

    @ParameterizedTest
    @ValueSource(strings = {"name", "id"})
    void aColumnMappedVariantTableNamesItsFileColumnsPhysically(String mode) throws IOException {
        Path table = dir.resolve("mapped-" + mode);
        List<String> partitionBy = mode.equals("name") ? List.of("part") : List.of();
        append(table, partitionBy, Map.of("delta.columnMapping.mode", mode), cases(), 0);

        Map<String, JsonNode> mapping = mapping(table);
        for (Path f : dataFiles(table)) {
            MessageType schema = footer(f);
            List<String> expected = new ArrayList<>();
            for (String column : partitionBy.isEmpty() ? List.of("id", "payload", "typed", "part") : List.of("id", "payload", "typed")) {
                expected.add(physicalName(mapping, column));
                Type t = schema.getType(physicalName(mapping, column));
                assertThat(t.getId()).as("field id of %s (Spark writes them in both modes)", column).isNotNull();
                assertThat(t.getId().intValue()).isEqualTo(mapping.get(column).get("delta.columnMapping.id").asInt());
            }
            assertThat(columns(f)).containsExactlyElementsOf(expected);
            GroupType payload = schema.getType(physicalName(mapping, "payload")).asGroupType();
            assertThat(payload.getFields()).extracting(Type::getName).containsExactly("value", "metadata");
            assertThat(payload.getFields()).extracting(Type::getId).containsOnlyNulls();
            assertThat(payload.getLogicalTypeAnnotation()).hasToString("VARIANT(1)");
        }
        for (JsonNode add : adds(table, 0)) {
            JsonNode stats = JSON.readTree(add.get("stats").asText());
            assertThat(stats.get("minValues").has(physicalName(mapping, "id"))).as("statistics keyed by physical name: %s", stats).isTrue();
            assertThat(stats.get("nullCount").has(physicalName(mapping, "typed"))).as("a VARIANT's null count: %s", stats).isTrue();
            if (!partitionBy.isEmpty()) {
                assertThat(add.get("partitionValues").has(physicalName(mapping, "part"))).as("%s", add).isTrue();
            }
        }
        assertThat(sparkQuery(DeltaTables.readRows(table.toString()))).isEqualTo(lines("spark.tsv"));
        keep(table, "mapped-" + mode);
    }

    @Test
    void optimizeCompactsAVariantTable() throws IOException {
        Path table = dir.resolve("optimized");
        List<Object[]> cases = cases();
        for (int from = 0; from < cases.size(); from += 3) {
            append(table, List.of(), Map.of(), cases.subList(from, from + 3), from);
        }
        assertThat(dataFiles(table)).hasSize(3);

        OptimizeResult result = Optimize.run(table.toString(), OptimizeOptions.defaults());
        assertThat(result.filesRemoved()).isEqualTo(3);
        assertThat(result.filesAdded()).isEqualTo(1);
        JsonNode add = adds(table, result.version()).get(0);
        assertThat(add.get("dataChange").asBoolean()).isFalse();
        assertThat(JSON.readTree(add.get("stats").asText()).get("numRecords").asLong()).isEqualTo(9);
        assertThat(variantGroups(table.resolve(add.get("path").asText()))).isEqualTo(variantGroups(sparkFile("partitioned")));
        assertThat(sparkQuery(DeltaTables.readRows(table.toString()))).isEqualTo(lines("spark.tsv"));
        keep(table, "optimized");
    }

    /** A VARIANT column's statistics are its null count alone, as Spark writes them (SQL NULLs, not JSON nulls). */
    @Test
    void aVariantColumnsNullsAreCountedInTheStatistics() throws IOException {
        Path table = dir.resolve("nulls");
        List<Object[]> rows = new ArrayList<>();
        for (Object[] row : cases()) {
            Object[] copy = row.clone();
            if ((Integer) copy[0] % 2 == 0) {
                copy[1] = null;
            }
            rows.add(copy);
        }
        append(table, List.of(), Map.of(), rows, 0);
        JsonNode stats = JSON.readTree(adds(table, 0).get(0).get("stats").asText());
        assertThat(stats.get("nullCount").get("payload").asLong()).isEqualTo(4);
        assertThat(stats.get("nullCount").get("typed").asLong()).isZero();
        assertThat(stats.get("minValues").has("payload")).isFalse();
        assertThat(stats.get("maxValues").has("payload")).isFalse();
    }

    /** Spark's tables appended to by the sink, then compacted: the rows twice, each partition's files in one. */
    @ParameterizedTest
    @ValueSource(strings = {"partitioned", "name", "id"})
    void sparksVariantTablesTakeAppendsAndCompact(String layout) throws IOException {
        Path table = Folders.copy(golden().resolve("layouts").resolve(layout), dir.resolve("spark-" + layout));
        assertThat(sparkQuery(DeltaTables.readRows(table.toString()))).isEqualTo(lines("spark.tsv"));
        List<String> partitionBy = layout.equals("id") ? List.of() : List.of("part");
        append(table, partitionBy, Map.of(), cases(), 0);
        List<String> twice = new ArrayList<>();
        for (String line : lines("spark.tsv")) {
            twice.add(line);
            twice.add(line);
        }
        assertThat(sparkQuery(DeltaTables.readRows(table.toString()))).isEqualTo(twice);

        int before = dataFiles(table).size();
        OptimizeResult result = Optimize.run(table.toString(), OptimizeOptions.defaults());
        assertThat(result.committed()).isTrue();
        assertThat(result.filesAdded()).isEqualTo(partitionBy.isEmpty() ? 1 : 3);
        assertThat(result.filesRemoved()).as("each partition's file of Spark's and the sink's").isEqualTo(before);
        assertThat(sparkQuery(DeltaTables.readRows(table.toString()))).isEqualTo(twice);
        keep(table, "spark-" + layout);
    }

    /** An upsert by id into Spark's column-mapped tables rewrites the files of the keys: each row once, its variants Spark's. */
    @ParameterizedTest
    @ValueSource(strings = {"name", "id"})
    void anUpsertIntoSparksColumnMappedVariantTableReplacesItsRows(String layout) throws IOException {
        Path table = Folders.copy(golden().resolve("layouts").resolve(layout), dir.resolve("upsert-" + layout));
        Transform transform = Transform.compile(VariantColumnSinkTest.SOURCE, null, SELECT);
        PartitionSink sink = new PartitionSink(table.toString(), transform.output(), layout.equals("id") ? List.of() : List.of("part"),
                SinkConfig.DEFAULT_TARGET_FILE_SIZE, Map.of(), "task-0", io.tributary.storage.Storage.NONE,
                new PartitionSink.Keys(List.of("id"), null, 100_000), false);
        List<Object[]> rows = cases();
        try (PartitionSink.Batch b = sink.begin()) {
            rows.forEach(b::add);
            b.commit(Map.of(P0, 0L), Map.of(P0, (long) rows.size()));
        }
        assertThat(sparkQuery(DeltaTables.readRows(table.toString()))).isEqualTo(lines("spark.tsv"));
    }

    /** Appends {@code rows} as one batch of topic partition 0 from offset {@code from}. */
    private static void append(Path table, List<String> partitionBy, Map<String, String> properties, List<Object[]> rows, long from) {
        Transform transform = Transform.compile(VariantColumnSinkTest.SOURCE, null, SELECT);
        PartitionSink sink = new PartitionSink(table.toString(), transform.output(), partitionBy, SinkConfig.DEFAULT_TARGET_FILE_SIZE,
                properties, "task-0");
        try (PartitionSink.Batch b = sink.begin()) {
            rows.forEach(b::add);
            b.commit(Map.of(P0, from), Map.of(P0, from + rows.size()));
        }
    }

    /** The golden cases as the table's rows: {@code id, payload, typed, part}. */
    private static List<Object[]> cases() throws IOException {
        Transform transform = Transform.compile(VariantColumnSinkTest.SOURCE, null, SELECT);
        List<String> cases = lines("cases.txt");
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            rows.add(transform.apply(new Object[] {i + 1, cases.get(i)}));
        }
        return rows;
    }

    /** Each column's metadata in the table's schema (version 0), by column name. */
    private static Map<String, JsonNode> mapping(Path table) throws IOException {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (JsonNode f : JSON.readTree(action(table, 0, "metaData").get("schemaString").asText()).get("fields")) {
            out.put(f.get("name").asText(), f.get("metadata"));
        }
        return out;
    }

    private static String physicalName(Map<String, JsonNode> mapping, String column) {
        return mapping.get(column).get("delta.columnMapping.physicalName").asText();
    }

    private static List<JsonNode> adds(Path table, long version) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(table.resolve("_delta_log").resolve(String.format("%020d.json", version)))) {
            JsonNode node = JSON.readTree(line);
            if (node.has("add")) {
                out.add(node.get("add"));
            }
        }
        return out;
    }

    private static List<Path> dataFiles(Path table) throws IOException {
        try (Stream<Path> files = Files.walk(table)) {
            return files.filter(p -> p.toString().endsWith(".parquet") && !p.toString().contains("_delta_log")).sorted().toList();
        }
    }

    private static Path sparkFile(String layout) throws IOException {
        return dataFiles(golden().resolve("layouts").resolve(layout)).get(0);
    }

    private static MessageType footer(Path file) throws IOException {
        return ParquetFileReader.readFooter(new LocalInputFile(file), ParquetMetadataConverter.NO_FILTER).getFileMetaData().getSchema();
    }

    /** The file's VARIANT groups, as parquet-mr prints them. */
    private static List<String> variantGroups(Path file) throws IOException {
        return footer(file).getFields().stream().filter(t -> !t.isPrimitive()).map(Type::toString).toList();
    }

    private static List<String> columns(Path file) throws IOException {
        return footer(file).getFields().stream().map(Type::getName).toList();
    }
}
