package io.tributary.sink.internal;

import static io.tributary.sink.internal.UpsertTables.batchOf;
import static io.tributary.sink.internal.UpsertTables.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.maintenance.Optimize;
import io.tributary.sink.maintenance.OptimizeOptions;
import io.tributary.sink.maintenance.OptimizeResult;
import io.tributary.sink.maintenance.TableDescription;
import io.tributary.sink.maintenance.Vacuum;
import io.tributary.sink.maintenance.VacuumResult;
import io.tributary.testing.Folders;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink on tables Spark 4.2 made with column mapping ({@code golden/column-mapping}, recorded by compat/spark's
 * {@code SparkColumnMapping}): {@code name} mode partitioned by {@code region}, {@code id} mode with deletion
 * vectors; in both Spark renamed {@code name} to {@code customer}, dropped {@code note} (whose values stay in the
 * first file) and added a new {@code note}. Appends, upserts and compaction into copies read back as Spark's rows
 * after its own INSERT and MERGE of the same rows, and what the sink writes is keyed by physical names.
 */
class ColumnMappingGoldenTest {
    static final Schema SCHEMA = new Schema(List.of(new Field("id", DataType.INT, true), new Field("customer", DataType.STRING, true),
            new Field("amt", DataType.DOUBLE, true), new Field("region", DataType.STRING, true), new Field("note", DataType.STRING, true)));
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final Engine engine = KernelEngines.create();

