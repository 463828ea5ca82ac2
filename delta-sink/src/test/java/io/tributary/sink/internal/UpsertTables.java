package io.tributary.sink.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.schema.Schema;
import io.tributary.settings.Values;
import io.tributary.sink.SinkConfig;
import io.tributary.sink.SinkMode;
import io.tributary.sink.SinkOffsets;
import io.tributary.sink.SinkSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Test helpers: batches as the topic reader gives them, sink configs, and the actions in a table's log. */
final class UpsertTables {
    static final String APP = "tributary-upsert-test";
    private static final ObjectMapper JSON = new ObjectMapper();

    private UpsertTables() {
    }

    /** A sink config whose errors name the keys as a spec writes them ({@code sink.delta.keys}). */
    static SinkConfig config(Path table, Schema schema, SinkMode mode, List<String> keys, String order, int rowsPerFile) {
        Values spec = Values.localized(SinkSettings.ALL, s -> s.under("sink.delta"), key -> null, (s, text, e) -> e);
        return SinkConfig.builder(table.toString(), schema, "events", APP, "test/sink").settings(spec)
                .mode(mode, keys, order).rowsPerFile(rowsPerFile).build();
    }

    static SinkOffsets offsets(long next) {
        return new SinkOffsets(APP, "events", "topic-id-1", Map.of(0, next));
    }

    static Map<Integer, Long> start(long batchId) {
        return batchId == 0 ? Map.of() : Map.of(0, batchId * 100);
    }

    /** Writes batch {@code batchId} (offsets 100 per batch) through {@code mode}. */
    static CommitResult write(WriteMode mode, long batchId, TopicBatch batch) {
        return mode.write(APP, batchId, batch, start(batchId), offsets((batchId + 1) * 100));
    }

    /** Rows on partition 0 in offset order, {@link #tombstone}s among them. */
    private static final Object TOMBSTONE = new Object();

    /** A tombstone with record key {@code key}, for {@link #batch}. */
    static Object[] tombstone(String key) {
        return new Object[] {TOMBSTONE, key};
    }

    static TopicBatch batch(Object[]... rowsOrTombstones) {
        return batchOf(List.of(rowsOrTombstones));
    }

    static TopicBatch batchOf(List<Object[]> items) {
        List<Object[]> rows = new ArrayList<>();
        List<RecordOrigin> origins = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            Object[] o = items.get(i);
            boolean tombstone = o.length == 2 && o[0] == TOMBSTONE;
            rows.add(tombstone ? null : o);
            origins.add(new RecordOrigin(0, i, 1000 + i, tombstone ? ((String) o[1]).getBytes(StandardCharsets.UTF_8) : null));
        }
        return new TopicBatch(rows, Map.of(), Map.of(), 0, origins);
    }

    /** Per version: [adds, removes] counted from {@code _delta_log/N.json}. */
    static int[] addsAndRemoves(Path table, long version) {
        int[] counts = new int[2];
        Path f = table.resolve("_delta_log").resolve(String.format("%020d.json", version));
        try {
            for (String line : Files.readAllLines(f)) {
                JsonNode a = JSON.readTree(line);
                if (a.has("add")) {
                    counts[0]++;
                }
                if (a.has("remove")) {
                    counts[1]++;
                    if (!a.get("remove").path("dataChange").asBoolean()) {
                        throw new AssertionError("remove without dataChange in version " + version + ": " + line);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return counts;
    }

    static JsonNode commitInfo(Path table, long version) {
        Path f = table.resolve("_delta_log").resolve(String.format("%020d.json", version));
        try {
            for (String line : Files.readAllLines(f)) {
                JsonNode a = JSON.readTree(line);
                if (a.has("commitInfo")) {
                    return a.get("commitInfo");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new AssertionError("no commitInfo in version " + version);
    }
}
