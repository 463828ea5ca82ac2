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
 * many times in a batch is written once, and a key the watermark evicts before a commit never is.
 * While every key of the state fits in {@code budgetBytes}, they are all held in memory too (a
 * {@link KeyTable}: a few arrays, not an object per key), and a row's lookup never reaches RocksDB;
 * past it the memory copy is dropped and lookups go to the store (state kept forever outgrows any heap).
 */
final class DedupState {
    /** The heap one key waiting for the store takes in store mode, estimated: the map's entry, Bytes, its array and the boxed long. */
    private static final long PENDING_ENTRY_BYTES = 112;

    private final KeyValueStore<Bytes, byte[]> store;
    private final long budgetBytes;
    /** Every key in state, while they fit the budget; null once they did not. */
    private KeyTable all;
    /** Store mode: keys added since the last flush, not yet in the store. */
    private final Map<Bytes, Long> pending = new HashMap<>();
    /** No key evicts before this: a watermark below it evicts nothing, and the scan is skipped. */
    private long earliestEviction = Long.MIN_VALUE;

    DedupState(KeyValueStore<Bytes, byte[]> store, long budgetBytes) {
        this.store = store;
        this.budgetBytes = budgetBytes;
        KeyTable loaded = new KeyTable();
        long earliest = Long.MAX_VALUE;
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            while (it.hasNext() && loaded.bytes() <= budgetBytes) {
                KeyValue<Bytes, byte[]> kv = it.next();
                long at = decode(kv.value);
                loaded.add(kv.key.get(), at, KeyTable.STORED);
                earliest = Math.min(earliest, at);
            }
            if (!it.hasNext()) {
                all = loaded;
                earliestEviction = earliest;
            }
        }
    }

    /** True when {@code key} is in state: a row with it is a duplicate. */
    boolean contains(Bytes key) {
        if (all != null) {
            return all.find(key.get()) >= 0;
        }
        return pending.containsKey(key) || store.get(key) != null;
    }

    /** Adds a key not in state, evicted once the watermark reaches {@code evictAt}. */
    void add(Bytes key, long evictAt) {
        earliestEviction = Math.min(earliestEviction, evictAt);
        if (all == null) {
            pending.put(key, evictAt);
            return;
        }
        all.add(key.get(), evictAt, KeyTable.UNSTORED);
        if (all.bytes() > budgetBytes) {
            // from now on the store answers; the keys not in it yet wait for the next flush
            for (int e = 0; e < all.entries(); e++) {
                if (all.state(e) == KeyTable.UNSTORED) {
                    pending.put(Bytes.wrap(all.key(e)), all.value(e));
                }
            }
            all = null;
        }
    }

    /** True when the keys waiting for the store take more than a quarter of the budget: flush and commit. */
    boolean overBudget() {
        return all == null && pending.size() * PENDING_ENTRY_BYTES > budgetBytes / 4;
    }

    /** Removes every key the watermark {@code watermarkMicros} evicts (its time at or before it); returns how many. */
    long evict(long watermarkMicros) {
        if (watermarkMicros < earliestEviction) {
            return 0;
        }
        long removed = 0;
        long earliest = Long.MAX_VALUE;
        if (all != null) {
            for (int e = 0; e < all.entries(); e++) {
                byte s = all.state(e);
                if (s == KeyTable.REMOVED) {
                    continue;
                }
                if (all.value(e) <= watermarkMicros) {
                    if (s == KeyTable.STORED) {
                        store.delete(Bytes.wrap(all.key(e)));
                    }
                    all.state(e, KeyTable.REMOVED);
                    removed++;
                } else {
                    earliest = Math.min(earliest, all.value(e));
                }
            }
            if (removed > 0) {
                all.compact();
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
        List<KeyValue<Bytes, byte[]>> entries = new ArrayList<>();
        if (all != null) {
            for (int e = 0; e < all.entries(); e++) {
                if (all.state(e) == KeyTable.UNSTORED) {
                    entries.add(KeyValue.pair(Bytes.wrap(all.key(e)), encode(all.value(e))));
                    all.state(e, KeyTable.STORED);
                }
            }
        } else {
            pending.forEach((k, at) -> entries.add(KeyValue.pair(k, encode(at))));
            pending.clear();
        }
        if (!entries.isEmpty()) {
            store.putAll(entries);
        }
    }

    private static byte[] encode(long v) {
        return ByteBuffer.allocate(Long.BYTES).putLong(v).array();
    }

    private static long decode(byte[] b) {
        return ByteBuffer.wrap(b).getLong();
    }
}
