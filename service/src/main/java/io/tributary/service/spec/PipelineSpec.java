package io.tributary.service.spec;

import io.tributary.schema.TributaryException;
import io.tributary.service.spec.internal.SpecErrors;
import io.tributary.service.spec.internal.SpecYaml;
import io.tributary.settings.Setting;
import io.tributary.settings.Values;
import io.tributary.storage.SecretKeys;
import io.tributary.storage.Storage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A pipeline spec: the YAML file, then environment variables ({@code TRIBUTARY_SOURCE_FILES_PATH}),
 * then {@code --set key=value}, each overriding the one before. Every key is checked against
 * {@link Settings}: an unknown key, a missing required key or a bad value is an error naming where
 * it was given (the spec's line, the environment variable or the {@code --set} option), the key
 * and the fix. Keys keep the spec's order. Relative paths resolve against the spec's folder.
 */
public final class PipelineSpec {
    private final Path specFile;
    private final Map<String, String> values;
    private final Map<String, String> origins;

    private PipelineSpec(Path specFile, Map<String, String> values, Map<String, String> origins) {
        this.specFile = specFile;
        this.values = values;
        this.origins = origins;
    }

    /** Loads and validates a spec; {@code env} is usually {@code System.getenv()}. */
    public static PipelineSpec load(Path specFile, Map<String, String> env, Map<String, String> overrides) {
        String specName = specFile.toAbsolutePath().normalize().toString();
        byte[] yaml;
        try {
            yaml = Files.readAllBytes(specFile);
        } catch (java.nio.file.NoSuchFileException e) {
            throw SpecErrors.noSuchSpec(specName);
        } catch (IOException e) {
            throw SpecErrors.cannotReadSpec(specName, e.getMessage());
        }
        Map<String, String> values = new LinkedHashMap<>();
        Map<String, String> origins = new HashMap<>();
        SpecYaml.read(specName, yaml).forEach((key, entry) -> {
            if (entry.value() != null) {
                values.put(key, entry.value());
                origins.put(key, "spec " + specName + " line " + entry.line());
            }
        });
        normalizeTrigger(values, origins); // before the overrides, so that --trigger beats the YAML's trigger mapping
        for (Map.Entry<String, String> e : new TreeMap<>(env).entrySet()) {
            String key = SpecKeys.fromEnv(e.getKey());
            if (key != null) {
                values.put(key, e.getValue());
                origins.put(key, "environment variable " + e.getKey());
            } else if (e.getKey().startsWith("TRIBUTARY_") && !Settings.NOT_KEYS.containsKey(e.getKey())) {
                throw SpecKeys.unknownVariable(e.getKey());
            }
        }
        for (Map.Entry<String, String> e : overrides.entrySet()) {
            values.put(e.getKey(), e.getValue());
            origins.put(e.getKey(), e.getKey().equals(Settings.TRIGGER_KEY) ? "--trigger" : "--set " + e.getKey());
        }
        normalizeTrigger(values, origins);
        SqlAggregationSpec.expand(values, origins);
        PipelineSpec spec = new PipelineSpec(Path.of(specName), values, origins);
        spec.validate();
        return spec;
    }

    private static void normalizeTrigger(Map<String, String> values, Map<String, String> origins) {
        String pt = values.remove("trigger.processingTime");
        if (pt != null) {
            values.put(Settings.TRIGGER_KEY, "processingTime=" + pt);
            origins.put(Settings.TRIGGER_KEY, origins.get("trigger.processingTime"));
        }
        for (String k : List.of("availableNow", "once")) {
            String v = values.remove("trigger." + k);
            if (v != null && Boolean.parseBoolean(v)) {
                values.put(Settings.TRIGGER_KEY, k);
                origins.put(Settings.TRIGGER_KEY, origins.get("trigger." + k));
            }
        }
    }

    private void validate() {
        for (String key : values.keySet()) {
            if (Settings.find(key) == null) {
                throw SpecErrors.unknownKey(where(key), key, SpecKeys.closest(key));
            }
        }
        for (Setting<?> s : Settings.ALL) {
            String v = values.get(s.key());
            if (v == null) {
                if (s.isRequired()) {
                    throw SpecErrors.missingKey(specFile, s.key(), s.doc());
                }
                continue;
            }
            if (!s.isPrefix()) {
                parsed(s.key());
                if (s.kind() == Setting.Kind.PATH) {
                    checkFolder(s.key());
                }
            }
        }
        KafkaTimeouts.check(values, this::where);
        boolean files = values.containsKey(Settings.FILES_PATH);
        boolean delta = values.containsKey(Settings.DELTA_PATH);
        boolean kafka = Settings.kafkaSource(values::containsKey);
        int sources = (files ? 1 : 0) + (delta ? 1 : 0) + (kafka ? 1 : 0);
        if (sources != 1) {
            throw SpecErrors.notOneSource(specFile, sources > 1);
        }
        if (kafka) {
            KafkaSourceChecks.check(this, this::where);
        }
        for (String key : values.keySet()) {
            boolean transformKey = key.startsWith(Settings.TRANSFORM + ".") && !key.equals(Settings.TRANSFORM_JOIN_MAX_ROWS);
            if (transformKey && values.containsKey(Settings.SQL)) {
                throw SpecErrors.sqlWithTransform(where(key), key, where(Settings.SQL));
            }
        }
        checkDropDuplicates();
        if (files && values.containsKey(Settings.SCHEMA_HINTS) && values.containsKey(Settings.FILES_SCHEMA)) {
            throw SpecErrors.hintsWithSchema(where(Settings.SCHEMA_HINTS), Settings.SCHEMA_HINTS);
        }
        if (delta && values.containsKey(Settings.CLOSE_IDLE)) {
            throw SpecErrors.closeIdleWithDeltaSource(where(Settings.CLOSE_IDLE), Settings.CLOSE_IDLE);
        }
        if (kafka && values.containsKey(Settings.CLOSE_IDLE) && Settings.TRANSFORM_DEDUP.stream().anyMatch(values::containsKey)
                && !(has(Settings.DEDUP_EVENT_TIME) && (has(Settings.DEDUP_WATERMARK) || has(Settings.DEDUP_WITHIN_WATERMARK)))) {
            // the deduplication's watermark is the one the aggregation after it closes its windows by
            throw SpecErrors.closeIdleWithoutDedupWatermark(where(Settings.CLOSE_IDLE), Settings.CLOSE_IDLE, Settings.DEDUP_EVENT_TIME,
                    Settings.DEDUP_WATERMARK, Settings.DEDUP_WITHIN_WATERMARK);
        }
        if (files && "addNewColumns".equals(schemaEvolution()) && !bool(Settings.SINK_MERGE_SCHEMA)
                && Settings.ALL.stream().noneMatch(s -> s.key().startsWith("aggregate.") && values.containsKey(s.key()))) {
            throw SpecErrors.addNewColumnsWithoutMergeSchema(where(Settings.SCHEMA_EVOLUTION), has(Settings.SCHEMA_EVOLUTION),
                    Settings.SCHEMA_EVOLUTION);
        }
        if (kafka && "addNewColumns".equals(string(Settings.KAFKA_SCHEMA_EVOLUTION)) && !bool(Settings.SINK_MERGE_SCHEMA)) {
            throw SpecErrors.addNewColumnsWithoutMergeSchema(where(Settings.KAFKA_SCHEMA_EVOLUTION), true, Settings.KAFKA_SCHEMA_EVOLUTION);
        }
        if (!name().matches("[A-Za-z0-9_-]+")) {
            throw SpecErrors.badName(where(Settings.NAME), name());
        }
        if (has(Settings.INSTANCE_ID) && !string(Settings.INSTANCE_ID).matches("[A-Za-z0-9._-]{1,100}")) {
            throw SpecErrors.badInstanceId(where(Settings.INSTANCE_ID), Settings.INSTANCE_ID, string(Settings.INSTANCE_ID));
        }
    }

    /**
     * {@code transform.dropDuplicates} runs over the rows of any source, into a table of them or before an aggregation;
     * not into an upsert yet.
     */
    private void checkDropDuplicates() {
        String dedup = Settings.TRANSFORM_DEDUP.stream().filter(values::containsKey).findFirst().orElse(null);
        if (dedup == null) {
            return;
        }
        String aggregate = Settings.ALL.stream().map(Setting::key)
                .filter(k -> k.startsWith(Settings.AGGREGATE + ".") && !k.equals(Settings.STANDBY_REPLICAS) && values.containsKey(k))
                .findFirst().orElse(null);
        if (aggregate != null) {
            DedupChecks.beforeAggregation(this, dedup, this::where);
        }
        if ("upsert".equals(values.get(Settings.SINK_MODE))) {
            throw SpecErrors.dropDuplicatesIntoUpsert(where(dedup), dedup, Settings.SINK_MODE);
        }
    }

    /** Every PATH setting names a folder: a file there is refused before anything starts. */
    private void checkFolder(String key) {
        if (Storage.scheme(string(key).strip()) != null) {
            return; // a URI: object storage is checked when the pipeline opens (StorageChecks)
        }
        Path p = path(key);
        if (Files.exists(p) && !Files.isDirectory(p)) {
            throw SpecErrors.pathIsAFile(where(key), key, p);
        }
    }

    /** Where a key's value was given: the spec and its line, an environment variable, or a --set option. */
    /** Where {@code key} was given: {@code spec FILE line N}, an environment variable, {@code --set KEY}. */
    public String origin(String key) {
        return where(key);
    }

    private String where(String key) {
        return origins.getOrDefault(key, "spec " + specFile);
    }

    /**
     * {@code source.files.schemaEvolution}, or its default: Auto Loader's, {@code addNewColumns} for JSON files without a
     * schema, else {@code none}.
     */
    public String schemaEvolution() {
        if (has(Settings.SCHEMA_EVOLUTION)) {
            return string(Settings.SCHEMA_EVOLUTION);
        }
        return !has(Settings.FILES_SCHEMA) && "json".equals(string(Settings.FILES_FORMAT)) && !singleVariantColumn() ? "addNewColumns" : "none";
    }

    /** True when the file source reads each whole record as one VARIANT column ({@code source.files.options.singleVariantColumn}). */
    public boolean singleVariantColumn() {
        return map(Settings.FILES_OPTIONS).keySet().stream().anyMatch(k -> k.equalsIgnoreCase("singleVariantColumn"));
    }

    public Path specFile() {
        return specFile;
    }

    public String name() {
        return values.get(Settings.NAME);
    }

    /** The value, or the declared default, or null; one of an enumeration's values as declared, in any case given. */
    public String string(String key) {
        String v = values.get(key);
        Setting<?> s = Settings.get(key);
        if (v == null) {
            return s == null ? null : s.defaultValue();
        }
        if (s != null && s.kind() == Setting.Kind.ENUM) {
            return s.allowed().stream().filter(a -> a.equalsIgnoreCase(v.strip())).findFirst().orElse(v);
        }
        return v;
    }

    /** The value of a declared key (or its default) as its definition parses it; null when neither is given. */
    private Object parsed(String key) {
        String v = string(key);
        if (v == null) {
            return null;
        }
        try {
            return Settings.get(key).parse(key, v);
        } catch (TributaryException e) {
            throw framed(key, e);
        }
    }

    /** {@code e}, led by where the key's value was given. */
    private TributaryException framed(String key, TributaryException e) {
        return e.getMessage().startsWith(where(key)) ? e : SpecErrors.badValue(where(key), e);
    }

    /**
     * The values of a stage's settings as this spec gives them: {@code definitions} by the stage's
     * own names, each placed under a key of this spec. Paths resolve against the spec's folder; a
     * bad value is named by its key and where it was given.
     */
    public Values values(Map<String, Setting<?>> definitions) {
        return new Values(definitions, s -> s.kind() == Setting.Kind.PATH || s.kind() == Setting.Kind.FILE ? location(s.key())
                : values.get(s.key()),
                s -> map(s.key()), (s, text, e) -> framed(s.key(), e));
    }

    /** The values of the stage settings {@code definitions}, written under {@code prefix} ({@code source.files}). */
    public Values values(String prefix, List<Setting<?>> definitions) {
        Map<String, Setting<?>> placed = new LinkedHashMap<>();
        definitions.forEach(s -> placed.put(s.key(), s.under(prefix)));
        return values(placed);
    }

    public boolean has(String key) {
        return values.containsKey(key);
    }

    /**
     * A path setting as a location: a URI ({@code s3a://bucket/folder/}, {@code file:/...})
     * unchanged, a plain path resolved against the spec's folder.
     */
    public String location(String key) {
        String v = string(key);
        if (v == null) {
            return null;
        }
        return Storage.scheme(v.strip()) != null ? v.strip() : path(key).toString();
    }

    /** The {@code storage:} settings, for the file systems of the spec's paths. */
    public Storage storage() {
        return Storage.of(map(Settings.STORAGE));
    }

    /** A path setting, resolved against the spec's folder. */
    public Path path(String key) {
        String v = string(key);
        return v == null ? null : specFile.getParent().resolve(v).normalize();
    }

    public Integer integer(String key) {
        return (Integer) parsed(key);
    }

    /** Sizes as {@code 1048576}, {@code 16m}, {@code 128 MiB}, {@code 1g} ({@link io.tributary.schema.ByteSizes}). */
    public Long bytes(String key) {
        return (Long) parsed(key);
    }

    public Duration duration(String key) {
        return (Duration) parsed(key);
    }

    @SuppressWarnings("unchecked")
    public List<String> list(String key) {
        List<String> l = (List<String>) parsed(key);
        return l == null ? List.of() : l;
    }

    /** The keys below a MAP setting, e.g. {@code kafka} → {@code {bootstrap.servers: ...}}, in spec order. */
    public Map<String, String> map(String prefix) {
        Map<String, String> out = new LinkedHashMap<>();
        values.forEach((k, v) -> {
            if (k.startsWith(prefix + ".")) {
                out.put(k.substring(prefix.length() + 1), v);
            }
        });
        return out;
    }

    public boolean bool(String key) {
        return Boolean.TRUE.equals(parsed(key));
    }

    public Trigger trigger() {
        Trigger t = (Trigger) parsed(Settings.TRIGGER_KEY);
        return t != null ? t : Trigger.parse(null);
    }

    /** The folder for the pipeline's local state. */
    public Path stateDir() {
        return has(Settings.STATE) ? path(Settings.STATE) : specFile.getParent().resolve(".tributary").resolve(name());
    }

    /** Every value in key order, each secret shown as {@value SecretKeys#MASK} ({@link SecretKeys}): for {@code checkpoint show} and the live page. */
    public Map<String, String> describe() {
        return SecretKeys.masked(new TreeMap<>(values));
    }
}
