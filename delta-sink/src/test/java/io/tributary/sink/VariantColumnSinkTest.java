package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.delta.KernelEngines;
import io.tributary.expressions.JsonInputVariants;
import io.tributary.expressions.Transform;
import io.tributary.schema.BadRecordException;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.schema.TimeTexts;
import io.tributary.sink.internal.DeltaTableWriter;
import io.tributary.sink.maintenance.Optimize;
import io.tributary.sink.maintenance.OptimizeOptions;
import io.tributary.testing.Folders;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * VARIANT columns in Delta tables, against what Spark 4.2 + Delta 4.4 wrote and read ({@code golden/variant}, recorded by
 * compat/spark's {@code SparkVariants}): the sink writes {@code parse_json(raw) AS payload} as Spark does (the
 * {@code variantType} feature, the {@code variant} type, the Parquet group), the variants cross the topic's JSON unchanged, and
 * Tributary reads Spark's table and its own alike. {@code -Dtributary.variant.keep=DIR} leaves the table written in
 * {@code DIR/tributary-table} for {@code SparkVariants read}.
 */
class VariantColumnSinkTest {
    /** compat/spark's SparkVariants.SELECT: the table's columns from {@code id INT, raw STRING}. */
    static final List<String> SELECT = List.of("id", "parse_json(raw) AS payload", "to_variant_object(named_struct('n', id, "
            + "'d', DATE'2024-02-29', 'dec', CAST(id AS DECIMAL(5,2)) / 4, 'bin', X'CAFE', 'f', CAST(id AS FLOAT) / 2)) AS typed");
    /** compat/spark's SparkVariants.QUERY, over the table's rows. */
    static final List<String> QUERY = List.of("id", "to_json(payload)", "schema_of_variant(payload)",
            "CAST(try_variant_get(payload, '$.a', 'int') AS STRING)", "CAST(try_variant_get(payload, '$.b.c[1]', 'double') AS STRING)",
            "to_json(typed)", "schema_of_variant(typed)", "CAST(variant_get(typed, '$.d', 'date') AS STRING)");
    static final Schema SOURCE = Schema.parse("id INT, raw STRING");
    private static final Schema TABLE = new Schema(List.of(new Field("id", DataType.INT, true), new Field("payload", DataType.VARIANT, true),
            new Field("typed", DataType.VARIANT, true)));
    private static final TopicPartition P0 = new TopicPartition("events", 0);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void parseJsonColumnsLandAsSparksVariantColumns() throws IOException {
        Transform transform = Transform.compile(SOURCE, null, SELECT);
        assertThat(transform.output().field(1).type()).isEqualTo(DataType.VARIANT);
        RowJson topic = new RowJson(transform.output());
        List<Object[]> rows = new ArrayList<>();
        List<String> cases = lines("cases.txt");
        for (int i = 0; i < cases.size(); i++) {
            Object[] row = transform.apply(new Object[] {i + 1, cases.get(i)});
            byte[] record = topic.write(row); // the events topic's record, as the sink reads it
            assertThat(topic.write(topic.parse(record))).isEqualTo(record);
            rows.add(topic.parse(record));
        }
        Path table = dir.resolve("t");
        PartitionSink sink = new PartitionSink(table.toString(), transform.output(), List.of(), SinkConfig.DEFAULT_TARGET_FILE_SIZE,
                Map.of(), "task-0");
        try (PartitionSink.Batch b = sink.begin()) {
            rows.forEach(b::add);
            b.commit(Map.of(P0, 0L), Map.of(P0, (long) rows.size()));
        }

        JsonNode protocol = action(table, 0, "protocol");
        assertThat(protocol.get("minReaderVersion").asInt()).isEqualTo(3);
        assertThat(protocol.get("readerFeatures").toString()).contains("\"variantType\"");
        assertThat(protocol.get("writerFeatures").toString()).contains("\"variantType\"");
        JsonNode schema = JSON.readTree(action(table, 0, "metaData").get("schemaString").asText());
        assertThat(schema.get("fields").get(1).get("type").asText()).isEqualTo("variant");
        assertThat(schema.get("fields").get(2).get("type").asText()).isEqualTo("variant");
        assertThat(parquetGroups(dataFile(table))).isEqualTo(parquetGroups(dataFile(golden().resolve("table"))));

        assertThat(sparkQuery(DeltaTables.readRows(table.toString()))).isEqualTo(lines("spark.tsv"));
        assertThat(stats(table)).as("Delta 4.4's stats: a VARIANT's null count, no min or max")
                .isEqualTo(stats(golden().resolve("table")));
        keep(table);
    }

