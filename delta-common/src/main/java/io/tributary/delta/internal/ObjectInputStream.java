package io.tributary.delta.internal;

import io.tributary.storage.ObjectLocation;
import io.tributary.storage.ObjectStore;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileSystem;

/**
 * An object read as a seekable stream: one GET from the current position on, opened when first
 * read; a seek a little ahead skips within that stream, any other seek starts a new GET at the
 * new position (a Parquet reader's jumps to the footer and back cost one request each). The
 * file system's statistics count each GET as a read operation and, as bytes read, the bytes taken
 * from the server: those read and those a short seek passes over (not the rest of at most 64 KiB
 * that a stream closed near its end reads to keep its connection).
 */
final class ObjectInputStream extends FSInputStream {
    /** A forward seek shorter than this reads on rather than asking the server again. */
    private static final long SKIP_WITHIN = 1L << 20;

    private final ObjectStore store;
    private final ObjectLocation object;
    private final FileSystem.Statistics statistics; // null: not counted
    private InputStream in;
    private long streamPos;
    private long pos;
    private boolean closed;

    ObjectInputStream(ObjectStore store, ObjectLocation object, FileSystem.Statistics statistics) {
        this.store = store;
        this.object = object;
        this.statistics = statistics;
    }

    private void counted(long bytes) {
        if (statistics != null && bytes > 0) {
            statistics.incrementBytesRead(bytes);
        }
    }

    private void position() throws IOException {
        if (closed) {
            throw new IOException(object + ": stream closed");
        }
        if (in != null && pos >= streamPos && pos - streamPos <= SKIP_WITHIN) {
            long skip = pos - streamPos;
            while (skip > 0) {
                long n = in.skip(skip);
                if (n <= 0) {
                    if (in.read() < 0) {
                        break;
                    }
                    n = 1;
                }
                skip -= n;
                streamPos += n;
                counted(n);
            }
            if (streamPos == pos) {
                return;
            }
        }
        closeStream();
        in = store.open(object, null, pos);
        streamPos = pos;
        if (statistics != null) {
            statistics.incrementReadOps(1);
        }
    }

    private void closeStream() throws IOException {
        if (in != null) {
            in.close();
            in = null;
        }
    }

    @Override
    public synchronized int read() throws IOException {
        position();
        int b = in.read();
        if (b >= 0) {
            pos++;
            streamPos++;
            counted(1);
        }
        return b;
    }

    @Override
    public synchronized int read(byte[] buf, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        position();
        int n = in.read(buf, off, len);
        if (n > 0) {
            pos += n;
            streamPos += n;
            counted(n);
        }
        return n;
    }

    @Override
    public synchronized void seek(long target) throws IOException {
        if (target < 0) {
            throw new EOFException(object + ": cannot seek to " + target);
        }
        pos = target;
    }

    @Override
    public synchronized long getPos() {
        return pos;
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
        return false;
    }

    @Override
    public synchronized void close() throws IOException {
        closed = true;
        closeStream();
    }
}
