package io.tributary.sink.internal;

import io.tributary.delta.kernel.KernelInternals;
import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import java.net.URI;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The files a table's log speaks of, as the qualified paths a listing of the table's folder gives:
 * those of the latest snapshot (data files and their deletion vector files), those removed (with the
 * latest time each was removed), and every file any readable action names. What {@code vacuum}
 * needs to tell a file the table still uses, one it once wrote, and one it never wrote.
 */
public final class FileReferences {
    private final Set<String> live = new HashSet<>();
    private final Map<String, Long> removedAt = new HashMap<>();
    private final Set<String> named = new HashSet<>();
    private final int liveDataFiles;

    private FileReferences(int liveDataFiles) {
        this.liveDataFiles = liveDataFiles;
    }

    /**
     * Reads the latest snapshot's files through Kernel, and every {@code add}, {@code remove} and
     * {@code cdc} in the snapshot's checkpoint (classic, multi-part or V2 with its sidecars) and in
     * the commit JSONs that still exist.
     */
    public static FileReferences read(Engine engine, Snapshot snapshot, String tablePath, FileSystem fs) {
        String tableRoot = KernelEngines.tablePath(tablePath);
        Path root = fs.makeQualified(new Path(tableRoot));
        List<TableFile> current = TableFile.list(engine, snapshot);
        FileReferences refs = new FileReferences(current.size());
        for (TableFile f : current) {
            refs.live.add(resolveLogPath(fs, root, f.logPath()));
            KernelInternals.deletionVectorFile(f.scanFile(), tableRoot).ifPresent(dv -> refs.live.add(qualify(fs, dv)));
        }
        new LogDirectory(engine, tablePath).fileActions(snapshot, a -> {
            refs.note(resolveLogPath(fs, root, a.logPath()), a.removedAt());
            Optional.ofNullable(a.deletionVectorFile()).ifPresent(dv -> refs.note(qualify(fs, dv), a.removedAt()));
        });
        refs.named.addAll(refs.live);
        return refs;
    }

    private void note(String path, long removed) {
        named.add(path);
        if (removed >= 0) {
            removedAt.merge(path, removed, Math::max);
        }
    }

    /** The latest snapshot reads this file (a data file, or the deletion vector of one). */
    public boolean live(String qualifiedPath) {
        return live.contains(qualifiedPath);
    }

    /** When the file was last removed from the table (epoch ms), or -1 if no remove that the log still holds names it. */
    public long removedAt(String qualifiedPath) {
        return removedAt.getOrDefault(qualifiedPath, -1L);
    }

    /** An action the log still holds names this file: the table wrote it. */
    public boolean named(String qualifiedPath) {
        return named.contains(qualifiedPath);
    }

    /** Data files of the latest snapshot. */
    public int liveDataFiles() {
        return liveDataFiles;
    }

    /** A log path (relative and URI-encoded, or an absolute URI) as the qualified path a listing returns. */
    private static String resolveLogPath(FileSystem fs, Path root, String logPath) {
        URI uri = URI.create(logPath);
        Path p = uri.isAbsolute() ? new Path(uri) : new Path(root, new Path(uri));
        return fs.makeQualified(p).toString();
    }

    private static String qualify(FileSystem fs, String path) {
        return fs.makeQualified(new Path(path)).toString();
    }
}
