package io.tributary.topology.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Reads what {@link ByteSink} wrote. */
final class ByteSource {
    private byte[] buf;
    private int pos;

    ByteSource(byte[] buf, int offset) {
        this.buf = buf;
        this.pos = offset;
    }

    /** Reads {@code buf} from {@code offset} on: one source reused for one decoding after another. */
    ByteSource at(byte[] buf, int offset) {
        this.buf = buf;
        this.pos = offset;
        return this;
    }

    int readByte() {
        return buf[pos++];
    }

    int readInt() {
        int v = 0;
        for (int i = 0; i < 4; i++) {
            v = (v << 8) | (buf[pos++] & 0xFF);
        }
        return v;
    }

    long readLong() {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (buf[pos++] & 0xFFL);
        }
        return v;
    }

    /** What {@link ByteSink#writeNullableBytes} wrote. */
    byte[] readNullableBytes() {
        int n = readInt();
        if (n < 0) {
            return null;
        }
        byte[] b = Arrays.copyOfRange(buf, pos, pos + n);
        pos += n;
        return b;
    }

    byte[] readBytes() {
        int n = readInt();
        byte[] b = Arrays.copyOfRange(buf, pos, pos + n);
        pos += n;
        return b;
    }

    String readString() {
        int n = readInt();
        String s = new String(buf, pos, n, StandardCharsets.UTF_8);
        pos += n;
        return s;
    }
}
