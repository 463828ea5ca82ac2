package io.tributary.service.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.settings.Setting;
import io.tributary.service.spec.Settings;
import io.tributary.storage.SecretKeys;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The settings that define a pipeline's output (every declared setting but
 * {@link Settings#PER_INSTANCE}), with the values a spec gives them: defaults included, paths
 * resolved to locations, the keys below a map setting one by one, secrets as a hash. The
 * instances of a pipeline compare theirs with the one recorded in Kafka ({@link PipelineRegistry}).
 *
 * @param values defining key to value; a key without a value is left out
 * @param covers the declared defining settings of the version that made it: a setting one side
 *        does not know is not compared
 */
record SpecFingerprint(Map<String, String> values, Set<String> covers) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String HASHED = "sha256:";

    SpecFingerprint {
        values = java.util.Collections.unmodifiableMap(new TreeMap<>(values));
        covers = java.util.Collections.unmodifiableSet(new TreeSet<>(covers));
    }

    /** The fingerprint of {@code spec}. */
    static SpecFingerprint of(PipelineSpec spec) {
        return of(spec, false);
    }

    /** The fingerprint of {@code spec} over every declared setting, {@link Settings#PER_INSTANCE} ones included. */
    static SpecFingerprint everySetting(PipelineSpec spec) {
        return of(spec, true);
    }

    private static SpecFingerprint of(PipelineSpec spec, boolean perInstanceToo) {
        Map<String, String> values = new TreeMap<>();
        Set<String> covers = new TreeSet<>();
        for (Setting<?> s : Settings.ALL) {
            if (!perInstanceToo && Settings.PER_INSTANCE.contains(s.key())) {
                continue;
            }
            covers.add(s.key());
            if (s.isPrefix()) {
                spec.map(s.key()).forEach((k, v) -> put(values, s.key() + "." + k, v));
            } else if (s.kind() == Setting.Kind.LIST) {
                put(values, s.key(), spec.has(s.key()) ? String.join(", ", spec.list(s.key())) : null);
            } else {
                put(values, s.key(), s.kind() == Setting.Kind.PATH || s.kind() == Setting.Kind.FILE ? spec.location(s.key()) : spec.string(s.key()));
            }
        }
        return new SpecFingerprint(values, covers);
    }

    private static void put(Map<String, String> values, String key, String value) {
        if (value == null) {
            return;
        }
        String v = value.strip();
        values.put(key, SecretKeys.isSecret(key) ? HASHED + sha256(v) : v);
    }

    /** One setting whose value differs; {@code recorded} or {@code given} null when that side does not set it. */
    record Difference(String key, String recorded, String given) {
        @Override
        public String toString() {
            return key + " (" + shown(recorded) + " there, " + shown(given) + " here)";
        }

        private static String shown(String v) {
            return v == null ? "not set" : v.startsWith(HASHED) ? "******" : "'" + v + "'";
        }
    }

    /** The settings whose values differ between {@code recorded} and this, among those both cover; in key order. */
    List<Difference> differences(SpecFingerprint recorded) {
        Set<String> keys = new TreeSet<>(values.keySet());
        keys.addAll(recorded.values.keySet());
        List<Difference> out = new ArrayList<>();
        for (String k : keys) {
            Setting<?> s = Settings.find(k);
            String declared = s == null ? k : s.key();
            if (!covers.contains(declared) || !recorded.covers.contains(declared)) {
                continue;
            }
            String mine = values.get(k);
            String theirs = recorded.values.get(k);
            if (!java.util.Objects.equals(mine, theirs)) {
                out.add(new Difference(k, theirs, mine));
            }
        }
        return out;
    }

    /** The record's value: {@code {"settings":{...},"covers":[...],"instance":..,"recordedAt":..}}. */
    String toJson(String instance) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode settings = root.putObject("settings");
        values.forEach(settings::put);
        covers.forEach(root.putArray("covers")::add);
        root.put("instance", instance);
        root.put("recordedAt", java.time.Instant.now().toString());
        return root.toString();
    }

    /** Reads what {@link #toJson} wrote; {@code topic} names the record in an error. */
    static SpecFingerprint parse(String json, String topic) {
        try {
            JsonNode root = JSON.readTree(json);
            Map<String, String> values = new TreeMap<>();
            root.path("settings").properties().forEach(e -> values.put(e.getKey(), e.getValue().asText()));
            Set<String> covers = new TreeSet<>();
            root.path("covers").forEach(n -> covers.add(n.asText()));
            return new SpecFingerprint(values, covers);
        } catch (java.io.IOException | RuntimeException e) {
            throw ServiceErrors.notPipelineSettings(topic, json, e);
        }
    }

    /** One SHA-256 over every key and value: equal for equal fingerprints. */
    String hash() {
        StringBuilder all = new StringBuilder();
        values.forEach((k, v) -> all.append(k).append('\0').append(v).append('\0'));
        return sha256(all.toString());
    }

    private static String sha256(String v) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(v.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
