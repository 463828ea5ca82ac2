package io.tributary.ingest.internal;

/** Well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF). */
final class Utf8 {
    private Utf8() {
    }

    /** The offset (from {@code off}) of the first byte that is not valid UTF-8, or -1 when all are. */
    static int firstInvalid(byte[] b, int off, int len) {
        int i = off;
        int end = off + len;
        while (i < end) {
            int c = b[i];
            if (c >= 0) {
                i++;
                continue;
            }
            c &= 0xFF;
            int n;
            int lo = 0x80;
            int hi = 0xBF;
            if (c >= 0xC2 && c <= 0xDF) {
                n = 1;
            } else if (c >= 0xE0 && c <= 0xEF) {
                n = 2;
                if (c == 0xE0) {
                    lo = 0xA0;
                } else if (c == 0xED) {
                    hi = 0x9F;
                }
            } else if (c >= 0xF0 && c <= 0xF4) {
                n = 3;
                if (c == 0xF0) {
                    lo = 0x90;
                } else if (c == 0xF4) {
                    hi = 0x8F;
                }
            } else {
                return i - off;
            }
            if (i + n >= end) {
                return i - off;
            }
            int second = b[i + 1] & 0xFF;
            if (second < lo || second > hi) {
                return i - off;
            }
            for (int k = 2; k <= n; k++) {
                int cont = b[i + k] & 0xFF;
                if (cont < 0x80 || cont > 0xBF) {
                    return i - off;
                }
            }
            i += n + 1;
        }
        return -1;
    }
}
