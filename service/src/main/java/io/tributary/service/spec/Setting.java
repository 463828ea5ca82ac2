package io.tributary.service.spec;

import java.util.List;

/**
 * One declared setting of a pipeline spec: its dotted key, type, default, allowed values, the
 * range of a whole number and a line of documentation. {@link Settings#ALL} lists them all; the
 * table in docs/configuration.md is checked against it.
 */
public record Setting(String key, Type type, String defaultValue, boolean required, List<String> allowed, String doc, long min, long max) {
    /**
     * The kinds of value. A {@code PATH} names a folder (relative to the spec's folder): a file
     * at that path is refused at start.
     */
    public enum Type { STRING, PATH, INT, LONG, BYTES, DURATION, LIST, ENUM, TRIGGER, MAP }

    /** A setting with no range. */
    public Setting(String key, Type type, String defaultValue, boolean required, List<String> allowed, String doc) {
        this(key, type, defaultValue, required, allowed, doc, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /** This setting, with its whole-number values limited to {@code min..max}. */
    public Setting within(long min, long max) {
        return new Setting(key, type, defaultValue, required, allowed, doc, min, max);
    }

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
