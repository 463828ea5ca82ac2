package io.tributary.connect;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The table one uninterrupted run makes of a stream of records, by the documented rules, as tests work it out from their
 * input: flat JSON objects in the order a key's records were sent (one partition per key), e.g.
 * {@code {"op": "u", "id": 14, "v": "n18", "lsn": 18}}.
 */
final class ChangeOracle {
    private ChangeOracle() {
    }

    /** dropDuplicates(id) ({@code docs/connect.md}): per id, the row of its first record, as {@code id|v}. */
    static List<String> firstRowPerKey(List<String> values) {
        Map<String, String> first = new LinkedHashMap<>();
        for (String value : values) {
            Map<String, String> f = fields(value);
            first.putIfAbsent(f.get("id"), f.get("id") + "|" + f.get("v"));
        }
        return new ArrayList<>(first.values());
    }

    /**
     * History (SCD type 2, {@code docs/cdc.md}) of changes {@code op, id, <column>, lsn} with {@code sequenceBy: lsn},
     * {@code deleteWhen: op = 'd'}, {@code exceptColumns: [op]}: of a key's changes with one lsn the first sent counts; each
     * that is not a delete is a version from its lsn to the key's next change's by lsn (null: the current one), as
     * {@code id|<column>|lsn|__START_AT|__END_AT}.
     */
    static List<String> versions(List<String> values, String column) {
        Map<String, TreeMap<Long, Map<String, String>>> byKey = new HashMap<>();
        for (String value : values) {
            Map<String, String> f = fields(value);
            byKey.computeIfAbsent(f.get("id"), k -> new TreeMap<>()).putIfAbsent(Long.parseLong(f.get("lsn")), f);
        }
        List<String> out = new ArrayList<>();
        byKey.values().forEach(changes -> changes.forEach((lsn, f) -> {
            if (!"d".equals(f.get("op"))) {
                out.add(f.get("id") + "|" + f.get(column) + "|" + lsn + "|" + lsn + "|" + changes.higherKey(lsn));
            }
        }));
        return out;
    }

    /** The fields of a flat JSON object of numbers and plain strings, by name. */
    static Map<String, String> fields(String json) {
        String body = json.trim();
        Map<String, String> out = new HashMap<>();
        for (String kv : body.substring(1, body.length() - 1).split(",\\s*")) {
            int colon = kv.indexOf(':');
            out.put(kv.substring(0, colon).trim().replace("\"", ""), kv.substring(colon + 1).trim().replace("\"", ""));
        }
        return out;
    }
}
