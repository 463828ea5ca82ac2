package io.tributary.topology.internal;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueStore;

/** Puts into a store a chunk of entries at a time ({@code putAll}), then the rest at {@link #finish()}. */
final class ChunkedPuts {
    private final KeyValueStore<Bytes, byte[]> store;
    private final int chunk;
    private final List<KeyValue<Bytes, byte[]>> batch = new ArrayList<>();

    ChunkedPuts(KeyValueStore<Bytes, byte[]> store, int chunk) {
        this.store = store;
        this.chunk = chunk;
    }

    /** Puts {@code value} under {@code key}, or deletes the key when {@code value} is null. */
    void put(Bytes key, byte[] value) {
        batch.add(KeyValue.pair(key, value));
        if (batch.size() == chunk) {
            finish();
        }
    }

    void finish() {
        if (!batch.isEmpty()) {
            store.putAll(batch);
            batch.clear();
        }
    }
}
