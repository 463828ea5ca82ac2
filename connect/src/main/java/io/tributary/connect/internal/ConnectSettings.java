package io.tributary.connect.internal;

import io.tributary.schema.TributaryException;
import io.tributary.settings.Setting;
import io.tributary.settings.Values;
import io.tributary.storage.Storage;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * A connector's settings are the stages' own {@link Setting definitions} under the connector's
 * names and defaults: the worker's {@link ConfigDef} is made from them (each value checked by the
 * definition's parser, an error on its key), and the stage reads them through {@link #values}.
 */
public final class ConnectSettings {
    /** The prefix of the keys passed to the file system of paths on object storage ({@code storage.fs.s3a.endpoint}). */
    public static final String STORAGE_PREFIX = "storage.";

    private ConnectSettings() {
    }

    /** The worker's definition of {@code settings}: text values, each checked by its setting's parser. */
    public static ConfigDef configDef(Collection<Setting<?>> settings) {
        ConfigDef def = new ConfigDef();
        for (Setting<?> s : settings) {
            Object dflt = s.isRequired() ? ConfigDef.NO_DEFAULT_VALUE : s.defaultValue();
            def.define(s.key(), ConfigDef.Type.STRING, dflt, validator(s),
                    s.isRequired() ? ConfigDef.Importance.HIGH : ConfigDef.Importance.MEDIUM, s.doc());
        }
        return def;
    }

    private static ConfigDef.Validator validator(Setting<?> s) {
        return (name, value) -> {
            if (value == null) {
                return;
            }
            if (s.isRequired() && value.toString().isBlank()) {
                throw new ConfigException(name, value, "give a value");
            }
            try {
                s.parse(name, value.toString());
            } catch (Setting.Invalid e) {
                throw new ConfigException(name, value, e.problem());
            } catch (TributaryException e) {
                throw new ConfigException(name, value, e.getMessage());
            }
        };
    }

    /**
     * The values of a connector's config for a stage: {@code placed} maps each stage setting's own
     * key to the connector's definition of it; a bad value is a {@link ConfigException} on its key.
     */
    public static Values values(Map<String, Setting<?>> placed, Map<String, String> props) {
        return new Values(placed, s -> props.get(s.key()), s -> below(s, props), (s, text, e) ->
                new ConfigException(s.key(), text, e instanceof Setting.Invalid i ? i.problem() : e.getMessage()));
    }

    /**
     * The keys below a {@link Setting.Kind#MAP} setting ({@code join.table}, {@code join.0.on}), without its prefix,
     * in key order (a worker hands a config over in no defined order).
     */
    private static Map<String, String> below(Setting<?> s, Map<String, String> props) {
        Map<String, String> out = new TreeMap<>();
        String prefix = s.key() + ".";
        props.forEach((k, v) -> {
            if (k.startsWith(prefix) && v != null) {
                out.put(k.substring(prefix.length()), v);
            }
        });
        return out;
    }

    /** The key of {@code keys} a {@link ConfigException} is about (its message names it), else {@code fallback}. */
    public static String keyOf(ConfigException e, Collection<String> keys, String fallback) {
        return keys.stream().filter(k -> e.getMessage().contains("configuration " + k + ":")).findFirst().orElse(fallback);
    }

    /** {@code settings} keyed by their own names. */
    public static Map<String, Setting<?>> byKey(Collection<Setting<?>> settings) {
        Map<String, Setting<?>> m = new LinkedHashMap<>();
        settings.forEach(s -> m.put(s.key(), s));
        return m;
    }

    /** The {@link #STORAGE_PREFIX}ed keys of a connector's config, without the prefix: a spec's {@code storage:} map. */
    public static Storage storage(Map<String, String> props) {
        Map<String, String> settings = new TreeMap<>();
        props.forEach((k, v) -> {
            if (k.startsWith(STORAGE_PREFIX) && v != null) {
                settings.put(k.substring(STORAGE_PREFIX.length()), v);
            }
        });
        return settings.isEmpty() ? Storage.NONE : Storage.of(settings);
    }
}
