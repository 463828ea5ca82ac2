package io.tributary.sink.internal;

import io.tributary.delta.KernelEngines;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The folder a new table is created in. A folder that holds files but no {@code _delta_log} is
 * someone's data: creating a table there would silently make it the table's folder, so that is
 * refused unless {@code sink.delta.allowNonEmptyPath} says so (Delta refuses CREATE TABLE on a
 * non-empty location that is not a Delta table in the same way). Data files a first attempt of this
 * sink wrote before it stopped short of its first commit ({@code <uuid>-000.parquet} in the root or
 * partition folders, with their Hadoop checksums) do not count.
 */
public final class TableFolder {
    private static final Logger LOG = LoggerFactory.getLogger(TableFolder.class);
    public static final String SETTING = "sink.delta.allowNonEmptyPath";
    /** How many of the files found the message names. */
    static final int NAMED = 3;

    private TableFolder() {
    }

    /**
     * Checks the folder of a table about to be created (no {@code _delta_log} yet).
     *
     * @param partitionColumns the table's partition columns (its data files' folders)
     * @param hadoop the table's file system settings (object storage included)
     * @throws TributaryException if the folder holds files other than the table's own and {@code allowNonEmpty} is false
     */
    public static void checkNewTable(String tablePath, List<String> partitionColumns, boolean allowNonEmpty, Configuration hadoop) {
        checkNewTable(tablePath, partitionColumns, allowNonEmpty, hadoop, "sink.delta.path", SETTING);
    }

    /**
     * As above, the refusal naming the settings {@code pathKey} and {@code allowKey} (the Kafka Connect
     * sink's {@code delta.path} and {@code allowNonEmptyPath}). A table another writer created
     * meanwhile ({@code _delta_log} there), and the data files writers of the table wrote before
     * their first commit, pass: writers racing to create the table never refuse one another.
     */
    public static void checkNewTable(String tablePath, List<String> partitionColumns, boolean allowNonEmpty, Configuration hadoop,
                                     String pathKey, String allowKey) {
        String path = KernelEngines.tablePath(tablePath);
        Path root = new Path(path);
        try {
            FileSystem fs = root.getFileSystem(hadoop);
            if (!fs.exists(root) || !fs.getFileStatus(root).isDirectory() || fs.exists(new Path(root, "_delta_log"))) {
                return;
            }
            Path qualified = fs.makeQualified(root);
            String rootText = qualified.toString();
            List<String> named = new ArrayList<>();
            long count = 0;
            RemoteIterator<FileStatus> it = FolderListing.files(fs, qualified);
            while (it.hasNext()) {
                String relative = it.next().getPath().toString().substring(rootText.length() + (rootText.endsWith("/") ? 0 : 1));
                if (relative.startsWith("_delta_log/")) {
                    return; // another writer created the table since the check above
                }
                if (isTablesOwn(relative, partitionColumns)) {
                    continue;
                }
                count++;
                if (named.size() < NAMED) {
                    named.add(relative);
                }
            }
            if (count == 0) {
                return;
            }
            String found = count + (count == 1 ? " file" : " files") + " (" + String.join(", ", named) + (count > named.size() ? ", ..." : "") + ")";
            if (!allowNonEmpty) {
                throw TableErrors.notEmptyFolder(pathKey, path, found, allowKey);
            }
            LOG.warn("delta sink: creating the table in {}, which holds {} that are not the table's ({}: true); they stay, vacuum never deletes them",
                    path, found, allowKey);
        } catch (IOException e) {
            throw new UncheckedIOException("delta sink: cannot list " + pathKey + " " + path, e);
        }
    }

    /** A data file the table's writer left there, or the hidden Hadoop checksum of one. */
    private static boolean isTablesOwn(String relative, List<String> partitionColumns) {
        int slash = relative.lastIndexOf('/');
        String name = relative.substring(slash + 1);
        if (name.startsWith(".") && name.endsWith(".crc")) {
            relative = relative.substring(0, slash + 1) + name.substring(1, name.length() - ".crc".length());
        }
        return TableLayout.isKernelDataFile(relative, partitionColumns);
    }
}
