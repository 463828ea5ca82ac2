package io.tributary.sink.internal;

/**
 * Where a record of a keyed read came from: what orders the rows of one key within a batch.
 *
 * @param timestamp the record's Kafka timestamp, epoch milliseconds
 * @param tombstoneKey the record key of a tombstone (a record with no value); null for a data record
 */
public record RecordOrigin(int partition, long offset, long timestamp, byte[] tombstoneKey) {
    public boolean isTombstone() {
        return tombstoneKey != null;
    }
}
