package io.tributary.topology.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable big-endian byte buffer for the compact state encoding. */
final class ByteSink {
    private byte[] buf;
    private int size;

    ByteSink(int capacity) {
        buf = new byte[Math.max(16, capacity)];
    }

    private void ensure(int more) {
        if (size + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
        }
    }

    void writeByte(int b) {
        ensure(1);
        buf[size++] = (byte) b;
    }

    void writeInt(int v) {
        ensure(4);
        for (int shift = 24; shift >= 0; shift -= 8) {
            buf[size++] = (byte) (v >>> shift);
        }
    }

    void writeLong(long v) {
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            buf[size++] = (byte) (v >>> shift);
        }
    }

    void writeBytes(byte[] b) {
        writeInt(b.length);
        ensure(b.length);
        System.arraycopy(b, 0, buf, size, b.length);
        size += b.length;
    }

    /** {@link #writeBytes}, or -1 for null. */
    void writeNullableBytes(byte[] b) {
        if (b == null) {
            writeInt(-1);
        } else {
            writeBytes(b);
        }
    }

    void writeString(String s) {
        int n = s.length();
        ensure(4 + n);
        for (int i = 0; i < n; i++) { // ASCII, whose UTF-8 is its chars, written without an array of its own
            char c = s.charAt(i);
            if (c >= 0x80) {
                writeBytes(s.getBytes(StandardCharsets.UTF_8));
                return;
            }
            buf[size + 4 + i] = (byte) c;
        }
        writeInt(n);
        size += n;
    }

    /** Forgets what was written, keeping the buffer: a sink reused for one encoding after another. */
    void reset() {
        size = 0;
    }

    int size() {
        return size;
    }

    /** The buffer, its first {@link #size} bytes written; valid until the next write or {@link #reset}. */
    byte[] array() {
        return buf;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }
}
