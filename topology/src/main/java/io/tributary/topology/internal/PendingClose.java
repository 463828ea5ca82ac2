package io.tributary.topology.internal;

/**
 * A marker whose closing is not done yet: the windows starting in {@code [from, bound]} are still
 * to be written out and removed, a step per transaction, before the marker goes on to the results
 * topic with its batch's counts ({@code from > bound}: nothing left).
 *
 * @param batchId the marker's batch
 * @param watermarkMs the watermark the marker forwards (the task's at the marker), or null
 * @param partition the events partition, which names the results partition
 * @param timestamp the marker record's timestamp, given to the records the closing writes
 * @param from the first window start not closed yet
 * @param bound the last window start the marker closes
 * @param emitted the rows written so far
 * @param stateRows the state rows the batch leaves: at the marker, less what was purged since
 * @param updated the batch's state rows updated
 * @param dropped the batch's rows dropped as late
 */
record PendingClose(long batchId, Long watermarkMs, int partition, long timestamp, long from, long bound,
                    long emitted, long stateRows, long updated, long dropped) {

    /** This closing after a step that wrote {@code rows} and went on to window start {@code next}. */
    PendingClose stepped(long next, long rows) {
        return new PendingClose(batchId, watermarkMs, partition, timestamp, next, bound, emitted + rows, stateRows, updated, dropped);
    }

    /** This closing's batch, {@code n} state rows fewer. */
    PendingClose purged(long n) {
        return new PendingClose(batchId, watermarkMs, partition, timestamp, from, bound, emitted, stateRows - n, updated, dropped);
    }
}
