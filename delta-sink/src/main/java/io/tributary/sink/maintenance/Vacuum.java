package io.tributary.sink.maintenance;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.TributaryException;
import io.tributary.sink.internal.LogDirectory;
import io.tributary.sink.internal.TableFile;
import io.tributary.sink.internal.TableSnapshots;
import io.tributary.storage.Storage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delta's {@code VACUUM}, which Kernel lacks: deletes the data files that no version inside the
 * retention still references, and files that were never committed (left by failed or duplicate
 * attempts), once they are older than the retention. A file is kept if the latest snapshot has it,
 * or a {@code remove} of it (commit JSONs and the latest checkpoint) is newer than now - retention;
 * any other file under the table, last modified before now - retention, is deleted. Never touches
 * {@code _delta_log} or other hidden ({@code _} or {@code .}) paths.
 *
 * <p>As Delta does, a retention shorter than the table's {@code delta.deletedFileRetentionDuration}
 * (default 1 week) is refused unless forced: readers and writers of older snapshots may still need those files.
 */
public final class Vacuum {
    private static final Logger LOG = LoggerFactory.getLogger(Vacuum.class);
    static final String RETENTION_PROPERTY = "delta.deletedFileRetentionDuration";
    static final String DEFAULT_RETENTION = "interval 1 week";

    private final String tablePath;
    private final Engine engine;

    public Vacuum(String tablePath) {
        this(tablePath, Storage.NONE);
    }

    /** A table whose file system takes {@code storage}'s settings (object storage). */
    public Vacuum(String tablePath, Storage storage) {
        this.tablePath = KernelEngines.tablePath(tablePath);
        this.engine = KernelEngines.create(storage);
    }

    /**
     * @param retain files removed (or never committed) more recently than this are kept
     * @param dryRun only list what would be deleted
     * @param force allow {@code retain} below the table's {@code delta.deletedFileRetentionDuration}
     */
    public VacuumResult run(Duration retain, boolean dryRun, boolean force) {
        Snapshot snapshot = TableSnapshots.latest(engine, tablePath).orElseThrow(() -> new TributaryException(
                "vacuum: no Delta table at " + tablePath + " (no _delta_log with a commit); give the folder of an existing table"));
        String configured = snapshot.getTableProperties().getOrDefault(RETENTION_PROPERTY, DEFAULT_RETENTION);
        Duration tableRetention = DeltaIntervals.parse("table property " + RETENTION_PROPERTY, configured);
        if (retain.isNegative()) {
            throw new TributaryException("vacuum: --retain is negative (" + retain + "); give 0 or more, e.g. 168h");
        }
        if (retain.compareTo(tableRetention) < 0 && !force) {
            throw new TributaryException("vacuum " + tablePath + ": are you sure you would like to vacuum files with such a low retention "
                    + "period (" + DeltaIntervals.hours(retain) + ", below the table's " + RETENTION_PROPERTY + " of " + configured + ")? "
                    + "If writers are currently writing to this table (a running sink, an optimize) or readers are reading an older "
                    + "version, deleting the files they still need corrupts their work. If you are certain that no operation is "
                    + "running on this table, add --force (Spark: spark.databricks.delta.retentionDurationCheck.enabled = false); "
                    + "if you are not sure, use a value not less than \"" + DeltaIntervals.hours(tableRetention) + "\"");
        }
        long cutoff = System.currentTimeMillis() - retain.toMillis();
        try {
            Path root = new Path(tablePath);
            FileSystem fs = root.getFileSystem(KernelEngines.configuration(engine));
            Path qualifiedRoot = fs.makeQualified(root);
            Set<String> keep = new HashSet<>();
            List<TableFile> current = TableFile.list(engine, snapshot);
            for (TableFile f : current) {
                keep.add(resolve(fs, qualifiedRoot, f.logPath()));
            }
            for (LogDirectory.Removal r : new LogDirectory(engine, tablePath).removals()) {
                if (r.deletionTimestamp() >= cutoff) {
                    keep.add(resolve(fs, qualifiedRoot, r.path()));
                }
            }
            List<String> delete = new ArrayList<>();
            long bytes = 0;
            RemoteIterator<LocatedFileStatus> it = fs.listFiles(qualifiedRoot, true);
            String rootText = qualifiedRoot.toString();
            while (it.hasNext()) {
                LocatedFileStatus f = it.next();
                String path = f.getPath().toString();
                String relative = path.substring(rootText.length() + (rootText.endsWith("/") ? 0 : 1));
                if (hidden(relative) || keep.contains(path) || f.getModificationTime() >= cutoff) {
                    continue;
                }
                delete.add(relative);
                bytes += f.getLen();
                if (!dryRun) {
                    fs.delete(f.getPath(), false);
                }
            }
            delete.sort(null);
            VacuumResult result = new VacuumResult(tablePath, dryRun, cutoff, List.copyOf(delete), bytes, current.size());
            LOG.info("{}", result.summary());
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException("vacuum " + tablePath + ": cannot list or delete files", e);
        }
    }

    /** A path below a {@code _} or {@code .} folder or file (the log, checksums, Spark's temporary files) is never vacuumed. */
    private static boolean hidden(String relative) {
        for (String part : relative.split("/")) {
            if (part.startsWith("_") || part.startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    /** A log path (relative and URI-encoded, or absolute) as the qualified path listing returns. */
    private static String resolve(FileSystem fs, Path root, String logPath) {
        URI uri = URI.create(logPath);
        Path p = uri.isAbsolute() ? new Path(uri) : new Path(root, new Path(uri));
        return fs.makeQualified(p).toString();
    }
}