    private static Path golden(String mode) {
        try {
            return Path.of(Objects.requireNonNull(ColumnMappingGoldenTest.class.getResource("/golden/column-mapping/" + mode), mode).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private Path copy(String mode) {
        return Folders.copy(golden(mode).resolve("table"), dir.resolve(mode));
    }

    private static Partitioning partitioning(String mode) {
        return mode.equals("name") ? Partitioning.parse(List.of("region"), SCHEMA) : Partitioning.none(SCHEMA);
    }

    private DeltaTableWriter writer(String mode, Path table) {
        return new DeltaTableWriter(engine, table.toString(), Map.of(), partitioning(mode));
    }

    /** The rows of a JSON lines file of {@code golden/column-mapping/<mode>}, in the table's column order. */
    static List<String> expected(String mode, String file) throws IOException {
        RowJson json = new RowJson(SCHEMA);
        return Files.readAllLines(golden(mode).resolve(file)).stream().filter(l -> !l.isBlank()).map(json::parse).map(Arrays::toString).toList();
    }

    private static List<Object[]> input(String mode, String file) throws IOException {
        RowJson json = new RowJson(SCHEMA);
        return Files.readAllLines(golden(mode).resolve(file)).stream().filter(l -> !l.isBlank()).map(json::parse).toList();
    }

    /** The table's rows by id, as Kernel reads them (its logical names, the physical ones resolved). */
    static List<String> rows(Path table) {
        List<Object[]> rows = new ArrayList<>(DeltaTables.readRows(table.toString()));
        rows.sort(Comparator.comparing(r -> (Integer) r[0]));
        return rows.stream().map(Arrays::toString).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"name", "id"})
    void kernelReadsSparksTableAsSparkDoesTheRenamedColumnsOldDataUnderItsNewNameTheDroppedOnesNever(String mode) throws IOException {
        assertThat(rows(copy(mode))).isEqualTo(expected(mode, "spark.jsonl"))
                .as("the dropped note's values (n1, n2, n3) stay in the first file and never come back").noneMatch(r -> r.contains("n1"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"name", "id"})
    void anAppendReadsBackAsSparksInsertAndLandsUnderPhysicalNames(String mode) throws IOException {
        Path table = copy(mode);
        Set<String> before = dataFiles(table);
        writer(mode, table).append(UpsertTables.APP, 0, input(mode, "append.jsonl"), Map.of(), UpsertTables.offsets(2));

        assertThat(rows(table)).isEqualTo(expected(mode, "after-append.jsonl"));
        Set<String> added = dataFiles(table);
        added.removeAll(before);
        assertThat(added).isNotEmpty();
        Map<String, String> physical = physicalNames(table);
        for (String file : added) {
            assertPhysicalColumns(table.resolve(file), physical, mode);
        }
        assertAddsKeyedByPhysicalNames(table, lastVersion(table), physical, mode);
        keep(mode + "-append", table, "golden/column-mapping/" + mode + "/after-append.jsonl");
    }

    @ParameterizedTest
    @ValueSource(strings = {"name", "id"})
    void anUpsertReadsBackAsSparksMerge(String mode) throws IOException {
        Path table = copy(mode);
        Set<String> before = dataFiles(table);
        DeltaTableWriter w = writer(mode, table);
        CopyOnWriteUpsert upsert = new CopyOnWriteUpsert(w, new RewriteCommitter(w), new KeyColumns(SCHEMA, List.of("id")), null, 100);
        CommitResult result = write(upsert, 0, batchOf(input(mode, "upsert.jsonl")));

        assertThat(rows(table)).isEqualTo(expected(mode, "after-upsert.jsonl"));
        if (mode.equals("id")) {
            assertThat(result.metrics()).as("the id-mode table has deletion vectors: replaced rows are marked, not copied")
                    .containsEntry("numTargetRowsCopied", 0L);
        }
        assertAddsKeyedByPhysicalNames(table, lastVersion(table), physicalNames(table), mode);
        keep(mode + "-upsert", table, "golden/column-mapping/" + mode + "/after-upsert.jsonl");
        Set<String> added = dataFiles(table);
        added.removeAll(before);
        assertThat(added).isNotEmpty();
        for (String file : added) {
            assertPhysicalColumns(table.resolve(file), physicalNames(table), mode);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"name", "id"})
    void compactionKeepsTheRowsAndThePhysicalNames(String mode) throws IOException {
        Path table = copy(mode);
        writer(mode, table).append(UpsertTables.APP, 0, input(mode, "append.jsonl"), Map.of(), UpsertTables.offsets(2));
        List<String> before = rows(table);

        OptimizeResult result = Optimize.run(table.toString(), OptimizeOptions.defaults());

        assertThat(result.filesRemoved()).as("Spark's three inserts and the append: more than one small file per partition").isGreaterThan(1);
        assertThat(rows(table)).isEqualTo(before).isEqualTo(expected(mode, "after-append.jsonl"));
        assertAddsKeyedByPhysicalNames(table, lastVersion(table), physicalNames(table), mode);
        keep(mode + "-optimize", table, "golden/column-mapping/" + mode + "/after-append.jsonl");
    }

    @ParameterizedTest
    @ValueSource(strings = {"name", "id"})
    void describeShowsPartitionsByColumnNameAndVacuumKeepsEveryFileAfterACompaction(String mode) throws IOException {
        Path table = copy(mode);
        Optimize.run(table.toString(), OptimizeOptions.defaults());

        TableDescription d = TableDescription.of(table.toString(), OptimizeOptions.DEFAULT_TARGET_FILE_SIZE);
        assertThat(d.rows()).isEqualTo(7);
        assertThat(d.partitions()).isEqualTo(mode.equals("name") ? Map.of("region=eu", 1, "region=us", 1) : Map.of());
        VacuumResult dry = new Vacuum(table.toString()).run(java.time.Duration.ZERO, true, true);
        assertThat(dry.files()).as("the files compaction removed, none the latest version reads").isNotEmpty()
                .allMatch(f -> !f.contains("_delta_log"));
        new Vacuum(table.toString()).run(java.time.Duration.ZERO, false, true);
        assertThat(rows(table)).isEqualTo(expected(mode, "spark.jsonl"));
    }

    /**
     * With {@code -Dtributary.colmap.keep=FOLDER}: a copy of the table in FOLDER/NAME, for Spark to read
     * (compat/spark's {@code SparkColumnMapping read FOLDER/NAME OUT.jsonl}, compared with {@code expected}).
     */
    static void keep(String name, Path table, String expected) {
        String keep = System.getProperty("tributary.colmap.keep");
        if (keep == null) {
            return;
        }
        Path target = Path.of(keep).resolve(name);
        try (Stream<Path> files = Files.walk(table)) {
            for (Path p : files.toList()) {
                Path t = target.resolve(table.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
            Files.writeString(Path.of(keep).resolve(name + ".expected"), expected + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---- what the files and the log hold ----

    /** Logical name to physical name and id, from the table's latest schema. */
    private Map<String, String> physicalNames(Path table) {
        Map<String, String> out = new java.util.TreeMap<>();
        new DeltaTableWriter(engine, table.toString(), SCHEMA, Map.of()).latestSnapshot().orElseThrow().getSchema().fields()
                .forEach(f -> out.put(f.getName(), f.getMetadata().getString("delta.columnMapping.physicalName") + "#"
                        + f.getMetadata().get("delta.columnMapping.id")));
        return out;
    }

    /** A Parquet file the sink wrote: its columns named and numbered by the physical names and column ids, the partition column absent. */
    private static void assertPhysicalColumns(Path file, Map<String, String> physical, String mode) throws IOException {
        MessageType schema = ParquetFileReader.readFooter(new LocalInputFile(file), ParquetMetadataConverter.NO_FILTER)
                .getFileMetaData().getSchema();
        List<String> columns = new ArrayList<>();
        for (Type t : schema.getFields()) {
            columns.add(t.getName() + "#" + (t.getId() == null ? null : t.getId().intValue()));
        }
        List<String> want = new ArrayList<>();
        physical.forEach((logical, p) -> {
            if (!(mode.equals("name") && logical.equals("region"))) {
                want.add(p);
            }
        });
        assertThat(columns).as("columns of %s", file.getFileName()).containsExactlyInAnyOrderElementsOf(want);
    }

    /** Every add of {@code version}: partition values and statistics keyed by physical names only. */
    private static void assertAddsKeyedByPhysicalNames(Path table, long version, Map<String, String> physical, String mode)
            throws IOException {
        Set<String> physicalOnly = new HashSet<>();
        physical.values().forEach(p -> physicalOnly.add(p.substring(0, p.indexOf('#'))));
        int adds = 0;
        for (String line : Files.readAllLines(table.resolve("_delta_log").resolve(String.format("%020d.json", version)))) {
            JsonNode add = JSON.readTree(line).get("add");
            if (add == null) {
                continue;
            }
            adds++;
            List<String> partitionKeys = new ArrayList<>();
            add.path("partitionValues").fieldNames().forEachRemaining(partitionKeys::add);
            String region = physical.get("region");
            assertThat(partitionKeys).as("partition values of %s", add.path("path").asText())
                    .isEqualTo(mode.equals("name") ? List.of(region.substring(0, region.indexOf('#'))) : List.of());
            JsonNode stats = JSON.readTree(add.path("stats").asText());
            List<String> statKeys = new ArrayList<>();
            stats.path("minValues").fieldNames().forEachRemaining(statKeys::add);
            stats.path("nullCount").fieldNames().forEachRemaining(statKeys::add);
            // a file Spark wrote before the DROP COLUMN keeps the dropped column's statistics, under its physical name
            assertThat(statKeys).as("statistics of %s", add.path("path").asText()).isNotEmpty().containsAnyElementsOf(physicalOnly)
                    .allMatch(k -> k.startsWith("col-")).doesNotContainAnyElementsOf(physical.keySet());
        }
        assertThat(adds).as("adds in version %s", version).isPositive();
    }

    private static long lastVersion(Path table) {
        return DeltaTables.latestVersion(table.toString());
    }

    private static Set<String> dataFiles(Path table) throws IOException {
        try (Stream<Path> files = Files.walk(table)) {
            return new HashSet<>(files.filter(p -> p.toString().endsWith(".parquet") && !p.toString().contains("_delta_log"))
                    .map(p -> table.relativize(p).toString()).toList());
        }
    }
}
