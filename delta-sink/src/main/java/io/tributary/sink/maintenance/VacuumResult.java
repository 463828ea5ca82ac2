package io.tributary.sink.maintenance;

import java.util.List;

/**
 * What {@link Vacuum#run} deleted, or with {@code dryRun} would delete.
 *
 * @param files paths relative to the table root, sorted
 * @param cutoffMs files removed from the table before this time (epoch ms), and never-committed files last modified before it, are deleted
 */
public record VacuumResult(String tablePath, boolean dryRun, long cutoffMs, List<String> files, long bytes, int filesKept) {
    public String summary() {
        return (dryRun ? "vacuum --dry-run " + tablePath + ": would delete " : "vacuum " + tablePath + ": deleted ")
                + files.size() + " files (" + bytes + " bytes); " + filesKept + " data files kept";
    }
}
