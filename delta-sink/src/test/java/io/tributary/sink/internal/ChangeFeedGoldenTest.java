package io.tributary.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.tributary.delta.KernelEngines;
import io.tributary.delta.kernel.KernelInternals;
import io.tributary.schema.RowJson;
import io.tributary.sink.SinkConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink's change data feed against Spark 4.2's {@code readChangeFeed} after its own MERGE of the same
 * batches ({@code golden/cdc/<case>/spark-feed.txt}, recorded by {@code compat/spark} {@code SparkCdcMerge}).
 * The sink's feed is read from its commits as the protocol tells a change data reader to (PROTOCOL.md,
 * "Change Data Files"): a commit's {@code cdc} files when it has them, else its adds as inserts and its
 * removes as deletes. Batch N is the sink's version N and the version Spark's MERGE of batch N committed.
 */
class ChangeFeedGoldenTest {
    private static final RowJson CHANGES = new RowJson(ChangeUpsertTest.SCHEMA);
    private static final StructType TABLE = new StructType().add("id", IntegerType.INTEGER).add("name", StringType.STRING)
            .add("lsn", LongType.LONG);
    private static final StructType CHANGE = TABLE.add("_change_type", StringType.STRING);
    private static final Pattern ACTION = Pattern.compile("^\\{\"(add|remove|cdc)\":\\{\"path\":\"([^\"]+)\"");

    @TempDir
    Path dir;

    private final Engine engine = KernelEngines.create();

    @Test
    void theFeedIsSparksAfterItsMergeOfAStreamTheyAgreeOn() throws IOException {
        assertThat(sinkFeed("golden/cdc/case-2/")).isEqualTo(lines("golden/cdc/case-2/spark-feed.txt"));
    }

    @Test
    void theFeedIsSparksButForKeysSparksMergeBroughtBackAfterTheirDelete() throws IOException {
        String c = "golden/cdc/case-1/";
        List<String> ours = sinkFeed(c);
        List<String> spark = lines(c + "spark-feed.txt");
        Set<Integer> differing = new TreeSet<>();
        Set<String> only = new java.util.HashSet<>(ours);
        only.addAll(spark);
        Set<String> both = new java.util.HashSet<>(ours);
        both.retainAll(spark);
        only.removeAll(both);
        only.forEach(l -> differing.add(Integer.parseInt(l.split("\\|")[2])));
        assertThat(differing).as("keys whose changes differ: each parts where Spark's MERGE inserts the key again after a delete, "
                + "a late change with a lower lsn that the sink's delete marker (of a delete of the key, or of a delete of it while absent) skips").isNotEmpty().allSatisfy(id -> {
                    List<String> o = ofKey(ours, id);
                    List<String> s = ofKey(spark, id);
                    int i = 0;
                    while (i < o.size() && i < s.size() && o.get(i).equals(s.get(i))) {
                        i++;
                    }
                    assertThat(i).as("key %s: ours %s, Spark's %s", id, o, s).isLessThan(s.size());
                    assertThat(s.get(i).split("\\|")[1]).as("key %s: ours %s, Spark's %s", id, o, s).isEqualTo("insert");
                });
        ours.removeIf(l -> differing.contains(Integer.parseInt(l.split("\\|")[2])));
        spark.removeIf(l -> differing.contains(Integer.parseInt(l.split("\\|")[2])));
        assertThat(ours).isEqualTo(spark).hasSizeGreaterThan(100);
    }

