package io.tributary.storage;

import java.io.IOException;

/**
 * A request to object storage that failed after its retries, with a message that names the
 * location and the cause in one line ({@link #getMessage()}), and the S3 error code when the
 * server answered one.
 */
public class StorageException extends IOException {
    private final String code;

    public StorageException(String message, String code, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    /** The S3 error code ({@code NoSuchBucket}, {@code AccessDenied}...), or null. */
    public String code() {
        return code;
    }
}
