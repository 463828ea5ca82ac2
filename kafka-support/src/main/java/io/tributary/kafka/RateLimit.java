package io.tributary.kafka;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Spark's {@code maxOffsetsPerTrigger}: a batch's end offsets cut so that it spans at most
 * {@code limit} offsets over all partitions, each partition getting a share in proportion to how
 * far it is behind (rounded down, but at least 1 for a partition behind at all), as Spark's
 * {@code KafkaMicroBatchStream.rateLimit} does: the Delta sink's batches and an aggregation's over a Kafka source.
 */
public final class RateLimit {
    private RateLimit() {
    }

    /**
     * @param limit at most this many offsets; 0 or less: {@code end} as it is
     * @param from where each partition stands (a partition missing: 0)
     * @param end each partition's end offset
     */
    public static <K> Map<K, Long> cap(long limit, Map<K, Long> from, Map<K, Long> end) {
        if (limit <= 0) {
            return end;
        }
        Map<K, Long> sizes = new LinkedHashMap<>();
        end.forEach((p, e) -> {
            long size = e - from.getOrDefault(p, 0L);
            if (size > 0) {
                sizes.put(p, size);
            }
        });
        double total = sizes.values().stream().mapToLong(Long::longValue).sum();
        if (total < 1) {
            return end;
        }
        Map<K, Long> capped = new LinkedHashMap<>();
        end.forEach((p, e) -> {
            Long size = sizes.get(p);
            if (size == null) {
                capped.put(p, e);
                return;
            }
            long begin = from.getOrDefault(p, 0L);
            double prorate = limit * (size / total);
            long share = (long) (prorate < 1 ? Math.ceil(prorate) : Math.floor(prorate)); // a small partition is not starved
            capped.put(p, share > Long.MAX_VALUE - begin ? e : Math.min(e, begin + share));
        });
        return capped;
    }
}
