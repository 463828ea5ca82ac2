package io.tributary.storage;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The settings of the file systems a pipeline's paths live on: the spec's {@code storage:} map,
 * passed through untouched as Kafka settings are ({@code fs.s3a.endpoint},
 * {@code fs.s3a.path.style.access}, ...). Keys of Hadoop's S3A connector keep their meaning here,
 * so that a spec works the same for Spark; an object-store path reads the {@code fs.s3a.} keys it
 * knows ({@link ObjectStore}), and every key also reaches the Hadoop configuration of other file
 * systems. {@link #toString()} never shows a secret ({@link SecretKeys}).
 */
public final class Storage {
    /** No settings: local paths, and S3 with AWS's default endpoint, region and credentials. */
    public static final Storage NONE = new Storage(Map.of());

    private final Map<String, String> settings;

    private Storage(Map<String, String> settings) {
        this.settings = java.util.Collections.unmodifiableMap(new TreeMap<>(settings));
    }

    public static Storage of(Map<String, String> settings) {
        return settings == null || settings.isEmpty() ? NONE : new Storage(settings);
    }

    /** Every setting, as given. */
    public Map<String, String> settings() {
        return settings;
    }

    public String get(String key) {
        return settings.get(key);
    }

    public String get(String key, String defaultValue) {
        return settings.getOrDefault(key, defaultValue);
    }

    /** True when {@code location} names an object in S3 ({@code s3a://}, {@code s3://}, {@code s3n://}). */
    public static boolean isObjectStore(String location) {
        String scheme = scheme(location);
        return scheme != null && (scheme.equals("s3a") || scheme.equals("s3") || scheme.equals("s3n"));
    }

    /** The URI scheme of {@code location} in lower case, or null for a plain (local) path, Windows drives included. */
    public static String scheme(String location) {
        if (location == null || !location.matches("^[A-Za-z][A-Za-z0-9+.-]+:.*") || location.matches("^[A-Za-z]:[\\\\/].*")) {
            return null;
        }
        return location.substring(0, location.indexOf(':')).toLowerCase(Locale.ROOT);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Storage s && s.settings.equals(settings);
    }

    @Override
    public int hashCode() {
        return settings.hashCode();
    }

    /** The settings with every secret masked ({@link SecretKeys}). */
    @Override
    public String toString() {
        return "Storage" + SecretKeys.masked(settings);
    }
}
