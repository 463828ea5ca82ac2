package io.tributary.sink.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.delta.kernel.Snapshot;
import io.tributary.schema.Field;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The keys a change-data upsert deleted, each with the sequence of its delete and the time of the
 * batch that deleted it, so that a later change with a sequence not above it does not bring the
 * key back. They live in the table's domain metadata {@value #DOMAIN}, written in the same commit
 * as the batch's rows (so they are exactly as durable as the deletes), as JSON:
 * {@code {"deletes": [[{"id": 3, "lsn": 17}, 1733390000000], ...]}}: the key columns and the
 * sequence column as in a record value, then the delete's time in epoch milliseconds. A marker
 * older than the retention is dropped by the next batch that commits.
 */
final class DeleteMarkers {
    static final String DOMAIN = "tributary.sink.deletes";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A deleted key's sequence and when its delete was committed. */
    record Marker(Object sequence, long deletedAtMillis) {
    }

    private final int keyCount;
    private final RowJson json;
    private final Map<Key, Marker> markers;
    private boolean changed;

    private DeleteMarkers(KeyColumns keys, Field sequence, Map<Key, Marker> markers) {
        List<Field> fields = new ArrayList<>(keys.keySchema().fields());
        fields.add(sequence);
        this.keyCount = keys.keySchema().size();
        this.json = new RowJson(new Schema(fields));
        this.markers = markers;
    }

    /** The markers {@code snapshot} holds (none without a table or without deletes yet). */
    static DeleteMarkers read(Optional<Snapshot> snapshot, KeyColumns keys, Field sequence) {
        DeleteMarkers out = new DeleteMarkers(keys, sequence, new HashMap<>());
        Optional<String> stored = snapshot.flatMap(s -> s.getDomainMetadata(DOMAIN));
        if (stored.isEmpty()) {
            return out;
        }
        try {
            for (JsonNode entry : JSON.readTree(stored.get()).path("deletes")) {
                Object[] row = out.json.parse(JSON.writeValueAsBytes(entry.get(0)));
                out.markers.put(new Key(Arrays.copyOf(row, out.keyCount)), new Marker(row[out.keyCount], entry.get(1).asLong()));
            }
        } catch (IOException | RuntimeException e) {
            throw TableErrors.badDeleteMarkers(snapshot.get().getPath(), snapshot.get().getVersion(), DOMAIN, e);
        }
        return out;
    }

    Marker get(Key key) {
        return markers.get(key);
    }

    void put(Key key, Object sequence, long nowMillis) {
        markers.put(key, new Marker(sequence, nowMillis));
        changed = true;
    }

    void remove(Key key) {
        changed |= markers.remove(key) != null;
    }

    /** Drops the markers of deletes committed before {@code beforeMillis}; returns how many. */
    long expire(long beforeMillis) {
        int size = markers.size();
        markers.values().removeIf(m -> m.deletedAtMillis() < beforeMillis);
        changed |= markers.size() != size;
        return size - markers.size();
    }

    int size() {
        return markers.size();
    }

    /** The domain metadata to commit when the markers changed; empty otherwise. */
    Optional<String> changedJson() {
        if (!changed) {
            return Optional.empty();
        }
        ObjectNode root = JSON.createObjectNode();
        ArrayNode deletes = root.putArray("deletes");
        try {
            for (Map.Entry<Key, Marker> e : markers.entrySet()) {
                Object[] row = Arrays.copyOf(e.getKey().values(), keyCount + 1);
                row[keyCount] = e.getValue().sequence();
                ArrayNode entry = deletes.addArray();
                entry.add(JSON.readTree(json.write(row)));
                entry.add(e.getValue().deletedAtMillis());
            }
            return Optional.of(JSON.writeValueAsString(root));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
