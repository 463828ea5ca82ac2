package io.tributary.service.spec;

import java.util.List;

/**
 * One declared setting of a pipeline spec: its dotted key, type, default, allowed values and a
 * line of documentation. {@link Settings#ALL} lists them all; the table in docs/configuration.md is
 * checked against it.
 */
public record Setting(String key, Type type, String defaultValue, boolean required, List<String> allowed, String doc) {
    public enum Type { STRING, PATH, INT, LONG, BYTES, DURATION, LIST, ENUM, TRIGGER, MAP }

    /** The environment variable that overrides it: {@code TRIBUTARY_} + key upper-cased, dots as underscores. */
    public String envName() {
        return envName(key);
    }

    public static String envName(String key) {
        return "TRIBUTARY_" + key.toUpperCase(java.util.Locale.ROOT).replace('.', '_');
    }

    /** A prefix setting ({@link Type#MAP}) takes any key below it, e.g. {@code kafka.}. */
    public boolean isPrefix() {
        return type == Type.MAP;
    }
}
