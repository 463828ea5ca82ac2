package io.tributary.sink.internal;

import io.delta.kernel.data.Row;
import io.delta.kernel.expressions.Predicate;
import java.util.Map;
import java.util.Set;

/**
 * What a batch that rewrites files commits, and what it read to decide it.
 *
 * @param actions the {@code remove} and {@code add} actions of the commit
 * @param readVersion the table version the plan was made on; -1 if there was no table
 * @param filter the scan filter that found the files the plan read; null if there was no table
 * @param readFiles the {@link TableFile#identity() identities} (path and deletion vector) of the files the
 *     filter returned (all of them were read)
 * @param removedFiles the identities of the files the plan removes (a subset of {@code readFiles})
 * @param metrics counts for the progress record, named as Delta's MERGE {@code operationMetrics}
 * @param domains domain metadata the commit sets (e.g. {@link DeleteMarkers}), read on {@code readVersion}
 * @param otherActions how many of the actions neither remove a file nor add a new one: {@code cdc} actions (change data
 *     files, {@link ChangeFeed}) and the adds that give a kept file a new deletion vector ({@link DeletionVectorMarks})
 */
record RewritePlan(java.util.List<Row> actions, long readVersion, Predicate filter, Set<String> readFiles,
                   Set<String> removedFiles, Map<String, Object> metrics, Map<String, String> domains, int otherActions) {
    RewritePlan(java.util.List<Row> actions, long readVersion, Predicate filter, Set<String> readFiles,
                Set<String> removedFiles, Map<String, Object> metrics, Map<String, String> domains) {
        this(actions, readVersion, filter, readFiles, removedFiles, metrics, domains, 0);
    }

    RewritePlan(java.util.List<Row> actions, long readVersion, Predicate filter, Set<String> readFiles,
                Set<String> removedFiles, Map<String, Object> metrics) {
        this(actions, readVersion, filter, readFiles, removedFiles, metrics, Map.of());
    }

    /**
     * The counts every rewrite reports, as Delta's MERGE names them; {@code counts} is updated, deleted
     * and copied target rows. A mode adds its own after them.
     */
    static Map<String, Object> mergeMetrics(long sourceRows, int sourceKeys, long inserted, long[] counts, int filesScanned,
                                            int filesRemoved, int filesAdded) {
        Map<String, Object> metrics = new java.util.LinkedHashMap<>();
        metrics.put("numSourceRows", sourceRows);
        metrics.put("numSourceKeys", (long) sourceKeys);
        metrics.put("numTargetRowsInserted", inserted);
        metrics.put("numTargetRowsUpdated", counts[0]);
        metrics.put("numTargetRowsDeleted", counts[1]);
        metrics.put("numTargetRowsCopied", counts[2]);
        metrics.put("numTargetFilesScanned", (long) filesScanned);
        metrics.put("numTargetFilesRemoved", (long) filesRemoved);
        metrics.put("numTargetFilesAdded", (long) filesAdded);
        return metrics;
    }

    int filesAdded() {
        return actions.size() - removedFiles.size() - otherActions;
    }
}