    /**
     * The well-formed rows of Spark's JSON reader over {@code json-source-cases.txt} (VARIANT fields at the top, in a struct, an
     * array and a map; SQL NULLs where a field is missing, variant nulls where it is JSON null) land as Spark's rows, and the add
     * action counts the nulls of each VARIANT column as Delta 4.4 counted them in Spark's table of the same rows
     * ({@code json-source-stats.json}).
     */
    @Test
    void jsonInputVariantsLandWithSparksNullCounts() throws IOException {
        Schema schema = Schema.parseWithVariant("id INT, payload VARIANT, s STRUCT<v: VARIANT, n: INT>, arr ARRAY<VARIANT>, "
                + "m MAP<STRING, VARIANT>");
        RowJson input = new RowJson(schema, TimeTexts.of(java.time.ZoneOffset.UTC), JsonInputVariants.INSTANCE);
        List<String> spark = lines("json-source-cases.tsv").stream().filter(l -> l.endsWith("\tNULL"))
                .map(l -> l.substring(0, l.lastIndexOf('\t'))).toList();
        List<Object[]> rows = new ArrayList<>();
        for (String line : lines("json-source-cases.txt")) {
            try {
                rows.add(input.parse(line));
            } catch (BadRecordException e) {
                // Spark's _corrupt_record lines: not in its table either
            }
        }
        Path table = dir.resolve("json");
        PartitionSink sink = new PartitionSink(table.toString(), schema, List.of(), SinkConfig.DEFAULT_TARGET_FILE_SIZE, Map.of(), "task-0");
        try (PartitionSink.Batch b = sink.begin()) {
            rows.forEach(b::add);
            b.commit(Map.of(P0, 0L), Map.of(P0, (long) rows.size()));
        }
        Transform query = Transform.compile(schema, null, List.of("id", "to_json(payload)", "schema_of_variant(payload)", "to_json(s)",
                "to_json(arr)", "to_json(m)"));
        assertThat(DeltaTables.readRows(table.toString()).stream().sorted(Comparator.comparing(r -> (Integer) r[0]))
                .map(r -> tsv(query.apply(r))).toList()).isEqualTo(spark);

        JsonNode expected = JSON.readTree(lines("json-source-stats.json").get(0));
        JsonNode got = stats(table);
        assertThat(got.get("numRecords")).isEqualTo(expected.get("numRecords"));
        assertThat(got.get("nullCount").get("payload")).isEqualTo(expected.get("nullCount").get("payload"));
        assertThat(got.get("nullCount").get("s")).isEqualTo(expected.get("nullCount").get("s"));
        assertThat(got.get("minValues").has("payload")).isFalse();
    }

    /** The stats of the table's one add action at version 0. */
    private static JsonNode stats(Path table) throws IOException {
        return JSON.readTree(action(table, 0, "add").get("stats").asText());
    }

    private static String tsv(Object[] row) {
        List<String> cells = new ArrayList<>();
        for (Object v : row) {
            cells.add(v == null ? "NULL" : String.valueOf(v));
        }
        return String.join("\t", cells);
    }

    @Test
    void sparksVariantTableReadsAndTakesAppends() throws IOException {
        Path table = Folders.copy(golden().resolve("table"), dir.resolve("spark"));
        List<String> spark = lines("spark.tsv");
        assertThat(sparkQuery(DeltaTables.readRows(table.toString()))).isEqualTo(spark);

        Transform transform = Transform.compile(SOURCE, null, SELECT);
        PartitionSink sink = new PartitionSink(table.toString(), transform.output(), List.of(), SinkConfig.DEFAULT_TARGET_FILE_SIZE,
                Map.of(), "task-0");
        List<String> cases = lines("cases.txt");
        try (PartitionSink.Batch b = sink.begin()) {
            for (int i = 0; i < cases.size(); i++) {
                b.add(transform.apply(new Object[] {i + 1, cases.get(i)}));
            }
            b.commit(Map.of(P0, 0L), Map.of(P0, (long) cases.size()));
        }
        List<String> twice = new ArrayList<>();
        for (String line : spark) {
            twice.add(line);
            twice.add(line);
        }
        assertThat(sparkQuery(DeltaTables.readRows(table.toString()))).isEqualTo(twice);

        // two small files, Spark's and the sink's: optimize rewrites them as one with the sink's own writer
        var optimized = Optimize.run(table.toString(), OptimizeOptions.defaults());
        assertThat(optimized.filesRemoved()).isEqualTo(2);
        assertThat(optimized.filesAdded()).isEqualTo(1);
        assertThat(sparkQuery(DeltaTables.readRows(table.toString()))).isEqualTo(twice);
        assertThat(parquetGroups(dataFile(table, optimized.version()))).isEqualTo(parquetGroups(dataFile(golden().resolve("table"))));
    }

