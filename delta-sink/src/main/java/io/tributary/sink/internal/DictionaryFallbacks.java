package io.tributary.sink.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * The columns of one table whose next Parquet file is written without a dictionary: those whose
 * dictionary fell back to plain encoding in the last file the sink wrote for the table (a column of
 * unique values such as an id or a timestamp). parquet-mr tries the dictionary again on every file
 * and every row group, hashing a first page of values (the whole of a small file) before it gives
 * up and copies them out again; a column it gave up on is written plain straight away for the next
 * {@value #FILES_WITHOUT} files, then tried again, so a column whose values start repeating gets
 * its dictionary back. Shared by the batches of a table's writer; thread-safe.
 */
final class DictionaryFallbacks {
    /** How many files a column that fell back is written plain before its dictionary is tried again. */
    static final int FILES_WITHOUT = 16;

    /** Column path (dotted) to the files left to write it plain. */
    private final Map<String, Integer> plain = new HashMap<>();

    /** The dotted paths of the columns the next file writes without a dictionary. */
    synchronized Set<String> plainColumns() {
        return Set.copyOf(plain.keySet());
    }

    /**
     * Records what a file's footer says: a column written with a dictionary whose data pages are
     * not all dictionary-encoded fell back; one written plain ({@code writtenPlain}) counts a file
     * down toward its next try.
     */
    synchronized void record(ParquetMetadata footer, Set<String> writtenPlain) {
        for (String path : writtenPlain) {
            plain.computeIfPresent(path, (p, left) -> left <= 1 ? null : left - 1);
        }
        for (BlockMetaData block : footer.getBlocks()) {
            for (ColumnChunkMetaData column : block.getColumns()) {
                String path = column.getPath().toDotString();
                EncodingStats stats = column.getEncodingStats();
                if (!writtenPlain.contains(path) && stats != null && stats.hasNonDictionaryEncodedPages()) {
                    plain.put(path, FILES_WITHOUT);
                }
            }
        }
    }
}
