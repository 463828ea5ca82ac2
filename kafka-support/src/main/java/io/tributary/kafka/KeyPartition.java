package io.tributary.kafka;

import org.apache.kafka.common.utils.Utils;

/**
 * The partition of an events row with a key ({@code schema}'s {@code GroupKey}: the JSON array of its
 * group-by values): the one Kafka's default partitioner gives that key, so a group's rows share a
 * partition whoever writes them (the file ingest, the Delta source, a Kafka producer of one's own).
 */
public final class KeyPartition {
    private KeyPartition() {
    }

    /** The partition of a record with key {@code key} among {@code partitions}: Kafka's default partitioner's. */
    public static int of(byte[] key, int partitions) {
        return Utils.toPositive(Utils.murmur2(key)) % partitions;
    }
}
