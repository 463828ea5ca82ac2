package io.tributary.ingest.internal;

import io.tributary.kafka.KeyPartition;
import io.tributary.schema.GroupKey;
import io.tributary.schema.RowBinary;
import io.tributary.schema.RowJson;
import io.tributary.schema.RowPack;

/**
 * A file's rows packed into events records ({@link RowPack}), one pack per partition of the events topic:
 * with group-by columns a row goes to the partition Kafka's default partitioner gives its {@link GroupKey key},
 * so a group's rows share a partition and keep their order; without, each record (and each file) starts on
 * the next partition in turn. Rows are packed as JSON Lines, or in binary ({@link RowBinary}) when given one.
 */
final class EventPacks {
    private final RowJson rows;
    private final RowBinary binary;
    private final GroupKey keys;
    private final int rowsPerRecord;
    private RowPack[] packs = new RowPack[0];
    private int nextPartition;

    /** @param binary the binary form of {@code rows}' schema, or null for JSON Lines */
    EventPacks(RowJson rows, RowBinary binary, GroupKey keys, int rowsPerRecord) {
        this.rows = rows;
        this.binary = binary;
        this.keys = keys;
        this.rowsPerRecord = rowsPerRecord;
    }

    /** At a file's start: packs for {@code partitions} partitions, emptied of a failed publishing's rows (its transaction since aborted). */
    void start(int partitions) {
        if (packs.length != partitions) {
            packs = new RowPack[partitions];
        }
        for (RowPack pack : packs) {
            if (pack != null) {
                pack.clear();
            }
        }
    }

    void add(Object[] row, long timestampMs, FilePublisher.Out out) {
        byte[] key = packs.length == 1 ? null : keys.key(row); // one partition: no key to place the row by
        int p = key == null ? nextPartition : KeyPartition.of(key, packs.length);
        RowPack pack = packs[p];
        if (pack == null) {
            pack = packs[p] = new RowPack(Math.min(RowPack.MAX_BYTES, 128 * rowsPerRecord), binary);
        }
        pack.add(rows, row, timestampMs);
        if (pack.full(rowsPerRecord)) {
            flush(p, out);
            if (key == null) {
                nextPartition = (nextPartition + 1) % packs.length;
            }
        }
    }

    /** At a file's end: every pack's rows to {@code out}; the next file starts on the next partition. */
    void finish(FilePublisher.Out out) {
        for (int p = 0; p < packs.length; p++) {
            flush(p, out);
        }
        nextPartition = (nextPartition + 1) % packs.length; // small files without a key spread over the partitions too
    }

    private void flush(int partition, FilePublisher.Out out) {
        RowPack pack = packs[partition];
        if (pack != null && pack.rows() > 0) {
            Long timestamp = pack.timestamp();
            out.event(partition, timestamp, pack.take());
        }
    }
}
