package io.tributary.sink.maintenance;

import java.util.List;

/**
 * What {@link Vacuum#run} deleted, or with {@code dryRun} would delete.
 *
 * @param files paths relative to the table root, sorted
 * @param cutoffMs files removed from the table before this time (epoch ms), and never-committed files last modified before it, are deleted
 * @param filesKept data files of the latest version
 * @param leftAlone files under the table that it cannot show the table wrote (no action of the log names them, and they are not
 *                  data files of the table's layout written after it was created), sorted: never deleted
 */
public record VacuumResult(String tablePath, boolean dryRun, long cutoffMs, List<String> files, long bytes, int filesKept,
                           List<String> leftAlone) {
    /** How many of {@link #leftAlone} a summary names. */
    static final int NAMED = 3;

    public String summary() {
        String s = (dryRun ? "vacuum --dry-run " + tablePath + ": would delete " : "vacuum " + tablePath + ": deleted ")
                + files.size() + " files (" + bytes + " bytes); " + filesKept + " data files kept";
        if (!leftAlone.isEmpty()) {
            s += "; " + leftAlone.size() + " files the table did not write left alone ("
                    + String.join(", ", leftAlone.subList(0, Math.min(NAMED, leftAlone.size())))
                    + (leftAlone.size() > NAMED ? ", ..." : "") + ")";
        }
        return s;
    }
}
