package io.tributary.storage;

import io.tributary.storage.internal.StorageErrors;

/**
 * An object or a folder (a key prefix) in a bucket: {@code s3a://bucket/key}. A folder's key has
 * no trailing {@code /} here; {@link #prefix()} adds it.
 */
public record ObjectLocation(String scheme, String bucket, String key) {
    /** Parses {@code s3a://bucket/a/b}; a trailing {@code /} and doubled ones are dropped from the key. */
    public static ObjectLocation parse(String location) {
        String scheme = Storage.scheme(location);
        if (scheme == null || !location.startsWith(scheme + "://", 0) && !location.regionMatches(true, 0, scheme + "://", 0, scheme.length() + 3)) {
            throw StorageErrors.notAnObjectLocation(location);
        }
        String rest = location.substring(scheme.length() + 3);
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        if (bucket.isEmpty()) {
            throw StorageErrors.noBucket(location);
        }
        String key = slash < 0 ? "" : rest.substring(slash + 1).replaceAll("/{2,}", "/");
        while (key.endsWith("/")) {
            key = key.substring(0, key.length() - 1);
        }
        while (key.startsWith("/")) {
            key = key.substring(1);
        }
        return new ObjectLocation(scheme, bucket, key);
    }

    /** The key as a folder's prefix: {@code a/b/}, or empty for the bucket's root. */
    public String prefix() {
        return key.isEmpty() ? "" : key + "/";
    }

    /** The location of {@code name} inside this folder. */
    public ObjectLocation child(String name) {
        return new ObjectLocation(scheme, bucket, prefix() + name);
    }

    /** The location of another key in the same bucket. */
    public ObjectLocation withKey(String otherKey) {
        return new ObjectLocation(scheme, bucket, otherKey);
    }

    /** The last part of the key. */
    public String name() {
        return key.substring(key.lastIndexOf('/') + 1);
    }

    /** {@code s3a://bucket/key}. */
    @Override
    public String toString() {
        return scheme + "://" + bucket + (key.isEmpty() ? "" : "/" + key);
    }
}