    /** Runs the case's batches through the sink into a table with the change data feed; its feed as SparkCdcMerge writes Spark's. */
    private List<String> sinkFeed(String c) throws IOException {
        String keep = System.getProperty("tributary.cdf.keep"); // a folder to leave the tables in, for compat/spark's SparkChangeFeed
        Path table = (keep == null ? dir : Path.of(keep)).resolve(c.replace('/', '-'));
        SinkConfig config = ChangeUpsertTest.config(table, ChangeUpsertTest.CDC);
        WriteMode cdc = WriteMode.forConfig(config, new DeltaTableWriter(engine, config.tablePath(), config.tableSchema(),
                ChangeDataFeedTest.CDF));
        List<String> feed = new ArrayList<>();
        for (int n = 0; exists(c + "batch-" + n + ".json"); n++) {
            List<Object[]> batch = new ArrayList<>();
            for (String line : lines(c + "batch-" + n + ".json")) {
                batch.add(CHANGES.parse(line));
            }
            CommitResult r = UpsertTables.write(cdc, n, UpsertTables.batchOf(batch));
            assertThat(r.version()).isEqualTo(n);
            List<String> changes = new ArrayList<>();
            for (String[] row : versionChanges(table, n)) {
                changes.add(n + "|" + row[3] + "|" + row[0] + "|" + row[1] + "|" + row[2]);
            }
            changes.sort(feedOrder());
            feed.addAll(changes);
        }
        return feed;
    }

    /** A version's changes as a change data reader reads them: id, name, lsn, _change_type. */
    private List<String[]> versionChanges(Path table, long version) throws IOException {
        Map<String, List<String>> files = new HashMap<>();
        for (String line : Files.readAllLines(table.resolve(String.format("_delta_log/%020d.json", version)))) {
            Matcher m = ACTION.matcher(line);
            if (m.find()) {
                files.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(m.group(2));
            }
        }
        List<String[]> out = new ArrayList<>();
        if (files.containsKey("cdc")) {
            for (String p : files.get("cdc")) {
                out.addAll(read(table.resolve(p), CHANGE, null));
            }
            return out;
        }
        for (String p : files.getOrDefault("add", List.of())) {
            out.addAll(read(table.resolve(p), TABLE, "insert"));
        }
        for (String p : files.getOrDefault("remove", List.of())) {
            out.addAll(read(table.resolve(p), TABLE, "delete"));
        }
        return out;
    }

    private List<String[]> read(Path file, StructType schema, String changeType) throws IOException {
        List<String[]> out = new ArrayList<>();
        FileStatus fs = FileStatus.of(file.toUri().toString(), Files.size(file), 0);
        try (CloseableIterator<ColumnarBatch> batches = engine.getParquetHandler()
                .readParquetFiles(KernelInternals.single(fs), schema, Optional.empty()).map(r -> r.getData())) {
            while (batches.hasNext()) {
                try (CloseableIterator<Row> rows = batches.next().getRows()) {
                    while (rows.hasNext()) {
                        Row r = rows.next();
                        out.add(new String[] {String.valueOf(r.getInt(0)), r.isNullAt(1) ? "null" : r.getString(1),
                                String.valueOf(r.getLong(2)), changeType != null ? changeType : r.getString(3)});
                    }
                }
            }
        }
        return out;
    }

    /** As SparkCdcMerge sorts Spark's feed: by batch, id, then change type. */
    private static java.util.Comparator<String> feedOrder() {
        return java.util.Comparator.comparing((String l) -> Integer.parseInt(l.split("\\|")[0]))
                .thenComparing(l -> Integer.parseInt(l.split("\\|")[2])).thenComparing(l -> l.split("\\|")[1]);
    }

    private static List<String> ofKey(List<String> feed, int id) {
        return feed.stream().filter(l -> Integer.parseInt(l.split("\\|")[2]) == id).toList();
    }

    /** Per id, the change with the greatest lsn of the whole stream. */
    private Map<Integer, Object[]> latest(String c) throws IOException {
        Map<Integer, Object[]> latest = new HashMap<>();
        for (int n = 0; exists(c + "batch-" + n + ".json"); n++) {
            for (String line : lines(c + "batch-" + n + ".json")) {
                Object[] change = CHANGES.parse(line);
                latest.merge((Integer) change[0], change, (a, b) -> (Long) a[3] >= (Long) b[3] ? a : b);
            }
        }
        return latest;
    }

    private boolean exists(String resource) {
        return getClass().getClassLoader().getResource(resource) != null;
    }

    private List<String> lines(String resource) throws IOException {
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(resource)) {
            List<String> out = new ArrayList<>();
            for (String l : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!l.isBlank()) {
                    out.add(l);
                }
            }
            return out;
        }
    }
}
