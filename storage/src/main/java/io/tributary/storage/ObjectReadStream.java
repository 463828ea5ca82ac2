package io.tributary.storage;

import java.io.FilterInputStream;
import java.io.IOException;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * The body of a GET as a stream. Closed before its end, it drops the connection instead of
 * letting the HTTP client read the rest of the body to reuse it (which reads the whole rest of
 * the object: a Parquet reader's seek to another column would download the file to its end); a
 * rest of at most {@value #DRAIN_BYTES} bytes is still read, as that is cheaper than a new
 * connection.
 */
final class ObjectReadStream extends FilterInputStream {
    static final int DRAIN_BYTES = 64 * 1024;

    private final ResponseInputStream<GetObjectResponse> response;
    private final long length;
    private long read;
    private boolean closed;

    ObjectReadStream(ResponseInputStream<GetObjectResponse> response) {
        super(response);
        this.response = response;
        Long l = response.response().contentLength();
        this.length = l == null ? -1 : l;
    }

    @Override
    public int read() throws IOException {
        int b = in.read();
        if (b >= 0) {
            read++;
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = in.read(b, off, len);
        if (n > 0) {
            read += n;
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = in.skip(n);
        if (skipped > 0) {
            read += skipped;
        }
        return skipped;
    }

    /** True when the stream was closed before its end by dropping the connection. */
    boolean aborted() {
        return closed && (length < 0 || length - read > DRAIN_BYTES);
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (aborted()) {
            response.abort();
        }
        response.close();
    }

    @Override
    public boolean markSupported() {
        return false;
    }
}
