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
 * Deletes of keys that a table's rows do not show, each with its sequence and the time of the batch that wrote it,
 * kept in the table's domain metadata in the same commit as the rows (so they are exactly as durable as the deletes):
 * <ul>
 * <li>{@value #MARKERS}: a change-data upsert's ({@link ChangeUpsert}) deleted keys, one marker a key, so that a later
 *     change with a sequence not above it does not bring the key back;</li>
 * <li>{@value #HISTORY}: a history table's ({@link HistoryUpsert}) deletes that end no version (of a key that had no
 *     current version), which still end a version that arrives later with a lower sequence; a key may have several.</li>
 * </ul>
 * As JSON {@code {"deletes": [[{"id": 3, "lsn": 17}, 1733390000000], ...]}}: the key columns and the delete's sequence
 * as in a record value, then the delete's time in epoch milliseconds. One older than the retention is dropped by the
 * next batch that commits.
 */
final class DeleteMarkers {
    static final String MARKERS = "tributary.sink.deletes";
    static final String HISTORY = "tributary.sink.history.deletes";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A delete's sequence and when it was committed. */
    record Marker(Object sequence, long atMillis) {
    }

    private final String domain;
    private final int keyCount;
    private final RowJson json;
    private final Map<Key, List<Marker>> deletes = new HashMap<>();
    private boolean changed;

    private DeleteMarkers(String domain, KeyColumns keys, Field sequence) {
        this.domain = domain;
        List<Field> fields = new ArrayList<>(keys.keySchema().fields());
        fields.add(sequence);
        this.keyCount = keys.keySchema().size();
        this.json = new RowJson(new Schema(fields));
    }

    /** The deletes {@code snapshot} holds in {@code domain} (none without a table). */
    static DeleteMarkers read(Optional<Snapshot> snapshot, String domain, KeyColumns keys, Field sequence) {
        DeleteMarkers out = new DeleteMarkers(domain, keys, sequence);
        Optional<String> stored = snapshot.flatMap(s -> s.getDomainMetadata(domain));
        if (stored.isEmpty()) {
            return out;
        }
        try {
            for (JsonNode entry : JSON.readTree(stored.get()).path("deletes")) {
                Object[] row = out.json.parse(JSON.writeValueAsBytes(entry.get(0)));
                out.deletes.computeIfAbsent(new Key(Arrays.copyOf(row, out.keyCount)), k -> new ArrayList<>())
                        .add(new Marker(row[out.keyCount], entry.get(1).asLong()));
            }
        } catch (IOException | RuntimeException e) {
            throw TableErrors.badDeleteMarkers(snapshot.get().getPath(), snapshot.get().getVersion(), domain, e);
        }
        return out;
    }

    String domain() {
        return domain;
    }

    List<Marker> of(Key key) {
        return deletes.getOrDefault(key, List.of());
    }

    /** The latest delete of {@code key}, or null (a change-data upsert keeps one a key). */
    Marker get(Key key) {
        List<Marker> list = of(key);
        return list.isEmpty() ? null : list.get(list.size() - 1);
    }

    /** Marks {@code key} deleted at {@code sequence}, in place of its earlier marker. */
    void put(Key key, Object sequence, long nowMillis) {
        set(key, List.of(new Marker(sequence, nowMillis)));
    }

    void remove(Key key) {
        set(key, List.of());
    }

    /** Sets {@code key}'s deletes that its rows do not show. */
    void set(Key key, List<Marker> now) {
        List<Marker> before = deletes.getOrDefault(key, List.of());
        if (!before.equals(now)) {
            changed = true;
            if (now.isEmpty()) {
                deletes.remove(key);
            } else {
                deletes.put(key, List.copyOf(now));
            }
        }
    }

    /** Drops the deletes committed before {@code beforeMillis}; returns how many. */
    long expire(long beforeMillis) {
        long dropped = 0;
        for (List<Marker> list : new ArrayList<>(deletes.values())) {
            dropped += list.stream().filter(d -> d.atMillis() < beforeMillis).count();
        }
        if (dropped > 0) {
            changed = true;
            deletes.replaceAll((k, list) -> list.stream().filter(d -> d.atMillis() >= beforeMillis).toList());
            deletes.values().removeIf(List::isEmpty);
        }
        return dropped;
    }

    long size() {
        return deletes.values().stream().mapToLong(List::size).sum();
    }

    /** The domain metadata to commit when the deletes changed; empty otherwise. */
    Optional<String> changedJson() {
        if (!changed) {
            return Optional.empty();
        }
        ObjectNode root = JSON.createObjectNode();
        ArrayNode out = root.putArray("deletes");
        try {
            for (Map.Entry<Key, List<Marker>> e : deletes.entrySet()) {
                for (Marker d : e.getValue()) {
                    Object[] row = Arrays.copyOf(e.getKey().values(), keyCount + 1);
                    row[keyCount] = d.sequence();
                    ArrayNode entry = out.addArray();
                    entry.add(JSON.readTree(json.write(row)));
                    entry.add(d.atMillis());
                }
            }
            return Optional.of(JSON.writeValueAsString(root));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
