package io.tributary.ingest.internal;

/** What reading one file counted: its good and bad rows, the dead-lettered ones, and the good rows' event times. */
final class FileCounts {
    long good;
    /**
     * The rows the transform took in (Spark's numInputRows; a joined row each, where Spark counts the rows its scan read, and
     * none past the batch's LIMIT, {@link QueryLimit}): {@link #good} unless a row makes several.
     */
    long input;
    long bad;
    long deadLettered;
    long etCount;
    long etMin = Long.MAX_VALUE;
    long etMax = Long.MIN_VALUE;
    double etSum;

    /**
     * Counts a good row and its event time (column {@code eventTimeColumn}, microseconds; none when
     * negative); returns that time in milliseconds for the record's timestamp, or -1.
     */
    long good(Object[] row, int eventTimeColumn) {
        good++;
        if (eventTimeColumn < 0 || row[eventTimeColumn] == null) {
            return -1;
        }
        long ms = Math.floorDiv((Long) row[eventTimeColumn], 1000L);
        etCount++;
        etMin = Math.min(etMin, ms);
        etMax = Math.max(etMax, ms);
        etSum += ms;
        return Math.max(ms, -1);
    }
}
