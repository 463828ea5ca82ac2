package io.tributary.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.settings.Values;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkConfig;
import io.tributary.sink.SinkSettings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sink's history (SCD type 2) against Spark's MERGE of the same change batches ({@code golden/scd2}): out of order,
 * repeated, deleted and inserted again, across batches; {@code case-3} and {@code case-4} with tracked columns
 * ({@code TRACK HISTORY ON * EXCEPT (city)}, {@code TRACK HISTORY ON name, city}).
 */
class HistoryGoldenTest {
    private static final String DEFAULT_SCHEMA = "id INT, name STRING, op STRING, lsn BIGINT";

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"case-1, false", "case-1, true", "case-2, false", "case-2, true", "case-3, false", "case-3, true", "case-4, false",
        "case-4, true"})
    void theSinksHistoryIsSparksVersionForVersion(String name, boolean deletionVectors) throws IOException {
        history(name, deletionVectors ? Map.of("delta.enableDeletionVectors", "true") : Map.of());
    }

    /**
     * A history table with deletion vectors and the change data feed on, as a user turns both on: Spark's versions
     * too. With {@code -Dtributary.dv.keep=FOLDER} the table is kept for Spark 4.2 to read ({@code compat/spark/check.sh}):
     * exactly Spark's versions as rows, every commit, and its change data feed equal to what each commit changed.
     */
    @ParameterizedTest
    @ValueSource(strings = {"case-1", "case-2"})
    void withDeletionVectorsAndTheChangeFeedTheHistoryIsSparks(String name) throws IOException {
        Path table = history(name, Map.of("delta.enableDeletionVectors", "true", "delta.enableChangeDataFeed", "true"));
        long versions;
        long changeFiles;
        try (Stream<Path> log = Files.list(table.resolve("_delta_log"));
                Stream<Path> changes = Files.walk(table.resolve("_change_data"))) {
            versions = log.filter(p -> p.getFileName().toString().matches("[0-9]{20}\\.json")).count();
            changeFiles = changes.filter(p -> p.toString().endsWith(".parquet")).count();
        }
        assertThat(changeFiles).as("change data files of the batches that ended versions").isPositive();
        List<String> spark = List.of(text("golden/scd2/" + name + "/spark-history.txt").split("\n"));
        List<String> expect = new ArrayList<>(List.of("--count", String.valueOf(spark.size()), "--versions", String.valueOf(versions),
                "--schema", "id INT, name STRING, lsn BIGINT, __START_AT BIGINT, __END_AT BIGINT", "--change-feed-from", "0"));
        String[] columns = {"id", "name", "lsn", "__START_AT", "__END_AT"};
        for (String line : spark) { // as Spark's toJSON writes it: nulls left out, strings quoted
            String[] v = line.split("\\|", -1);
            StringJoiner row = new StringJoiner(",", "{", "}");
            for (int i = 0; i < columns.length; i++) {
                if (!v[i].equals("null")) {
                    row.add("\"" + columns[i] + "\":" + (i == 1 ? "\"" + v[i] + "\"" : v[i]));
                }
            }
            expect.add("--row");
            expect.add(row.toString());
        }
        DeletionVectorUpsertTest.keepForSpark("history-dv-cdf-" + name, table, expect);
    }

    /** The sink's history of a case in a table with {@code properties}, checked against Spark's; the table's path. */
    private Path history(String name, Map<String, String> properties) throws IOException {
        JsonNode spec = new ObjectMapper().readTree(text("golden/scd2/" + name + "/case.json"));
        String changes = resource("golden/scd2/" + name + "/batch-0.json") ? "golden/scd2/" + name + "/" : "golden/cdc/" + name + "/";
        Schema schema = Schema.parse(spec.has("schema") ? tableFirst(spec.path("schema").asText()) : DEFAULT_SCHEMA);
        Map<String, String> settings = new HashMap<>(ChangeUpsertTest.CDC);
        settings.put("history", "true");
        boolean tracked = false;
        for (String key : List.of("trackHistoryColumns", "trackHistoryExceptColumns")) {
            if (spec.has(key)) {
                List<String> named = new ArrayList<>();
                spec.path(key).forEach(c -> named.add(c.asText()));
                settings.put(key, String.join(",", named));
                tracked = true;
            }
        }
        SinkConfig c = config(dir.resolve("t"), schema, settings);
        Engine engine = KernelEngines.create();
        WriteMode scd2 = WriteMode.forConfig(c, new DeltaTableWriter(engine, c.tablePath(), c.tableSchema(), properties));
        RowJson json = new RowJson(schema);
        Set<String> seen = new HashSet<>();
        long repeated = 0;
        long duplicates = 0;
        for (int n = 0; resource(changes + "batch-" + n + ".json"); n++) {
            List<Object[]> batch = new ArrayList<>();
            for (String line : text(changes + "batch-" + n + ".json").split("\n")) {
                Object[] row = json.parse(line);
                batch.add(row);
                if (!seen.add(row[0] + "@" + row[row.length - 1])) {
                    repeated++;
                }
            }
            duplicates += (Long) UpsertTables.write(scd2, n, UpsertTables.batchOf(batch)).metrics().get("numSourceChangesDuplicated");
        }
        List<Object[]> rows = new ArrayList<>(DeltaTables.readRows(c.tablePath()));
        int start = rows.isEmpty() ? 0 : rows.get(0).length - 2;
        rows.sort(Comparator.<Object[], Integer>comparing(r -> (Integer) r[0]).thenComparing(r -> (Long) r[start]));
        List<String> ours = new ArrayList<>();
        for (Object[] r : rows) { // the stored columns, __START_AT, __END_AT
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < r.length; i++) {
                line.append(i == 0 ? "" : "|").append(r[i]);
            }
            ours.add(line.toString());
        }
        List<String> spark = List.of(text("golden/scd2/" + name + "/spark-history.txt").split("\n"));
        assertThat(ours).containsExactlyElementsOf(spark);
        if (!tracked) { // with tracked columns the table keeps a version's first and latest change only, so a repeat of one
            // in between is a late change that changes nothing, not a duplicate it can recognise
            assertThat(duplicates).as("the repeated changes of the case").isEqualTo(repeated).isPositive();
        }
        return Path.of(c.tablePath());
    }

    /** Spark's batches have {@code op} first; the sink's rows put it before the sequence, as the table drops it. */
    private static String tableFirst(String sparkSchema) {
        List<String> columns = new ArrayList<>();
        String op = null;
        for (String column : sparkSchema.split(",\\s*")) {
            if (column.startsWith("op ")) {
                op = column;
            } else {
                columns.add(column);
            }
        }
        columns.add(columns.size() - 1, op);
        return String.join(", ", columns);
    }

    private static SinkConfig config(Path table, Schema schema, Map<String, String> settings) {
        Map<String, String> spec = new HashMap<>();
        settings.forEach((k, v) -> spec.put("sink.delta." + k, v));
        Values values = Values.localized(SinkSettings.ALL, s -> s.under("sink.delta"), spec::get, (s, text, e) -> e);
        return SinkConfig.builder(table.toString(), schema, "events", UpsertTables.APP, "test/sink").settings(values).build();
    }

    private boolean resource(String name) {
        return getClass().getClassLoader().getResource(name) != null;
    }

    private String text(String resource) throws IOException {
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(resource)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
