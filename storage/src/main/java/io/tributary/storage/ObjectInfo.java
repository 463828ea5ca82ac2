package io.tributary.storage;

/**
 * An object as a listing or a HEAD request gives it, read once: key, size, last-modified time
 * (epoch milliseconds) and ETag (quotes removed). The ETag changes whenever the object is
 * replaced, so key + ETag names one version of its content.
 */
public record ObjectInfo(String key, long size, long mtimeMs, String etag) {
    /** The key's last part. */
    public String name() {
        return key.substring(key.lastIndexOf('/') + 1);
    }

    static String unquote(String etag) {
        if (etag == null) {
            return null;
        }
        return etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"") ? etag.substring(1, etag.length() - 1) : etag;
    }
}
