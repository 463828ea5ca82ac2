package io.tributary.storage;

import io.tributary.storage.internal.S3Errors;
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

    /**
     * True when {@code e}, or a cause of it, says that object storage did not answer for now,
     * so that the same request may well succeed later: no connection, a timeout, a connection
     * dropped, or the server answering 5xx, 429 or throttling ({@code SlowDown}) after the
     * client's retries. A wrong bucket, credentials refused, a missing or replaced object are
     * not.
     */
    public static boolean outage(Throwable e) {
        return S3Errors.outage(e);
    }
}
