package io.tributary.sink.internal;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Where a Delta table's writers put files, and how they name them: what tells a table's own data
 * file, left behind by a write that never committed, from a file someone else put in the folder.
 *
 * <p>Data files lie in the table's root (unpartitioned) or in its partition folders ({@code col=value/} in the order
 * of the partition columns); change data files under {@code _change_data/}; deletion vectors in the
 * root. Every Delta writer names them with a random UUID: Spark and delta-rs
 * {@code part-00000-<uuid>-c000.snappy.parquet}, Kernel (and Tributary) {@code <uuid>-000.parquet},
 * Spark's change data {@code cdc-00000-<uuid>.c000.snappy.parquet}, deletion vectors
 * {@code deletion_vector_<uuid>.bin}.
 */
public final class TableLayout {
    private static final String UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
    private static final Pattern DATA_FILE = Pattern.compile("[^/]*" + UUID + "[^/]*\\.parquet");
    private static final Pattern KERNEL_DATA_FILE = Pattern.compile(UUID + "-\\d{3}\\.parquet");
    private static final Pattern DELETION_VECTOR = Pattern.compile("deletion_vector_" + UUID + "\\.bin");
    static final String CHANGE_DATA = "_change_data";

    private TableLayout() {
    }

    /**
     * A path (relative to the table root, {@code /}-separated) that Delta treats as hidden: any part
     * starting with {@code _} or {@code .} ({@code _delta_log}, checksums, temporary files), except a
     * partition folder {@code _col=value} of a partition column and the {@code _change_data} folder,
     * as Delta's own {@code VACUUM} does. Stricter than Delta: {@code _delta_index} stays hidden.
     */
    public static boolean hidden(String relative, List<String> partitionColumns) {
        String[] parts = relative.split("/");
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i];
            boolean special = part.startsWith("_") || part.startsWith(".");
            if (special && !(i == 0 && part.equals(CHANGE_DATA) && parts.length > 1) && !isPartitionFolder(part, partitionColumns)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A file a Delta writer of this table would have written: a data file (UUID in its name,
     * {@code .parquet}) in the root or the partition folders, a change data file under
     * {@code _change_data/}, or a deletion vector file in the root.
     */
    public static boolean looksWrittenByTable(String relative, List<String> partitionColumns) {
        String[] parts = relative.split("/");
        String name = parts[parts.length - 1];
        if (parts.length == 1 && DELETION_VECTOR.matcher(name).matches()) {
            return true;
        }
        if (!DATA_FILE.matcher(name).matches()) {
            return false;
        }
        return inDataFolder(parts, partitionColumns);
    }

    /** A data file as Kernel's and Tributary's writers name them ({@code <uuid>-000.parquet}) in the root or the partition folders. */
    public static boolean isKernelDataFile(String relative, List<String> partitionColumns) {
        String[] parts = relative.split("/");
        return KERNEL_DATA_FILE.matcher(parts[parts.length - 1]).matches() && !parts[0].equals(CHANGE_DATA)
                && inDataFolder(parts, partitionColumns);
    }

    /** The file's folder is the root of an unpartitioned table or a partition folder (col=value/ per partition column, in order), or either under _change_data/. */
    private static boolean inDataFolder(String[] parts, List<String> partitionColumns) {
        int first = parts.length > 1 && parts[0].equals(CHANGE_DATA) ? 1 : 0;
        int folders = parts.length - 1 - first;
        if (folders != partitionColumns.size()) {
            return false;
        }
        for (int i = 0; i < folders; i++) {
            if (!parts[first + i].startsWith(partitionColumns.get(i) + "=")) {
                return false;
            }
        }
        return true;
    }

    private static boolean isPartitionFolder(String part, List<String> partitionColumns) {
        for (String c : partitionColumns) {
            if (part.startsWith(c + "=")) {
                return true;
            }
        }
        return false;
    }
}
