package io.tributary.storage.internal;

import io.tributary.schema.TributaryException;
import io.tributary.storage.ObjectLocation;
import software.amazon.awssdk.core.exception.SdkException;

/** The storage module's user-facing errors: an object-store location or setting that is wrong, a store that cannot be reached. */
public final class StorageErrors {
    private StorageErrors() {
    }

    /** When a location is not an object-store location. */
    public static TributaryException notAnObjectLocation(String location) {
        return new TributaryException("'" + location + "' is not an object-store location; write it as s3a://bucket/folder/");
    }

    /** When an object-store location names no bucket. */
    public static TributaryException noBucket(String location) {
        return new TributaryException("'" + location + "' names no bucket; write it as s3a://bucket/folder/");
    }

    /** When an object-store folder cannot be reached; S3Errors says why. */
    public static TributaryException unreachable(String what, ObjectLocation folder, String reason, SdkException cause) {
        return new TributaryException(what + " " + folder + ": " + reason, cause);
    }

    /** When a storage size setting is not a size. */
    public static TributaryException badSize(String key, String value) {
        return new TributaryException("storage setting " + key + " is '" + value + "'; write a size in bytes, or such as 64M "
                + "or 1G");
    }
}
