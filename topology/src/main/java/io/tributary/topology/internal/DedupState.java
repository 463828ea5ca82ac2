package io.tributary.topology.internal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The keys a deduplication task has seen, each with the time (event-time microseconds) at which the
 * watermark evicts it ({@link Long#MAX_VALUE}: never): a row's key and one long, as Spark keeps.
 *
 * <p>The store (RocksDB, changelogged) is the durable copy. New keys wait in memory until the next
 * commit of the task writes them there ({@link #flush}, run by the {@link CommitHook}), so a key seen
 * many times in a batch is written once. While every key of the state fits in {@code budgetBytes},
 * they are all held in memory too, and a row's lookup never reaches RocksDB; past it the memory copy
 * is dropped and lookups go to the store (state kept forever outgrows any heap).
 */
final class DedupState {
    /** The heap one key takes in the maps, estimated: the map's entry, Bytes, its array and the boxed long. */
    private static final long ENTRY_BYTES = 112;

    private final KeyValueStore<Bytes, byte[]> store;
    private final long budgetBytes;
    /** Every key in state, while they fit the budget; null once they did not. */
    private Map<Bytes, Long> all;
    /** Keys added since the last flush, not yet in the store. */
    private final Map<Bytes, Long> pending = new HashMap<>();
    /** No key evicts before this: a watermark below it evicts nothing, and the scan is skipped. */
    private long earliestEviction = Long.MIN_VALUE;

    DedupState(KeyValueStore<Bytes, byte[]> store, long budgetBytes) {
        this.store = store;
        this.budgetBytes = budgetBytes;
        if (store.approximateNumEntries() * ENTRY_BYTES <= budgetBytes) {
            Map<Bytes, Long> loaded = new HashMap<>();
            long earliest = Long.MAX_VALUE;
            try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
                while (it.hasNext() && loaded.size() * ENTRY_BYTES <= budgetBytes) {
                    KeyValue<Bytes, byte[]> kv = it.next();
                    long at = decode(kv.value);
                    loaded.put(kv.key, at);
                    earliest = Math.min(earliest, at);
                }
                if (!it.hasNext()) {
                    all = loaded;
                    earliestEviction = earliest;
                }
            }
        }
    }

    /** True when {@code key} is in state: a row with it is a duplicate. */
    boolean contains(Bytes key) {
        if (all != null) {
            return all.containsKey(key);
        }
        return pending.containsKey(key) || store.get(key) != null;
    }

    /** Adds a key not in state, evicted once the watermark reaches {@code evictAt}. */
    void add(Bytes key, long evictAt) {
        pending.put(key, evictAt);
        earliestEviction = Math.min(earliestEviction, evictAt);
        if (all != null) {
            all.put(key, evictAt);
            if (all.size() * ENTRY_BYTES > budgetBytes) {
                all = null; // from now on the store answers; the pending keys reach it at the next flush
            }
        }
    }

    /** True when the keys waiting for the store take more than a quarter of the budget: flush and commit. */
    boolean overBudget() {
        return all == null && pending.size() * ENTRY_BYTES > budgetBytes / 4;
    }

    /** Removes every key the watermark {@code watermarkMicros} evicts (its time at or before it); returns how many. */
    long evict(long watermarkMicros) {
        if (watermarkMicros < earliestEviction) {
            return 0;
        }
        long removed = 0;
        long earliest = Long.MAX_VALUE;
        if (all != null) {
            for (Iterator<Map.Entry<Bytes, Long>> it = all.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<Bytes, Long> e = it.next();
                if (e.getValue() <= watermarkMicros) {
                    it.remove();
                    if (pending.remove(e.getKey()) == null) {
                        store.delete(e.getKey());
                    }
                    removed++;
                } else {
                    earliest = Math.min(earliest, e.getValue());
                }
            }
            earliestEviction = earliest;
            return removed;
        }
        for (Iterator<Map.Entry<Bytes, Long>> it = pending.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Bytes, Long> e = it.next();
            if (e.getValue() <= watermarkMicros) {
                it.remove();
                removed++;
            } else {
                earliest = Math.min(earliest, e.getValue());
            }
        }
        List<Bytes> gone = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                long at = decode(kv.value);
                if (at <= watermarkMicros) {
                    gone.add(kv.key);
                } else {
                    earliest = Math.min(earliest, at);
                }
            }
        }
        gone.forEach(store::delete);
        earliestEviction = earliest;
        return removed + gone.size();
    }

    /** Writes the keys added since the last flush into the store (and its changelog). */
    void flush() {
        if (pending.isEmpty()) {
            return;
        }
        List<KeyValue<Bytes, byte[]>> entries = new ArrayList<>(pending.size());
        pending.forEach((k, at) -> entries.add(KeyValue.pair(k, encode(at))));
        store.putAll(entries);
        pending.clear();
    }

    private static byte[] encode(long v) {
        return ByteBuffer.allocate(Long.BYTES).putLong(v).array();
    }

    private static long decode(byte[] b) {
        return ByteBuffer.wrap(b).getLong();
    }
}
