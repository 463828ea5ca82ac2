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
 * The deletes of a history table ({@link HistoryUpsert}) that its rows do not show: a delete shows as the
 * {@code __END_AT} of the version it closed, but a delete of a key that had no current version (absent, or
 * deleted already) closes nothing, and still ends a version that arrives later with a lower sequence. They
 * live in the table's domain metadata {@value #DOMAIN}, in the same commit as the rows, as JSON
 * {@code {"deletes": [[{"id": 3, "lsn": 17}, 1733390000000], ...]}}: the key columns and the delete's
 * sequence, then the time of the batch that wrote it, in epoch milliseconds; a key may have several. One
 * older than the retention is dropped by the next batch that commits.
 */
final class HistoryDeletes {
    static final String DOMAIN = "tributary.sink.history.deletes";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A delete's sequence and when it was committed. */
    record Delete(Object sequence, long atMillis) {
    }

    private final int keyCount;
    private final RowJson json;
    private final Map<Key, List<Delete>> deletes = new HashMap<>();
    private boolean changed;

    private HistoryDeletes(KeyColumns keys, Field sequence) {
        List<Field> fields = new ArrayList<>(keys.keySchema().fields());
        fields.add(sequence);
        this.keyCount = keys.keySchema().size();
        this.json = new RowJson(new Schema(fields));
    }

    /** The deletes {@code snapshot} holds (none without a table). */
    static HistoryDeletes read(Optional<Snapshot> snapshot, KeyColumns keys, Field sequence) {
        HistoryDeletes out = new HistoryDeletes(keys, sequence);
        Optional<String> stored = snapshot.flatMap(s -> s.getDomainMetadata(DOMAIN));
        if (stored.isEmpty()) {
            return out;
        }
        try {
            for (JsonNode entry : JSON.readTree(stored.get()).path("deletes")) {
                Object[] row = out.json.parse(JSON.writeValueAsBytes(entry.get(0)));
                out.deletes.computeIfAbsent(new Key(Arrays.copyOf(row, out.keyCount)), k -> new ArrayList<>())
                        .add(new Delete(row[out.keyCount], entry.get(1).asLong()));
            }
        } catch (IOException | RuntimeException e) {
            throw TableErrors.badDeleteMarkers(snapshot.get().getPath(), snapshot.get().getVersion(), DOMAIN, e);
        }
        return out;
    }

    List<Delete> of(Key key) {
        return deletes.getOrDefault(key, List.of());
    }

    /** Sets {@code key}'s deletes that its rows do not show. */
    void set(Key key, List<Delete> now) {
        List<Delete> before = deletes.getOrDefault(key, List.of());
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
        for (List<Delete> list : new ArrayList<>(deletes.values())) {
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
            for (Map.Entry<Key, List<Delete>> e : deletes.entrySet()) {
                for (Delete d : e.getValue()) {
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
