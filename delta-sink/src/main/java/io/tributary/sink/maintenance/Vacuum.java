package io.tributary.sink.maintenance;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.sink.internal.FileReferences;
import io.tributary.sink.internal.FolderListing;
import io.tributary.sink.internal.TableFacts;
import io.tributary.sink.internal.TableLayout;
import io.tributary.sink.internal.TableSnapshots;
import io.tributary.storage.Storage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delta's {@code VACUUM}, which Kernel lacks: deletes the files of a table that no version inside the
 * retention still references, once they are older than the retention, and never a file it cannot
 * show the table wrote. A file is kept if the latest snapshot reads it (a data file or its deletion
 * vector), if a {@code remove} of it is newer than now - retention, or if it was last modified after
 * that. Otherwise it is deleted only when
 * <ul>
 *   <li>an action the log still holds names it (an {@code add}, {@code remove} or {@code cdc}, or
 *       the deletion vector of one, in the commit JSONs or in the checkpoint, whether classic,
 *       multi-part or V2 with sidecars): the table wrote it and no retained version needs it; or</li>
 *   <li>it looks like a file a writer of this table left behind without committing it (a data file
 *       with a UUID in its name in the table's root or partition folders, a change data file, a
 *       deletion vector in the root; {@link TableLayout}) and was modified after the table was
 *       created ({@code metaData.createdTime}).</li>
 * </ul>
 * Every other file, such as one that was in the folder before the table, is left alone and counted
 * in the result. Hidden paths ({@code _delta_log}, names starting with {@code _} or {@code .}) are
 * never touched, except partition folders {@code _col=value} and {@code _change_data}, as in Delta.
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
        Snapshot snapshot = TableSnapshots.latest(engine, tablePath).orElseThrow(() -> MaintenanceErrors.vacuumNoTable(tablePath));
        String configured = snapshot.getTableProperties().getOrDefault(RETENTION_PROPERTY, DEFAULT_RETENTION);
        Duration tableRetention = DeltaIntervals.parse("table property " + RETENTION_PROPERTY, configured);
        if (retain.isNegative()) {
            throw MaintenanceErrors.negativeRetention(retain);
        }
        if (retain.compareTo(tableRetention) < 0 && !force) {
            throw MaintenanceErrors.retentionTooShort(tablePath, DeltaIntervals.hours(retain), RETENTION_PROPERTY, configured, DeltaIntervals.hours(tableRetention));
        }
        refuseCatalogManaged(snapshot);
        long cutoff = System.currentTimeMillis() - retain.toMillis();
        try {
            Path root = new Path(tablePath);
            FileSystem fs = root.getFileSystem(KernelEngines.configuration(engine));
            Path qualifiedRoot = fs.makeQualified(root);
            FileReferences refs;
            try {
                refs = FileReferences.read(engine, snapshot, tablePath, fs);
            } catch (RuntimeException e) {
                throw MaintenanceErrors.vacuumCannotReadLog(tablePath, e.getMessage(), e);
            }
            List<String> partitionColumns = snapshot.getPartitionColumnNames();
            long created = TableFacts.createdTime(snapshot).orElse(Long.MIN_VALUE);
            List<String> delete = new ArrayList<>();
            List<String> foreign = new ArrayList<>();
            long bytes = 0;
            RemoteIterator<FileStatus> it = FolderListing.files(fs, qualifiedRoot);
            String rootText = qualifiedRoot.toString();
            while (it.hasNext()) {
                FileStatus f = it.next();
                String path = f.getPath().toString();
                String relative = path.substring(rootText.length() + (rootText.endsWith("/") ? 0 : 1));
                if (TableLayout.hidden(relative, partitionColumns) || refs.live(path) || refs.removedAt(path) >= cutoff) {
                    continue;
                }
                boolean tables = refs.named(path)
                        || (TableLayout.looksWrittenByTable(relative, partitionColumns) && f.getModificationTime() >= created);
                if (!tables) {
                    foreign.add(relative);
                    continue;
                }
                if (f.getModificationTime() >= cutoff) {
                    continue;
                }
                delete.add(relative);
                bytes += f.getLen();
                if (!dryRun) {
                    fs.delete(f.getPath(), false);
                }
            }
            delete.sort(null);
            foreign.sort(null);
            VacuumResult result = new VacuumResult(tablePath, dryRun, cutoff, List.copyOf(delete), bytes, refs.liveDataFiles(), List.copyOf(foreign));
            LOG.info("{}", result.summary());
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException("vacuum " + tablePath + ": cannot list or delete files", e);
        }
    }

    /** Delta refuses VACUUM on a catalog-managed table (its catalog owns the commits): so does this. */
    private void refuseCatalogManaged(Snapshot snapshot) {
        String protocol = TableFacts.protocol(snapshot);
        if (protocol.contains("catalogManaged") || protocol.contains("catalogOwned")) {
            throw MaintenanceErrors.vacuumCatalogManaged(tablePath, protocol);
        }
    }
}