    /** The schema grown by a VARIANT column (as the sink's mergeSchema grows it) takes the variantType feature with it. */
    @Test
    void aVariantColumnAddedToATableBringsItsFeature() throws IOException {
        Path table = dir.resolve("grown");
        new DeltaTableWriter(KernelEngines.create(), table.toString(), Schema.parse("id INT"), Map.of())
                .append("app", 0, List.<Object[]>of(new Object[] {0}), Map.of(), new SinkOffsets("app", "events", "topic-id", Map.of(0, 1L)));
        assertThat(action(table, 0, "protocol").toString()).doesNotContain("variantType");
        Transform transform = Transform.compile(SOURCE, null, SELECT);
        new DeltaTableWriter(KernelEngines.create(), table.toString(), transform.output(), Map.of())
                .append("app", 1, List.<Object[]>of(transform.apply(new Object[] {1, lines("cases.txt").get(0)})), Map.of(0, 1L),
                        new SinkOffsets("app", "events", "topic-id", Map.of(0, 2L)));
        JsonNode protocol = action(table, 1, "protocol");
        assertThat(protocol.get("readerFeatures").toString()).contains("\"variantType\"");
        assertThat(protocol.get("writerFeatures").toString()).contains("\"variantType\"");
        assertThat(sparkQuery(DeltaTables.readRows(table.toString()))).containsExactly(
                "0\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL",
                lines("spark.tsv").get(0));
    }

    /** The rows as Spark's QUERY gives them, one tab-separated line a row, by id. */
    static List<String> sparkQuery(List<Object[]> tableRows) {
        Transform query = Transform.compile(TABLE, null, QUERY);
        List<String> out = new ArrayList<>();
        tableRows.stream().sorted(Comparator.comparing(r -> (Integer) r[0])).forEach(r -> {
            Object[] q = query.apply(java.util.Arrays.copyOf(r, TABLE.size())); // a partition column after the three left out
            List<String> cells = new ArrayList<>();
            for (Object v : q) {
                cells.add(v == null ? "NULL" : String.valueOf(v));
            }
            out.add(String.join("\t", cells));
        });
        return out;
    }

    /** The Parquet schema's VARIANT groups, as parquet-mr prints them. */
    static String parquetGroups(Path file) throws IOException {
        String schema = ParquetFileReader.readFooter(new LocalInputFile(file), ParquetMetadataConverter.NO_FILTER)
                .getFileMetaData().getSchema().toString();
        return schema.substring(schema.indexOf("optional group payload"));
    }

    private static Path dataFile(Path table) throws IOException {
        try (Stream<Path> files = Files.list(table)) {
            return files.filter(p -> p.toString().endsWith(".parquet")).findFirst().orElseThrow();
        }
    }

    /** The data file that version {@code version} of the table adds (its first). */
    static Path dataFile(Path table, long version) throws IOException {
        return table.resolve(java.net.URLDecoder.decode(action(table, version, "add").get("path").asText(), StandardCharsets.UTF_8));
    }

    static JsonNode action(Path table, long version, String name) throws IOException {
        for (String line : Files.readAllLines(table.resolve("_delta_log").resolve(String.format("%020d.json", version)))) {
            JsonNode node = JSON.readTree(line);
            if (node.has(name)) {
                return node.get(name);
            }
        }
        throw new AssertionError("no " + name + " action in version " + version + " of " + table + ": "
                + Files.readString(table.resolve("_delta_log").resolve(String.format("%020d.json", version))));
    }

    private void keep(Path table) throws IOException {
        keep(table, "tributary-table");
    }

    /** With {@code -Dtributary.variant.keep=DIR}, {@code table} copied into {@code DIR/name} for compat/spark's {@code SparkVariants read}. */
    static void keep(Path table, String name) throws IOException {
        String keep = System.getProperty("tributary.variant.keep");
        if (keep != null) {
            Path target = Path.of(keep).resolve(name);
            if (Files.exists(target)) {
                try (Stream<Path> files = Files.walk(target)) {
                    files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
            Folders.copy(table, target);
        }
    }

    static List<String> lines(String name) throws IOException {
        return Files.readAllLines(golden().resolve(name), StandardCharsets.UTF_8);
    }

    static Path golden() {
        try {
            return Path.of(Objects.requireNonNull(VariantColumnSinkTest.class.getResource("/golden/variant"), "golden/variant").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

}
