package io.tributary.source.internal;

import io.tributary.delta.kernel.KernelInternals;
import io.delta.kernel.data.Row;
import io.delta.kernel.types.StructType;
import io.tributary.source.DeltaSourceConfig;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the stream takes from one commit. Plain stream: the files it added, if it removed nothing;
 * a commit that removes data fails as in Spark, unless {@code skipChangeCommits} (skip the whole
 * commit) or, for a commit that only removes files, {@code ignoreDeletes}. Change feed: the
 * commit's {@code cdc} files if it has any, else its removed files as {@code delete} rows and its
 * added files as {@code insert} rows, as Delta's change-feed reader does. Actions with
 * {@code dataChange=false} (compaction, OPTIMIZE) never reach here.
 */
final class ChangeCommits {
    private static final Logger LOG = LoggerFactory.getLogger(ChangeCommits.class);

    private final String tablePath;
    private final String tableRoot;
    private final DeltaSourceConfig config;

    ChangeCommits(String tablePath, String tableRoot, DeltaSourceConfig config) {
        this.tablePath = tablePath;
        this.tableRoot = tableRoot;
        this.config = config;
    }

    List<DataFile> filesOf(Commit c) {
        return config.readChangeFeed() ? changeFeedFiles(c) : streamFiles(c);
    }

    private List<DataFile> streamFiles(Commit c) {
        if (!c.dataRemoves().isEmpty()) {
            if (config.skipChangeCommits()) {
                LOG.info("delta-source {}: version {} ({}) removes data; skipped entirely (skipChangeCommits)",
                        tablePath, c.version(), c.describeOperation());
                return List.of();
            }
            if (c.dataAdds().isEmpty()) {
                if (config.ignoreDeletes()) {
                    LOG.info("delta-source {}: version {} ({}) only deletes files; ignored (ignoreDeletes)",
                            tablePath, c.version(), c.describeOperation());
                    return List.of();
                }
                throw SourceErrors.delete(tablePath, c, freshStart());
            }
            throw SourceErrors.dataUpdate(tablePath, c, freshStart());
        }
        List<DataFile> files = new ArrayList<>();
        for (Row add : c.dataAdds()) {
            files.add(tableFile(c, files.size(), add, KernelInternals.scanFileOfAdd(add, tableRoot), null));
        }
        return files;
    }

    private List<DataFile> changeFeedFiles(Commit c) {
        List<DataFile> files = new ArrayList<>();
        if (!c.cdcFiles().isEmpty()) {
            for (Row cdc : c.cdcFiles()) {
                StructType s = cdc.getSchema();
                String path = absolute(cdc.getString(s.indexOf("path")));
                files.add(new DataFile(c.version(), files.size(), DataFile.Kind.CHANGE_DATA_FILE, path,
                        cdc.getLong(s.indexOf("size")), cdc, null, c.timestampMs()));
            }
            return files;
        }
        for (Row remove : c.dataRemoves()) {
            StructType s = remove.getSchema();
            String path = remove.getString(s.indexOf("path"));
            if (!remove.isNullAt(s.indexOf("deletionVector"))) {
                throw SourceErrors.changeFeedUnsupported(tablePath, c.version(), "the commit (" + c.describeOperation()
                        + ") removes file " + path + " that carries a deletion vector, and has no change-data (cdc) file");
            }
            if (remove.isNullAt(s.indexOf("size"))) {
                throw SourceErrors.changeFeedUnsupported(tablePath, c.version(), "the commit (" + c.describeOperation()
                        + ") removes file " + path + " without recording its size, and has no change-data (cdc) file");
            }
            long size = remove.getLong(s.indexOf("size"));
            files.add(tableFile(c, files.size(), remove, KernelInternals.scanFileOfRemove(remove, size, tableRoot), "delete"));
        }
        for (Row add : c.dataAdds()) {
            if (!add.isNullAt(add.getSchema().indexOf("deletionVector"))) {
                throw SourceErrors.changeFeedUnsupported(tablePath, c.version(), "the commit (" + c.describeOperation()
                        + ") adds a file with a deletion vector (rows deleted through deletion vectors), and has no change-data (cdc) file");
            }
            files.add(tableFile(c, files.size(), add, KernelInternals.scanFileOfAdd(add, tableRoot), "insert"));
        }
        return files;
    }

    private DataFile tableFile(Commit c, int index, Row action, Row scanFile, String changeType) {
        StructType s = action.getSchema();
        long size = action.isNullAt(s.indexOf("size")) ? 0 : action.getLong(s.indexOf("size"));
        return new DataFile(c.version(), index, DataFile.Kind.TABLE_FILE, action.getString(s.indexOf("path")), size,
                scanFile, changeType, c.timestampMs());
    }

    private String absolute(String logPath) {
        if (logPath.matches("^[A-Za-z][A-Za-z0-9+.-]*:.*")) {
            return logPath;
        }
        return tableRoot.endsWith("/") ? tableRoot + logPath : tableRoot + "/" + logPath;
    }

    private String freshStart() {
        return "in Tributary: delete key '" + tablePath + "' from topic " + config.progressTopic()
                + " or give the pipeline a new name";
    }
}
