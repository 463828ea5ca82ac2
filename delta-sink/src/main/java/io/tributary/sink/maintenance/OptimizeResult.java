package io.tributary.sink.maintenance;

/**
 * What {@link Optimize#run} did.
 *
 * @param version the compaction's table version; -1 if there was nothing to compact (no commit)
 * @param attempts 1, or more when a concurrent commit removed a file being compacted and the work was redone
 * @param filesBefore the table's data files (within {@code where}) before
 * @param filesRemoved small files rewritten (removed with {@code dataChange=false})
 * @param filesAdded files written in their place
 */
public record OptimizeResult(String tablePath, long version, int attempts, int partitions, int filesBefore,
                             int filesRemoved, long bytesRemoved, int filesAdded, long bytesAdded) {
    public boolean committed() {
        return version >= 0;
    }

    /** One line for a user. */
    public String summary() {
        if (!committed()) {
            return "optimize " + tablePath + ": nothing to compact (" + filesBefore + " files, none of them two or more small files in one partition)";
        }
        return "optimize " + tablePath + ": version " + version + ", " + filesRemoved + " small files (" + bytesRemoved + " bytes) in "
                + partitions + " partition(s) rewritten as " + filesAdded + " files (" + bytesAdded + " bytes); "
                + (filesBefore - filesRemoved + filesAdded) + " files now" + (attempts > 1 ? "; redone " + (attempts - 1)
                + " time(s) after concurrent commits" : "");
    }
}
