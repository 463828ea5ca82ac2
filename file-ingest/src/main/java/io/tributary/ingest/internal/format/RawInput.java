package io.tributary.ingest.internal.format;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A file's bytes as stored (compressed or not), counted and hashed as they are read: the
 * ingest-log's size and SHA-256 are those of the file, whatever the format reads of it.
 */
public final class RawInput extends FilterInputStream {
    private final MessageDigest digest;
    private long count;

    public RawInput(InputStream in) {
        super(in);
        try {
            this.digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public int read() throws IOException {
        int b = in.read();
        if (b >= 0) {
            digest.update((byte) b);
            count++;
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = in.read(b, off, len);
        if (n > 0) {
            digest.update(b, off, n);
            count += n;
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        byte[] buf = new byte[(int) Math.min(n, 8192)];
        long skipped = 0;
        while (skipped < n) {
            int r = read(buf, 0, (int) Math.min(buf.length, n - skipped));
            if (r < 0) {
                break;
            }
            skipped += r;
        }
        return skipped;
    }

    @Override
    public boolean markSupported() {
        return false;
    }

    /** Reads what the format left unread (a compressed file's trailer, padding), so that the count and hash cover the file. */
    public void drain() throws IOException {
        byte[] buf = new byte[64 * 1024];
        while (read(buf, 0, buf.length) >= 0) {
            // counted and hashed by read
        }
    }

    /** The bytes read so far. */
    public long count() {
        return count;
    }

    /** The SHA-256 of the bytes read, in hex; call once, at the end. */
    public String sha256() {
        return HexFormat.of().formatHex(digest.digest());
    }
}
