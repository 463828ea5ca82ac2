package io.tributary.sink.maintenance;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.sink.internal.LogDirectory;
import io.tributary.sink.internal.TableFile;
import io.tributary.sink.internal.TableFacts;
import io.tributary.sink.internal.TableSnapshots;
import io.tributary.storage.Storage;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a user needs to judge a Delta table's health ({@code tributary describe}): versions, the last
 * checkpoint, the number and sizes of the data files, partitions, txn ids, domain metadata (the
 * sink's offsets), table properties and protocol.
 *
 * @param oldestVersion the oldest version the log can still be read at (older commits were cleaned up)
 * @param lastCheckpoint the version {@code _last_checkpoint} names; -1 if none
 * @param commitFiles commit JSONs in {@code _delta_log}
 * @param smallFiles files below a quarter of {@code targetFileSize}: many of them call for {@code optimize}
 * @param rows the table's rows per the log's statistics ({@code numRecords} of each {@code add}, less the rows
 *             deletion vectors mark deleted), no data file read; counts only the files that have statistics
 * @param filesWithoutRowCount data files whose {@code add} has no {@code numRecords}: with any, the row count is unknown
 * @param deletedRows rows of the files that deletion vectors mark deleted (already taken from {@code rows})
 * @param partitions files per partition ({@code col=value/...}); empty for an unpartitioned table
 * @param transactions txn appId to its latest version (the sink's batch id)
 * @param domains domain metadata, domain to configuration (the sink's offsets are {@code tributary.sink.offsets})
 */
public record TableDescription(String tablePath, long latestVersion, long oldestVersion, long lastCheckpoint, int commitFiles,
                               int files, long totalBytes, long minFileBytes, long medianFileBytes, long maxFileBytes,
                               long targetFileSize, int smallFiles, long rows, int filesWithoutRowCount, long deletedRows,
                               List<String> partitionColumns, Map<String, Integer> partitions,
                               Map<String, Long> transactions, Map<String, String> domains, Map<String, String> properties,
                               String protocol) {

    /** Describes the table at {@code tablePath}; {@code targetFileSize} sets what "small" means. */
    public static TableDescription of(String tablePath, long targetFileSize) {
        return of(tablePath, targetFileSize, Storage.NONE);
    }

    /** As {@link #of(String, long)}, for a table whose file system takes {@code storage}'s settings (object storage). */
    public static TableDescription of(String tablePath, long targetFileSize, Storage storage) {
        Engine engine = KernelEngines.create(storage);
        String path = KernelEngines.tablePath(tablePath);
        Snapshot s = TableSnapshots.latest(engine, path).orElseThrow(() -> MaintenanceErrors.describeNoTable(path));
        List<TableFile> files = TableFile.listWithStatistics(engine, s);
        long rows = 0;
        long deleted = 0;
        int withoutCount = 0;
        for (TableFile f : files) {
            if (f.numRecords().isPresent()) {
                rows += f.numRecords().getAsLong() - f.deletedRows();
                deleted += f.deletedRows();
            } else {
                withoutCount++;
            }
        }
        long[] sizes = files.stream().mapToLong(TableFile::size).sorted().toArray();
        Map<String, Integer> partitions = new TreeMap<>();
        if (!s.getPartitionColumnNames().isEmpty()) {
            for (TableFile f : files) {
                List<String> parts = new ArrayList<>();
                for (String c : s.getPartitionColumnNames()) {
                    parts.add(c + "=" + f.partitionValues().get(c));
                }
                partitions.merge(String.join("/", parts), 1, Integer::sum);
            }
        }
        LogDirectory log = new LogDirectory(engine, path);
        Map<String, Long> txns = new TreeMap<>();
        for (String appId : log.transactions(s).keySet()) {
            s.getLatestTransactionVersion(engine, appId).ifPresent(v -> txns.put(appId, v));
        }
        int small = (int) files.stream().filter(f -> f.size() < targetFileSize / 4).count();
        return new TableDescription(path, s.getVersion(), log.oldestReadableVersion(), log.lastCheckpoint().orElse(-1L),
                log.commitVersions().size(), files.size(), java.util.Arrays.stream(sizes).sum(),
                sizes.length == 0 ? 0 : sizes[0], sizes.length == 0 ? 0 : sizes[sizes.length / 2],
                sizes.length == 0 ? 0 : sizes[sizes.length - 1], targetFileSize, small, rows, withoutCount, deleted, List.copyOf(s.getPartitionColumnNames()),
                partitions, txns, TableFacts.domains(s), new TreeMap<>(s.getTableProperties()), TableFacts.protocol(s));
    }

    /** The row count from the log's statistics; empty when a data file's {@code add} has none. */
    public java.util.OptionalLong rowCount() {
        return filesWithoutRowCount == 0 ? java.util.OptionalLong.of(rows) : java.util.OptionalLong.empty();
    }

    /** The description as a few lines of text. */
    public String toText() {
        StringWriter sw = new StringWriter();
        PrintWriter out = new PrintWriter(sw);
        out.println("table " + tablePath);
        out.println("versions  latest " + latestVersion + ", oldest readable " + oldestVersion + ", " + commitFiles + " commit files in _delta_log");
        out.println("checkpoint  " + (lastCheckpoint < 0 ? "none yet" : "version " + lastCheckpoint)
                + "  (every " + properties.getOrDefault("delta.checkpointInterval", "10") + " commits)");
        out.printf("files  %d, %s in all; size min %s, median %s, max %s; %d below a quarter of the %s target%s%n", files, bytes(totalBytes),
                bytes(minFileBytes), bytes(medianFileBytes), bytes(maxFileBytes), smallFiles, bytes(targetFileSize),
                smallFiles > 1 ? " (tributary optimize compacts them)" : "");
        out.println(rowsLine());
        if (partitionColumns.isEmpty()) {
            out.println("partitions  none (not partitioned)");
        } else {
            out.println("partitions  by " + partitionColumns + ": " + partitions.size());
            partitions.entrySet().stream().limit(50).forEach(e -> out.println("  " + e.getKey() + "  " + e.getValue() + " files"));
            if (partitions.size() > 50) {
                out.println("  ... " + (partitions.size() - 50) + " more");
            }
        }
        out.println("transactions (txn appId: version)" + (transactions.isEmpty() ? "  none" : ""));
        transactions.forEach((k, v) -> out.println("  " + k + ": " + v));
        out.println("domain metadata" + (domains.isEmpty() ? "  none" : ""));
        domains.forEach((k, v) -> out.println("  " + k + ": " + v));
        out.println("properties" + (properties.isEmpty() ? "  none" : ""));
        properties.forEach((k, v) -> out.println("  " + k + " = " + v));
        out.println("protocol  " + protocol);
        out.flush();
        return sw.toString();
    }

    private String rowsLine() {
        String deletedNote = deletedRows > 0 ? "; " + deletedRows + " more rows in the files are marked deleted by deletion vectors" : "";
        if (filesWithoutRowCount == 0) {
            return "rows  " + rows + " (from the log's statistics, no data file read" + deletedNote + ")";
        }
        return "rows  unknown: " + filesWithoutRowCount + " of " + files + " data files have no row count in their statistics"
                + (files > filesWithoutRowCount ? " (the other " + (files - filesWithoutRowCount) + " hold " + rows + " rows" + deletedNote + ")" : "");
    }

    static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double v = n;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(java.util.Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
