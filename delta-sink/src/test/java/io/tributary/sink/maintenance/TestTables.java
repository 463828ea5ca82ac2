package io.tributary.sink.maintenance;

import io.tributary.delta.KernelEngines;
import io.tributary.schema.Schema;
import io.tributary.schema.Timestamps;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkOffsets;
import io.tributary.sink.internal.DeltaTableWriter;
import io.tributary.sink.internal.Partitioning;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Real tables written the way the sink writes them (one commit per batch, txn + offsets), fast: no broker. */
final class TestTables {
    static final String APP = "tributary-test-sink";
    static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");

    private final DeltaTableWriter writer;
    private long batch;
    private long offset;

    TestTables(String path, List<String> partitionBy, Map<String, String> properties) {
        this.writer = new DeltaTableWriter(KernelEngines.create(), path, properties, Partitioning.parse(partitionBy, SCHEMA));
        this.batch = DeltaTables.transactionVersion(path, APP).map(v -> v + 1).orElse(0L);
        this.offset = DeltaTables.sinkOffsets(path).map(o -> o.offsets().getOrDefault(0, 0L)).orElse(0L);
    }

    static TestTables at(Path path) {
        return new TestTables(path.toString(), List.of(), Map.of());
    }

    /** Commits {@code commits} batches of {@code rowsPerCommit} rows; row {@code i} has day {@code i % days} of May 2024. */
    TestTables commits(int commits, int rowsPerCommit, int days) {
        for (int c = 0; c < commits; c++) {
            List<Object[]> rows = new ArrayList<>();
            for (int r = 0; r < rowsPerCommit; r++) {
                int id = (int) offset + r;
                String ts = String.format("2024-05-%02dT%02d:%02d:00Z", 1 + id % days, id % 24, id % 60);
                rows.add(new Object[] {id, "u" + (id % 7), id * 1.5, Timestamps.parseMicros(ts, true)});
            }
            Map<Integer, Long> start = offset == 0 ? Map.of() : Map.of(0, offset);
            offset += rowsPerCommit;
            writer.append(APP, batch++, rows, start, new SinkOffsets(APP, "events", "topic-id", Map.of(0, offset)));
        }
        return this;
    }

    /** The table's rows as sorted strings, for comparing contents regardless of file and row order. */
    static List<String> rows(Path table) {
        return DeltaTables.readRows(table.toString()).stream().map(Arrays::deepToString).sorted().toList();
    }

    /** Parquet files under the table (committed or not). */
    static List<Path> parquetFiles(Path table) {
        try (Stream<Path> s = Files.walk(table)) {
            return s.filter(p -> p.toString().endsWith(".parquet") && !p.toString().contains("_delta_log")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Moves the table's creation ({@code metaData.createdTime} in the commit JSONs and checksums) back by
     * {@code by}, as if it had been created that long ago: tests of what vacuum does with files older
     * than the retention need a table older than those files. Only for tables without a checkpoint.
     */
    static void backdateCreation(Path table, Duration by) {
        try (Stream<Path> log = Files.list(table.resolve("_delta_log"))) {
            for (Path p : log.filter(f -> f.toString().endsWith(".json") || f.toString().endsWith(".crc")).toList()) {
                String text = Files.readString(p);
                Matcher m = CREATED_TIME.matcher(text);
                StringBuilder out = new StringBuilder();
                while (m.find()) {
                    m.appendReplacement(out, "\"createdTime\":" + (Long.parseLong(m.group(1)) - by.toMillis()));
                }
                m.appendTail(out);
                Files.writeString(p, out.toString());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final Pattern CREATED_TIME = Pattern.compile("\"createdTime\":(\\d+)");

    /** Sets a file's last-modified time to {@code by} before now. */
    static void age(Path file, Duration by) {
        try {
            Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(by)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path commitFile(Path table, long version) {
        return table.resolve("_delta_log").resolve(String.format("%020d.json", version));
    }
}
