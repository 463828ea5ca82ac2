package io.tributary.ingest;

import java.util.List;

/**
 * The input files a run left unread, for its summary: a scheduler that reads only the summary
 * line sees them. Names are printable ({@code in/a.json}).
 *
 * @param changedAfterIngest ingested files found changed on disk during the run: never read again
 *                           (Spark's file source reads a file once); new data goes under a new name
 * @param heldBack new files {@code fileMinAge} held back at the run's last look at the folder:
 *                 not in this run, a later one takes them
 * @param settling new files still being written at the run's last look ({@code fileSettleTime}):
 *                 not in this run, a later one takes them once they held still
 * @param corrupt files whose data broke off, read up to the break and the rest skipped
 *                ({@code ignoreCorruptFiles}); never read again
 */
public record SkippedFiles(List<String> changedAfterIngest, List<String> heldBack, List<String> settling, List<String> corrupt) {
    public SkippedFiles {
        changedAfterIngest = List.copyOf(changedAfterIngest);
        heldBack = List.copyOf(heldBack);
        settling = List.copyOf(settling);
        corrupt = List.copyOf(corrupt);
    }
}
