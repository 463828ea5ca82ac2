package io.tributary.expressions.internal;

import java.util.Arrays;

/** Text by code points (Spark counts characters of UTF-8 text, not UTF-16 units). */
final class Text {
    private Text() {
    }

    static int length(String s) {
        return s.codePointCount(0, s.length());
    }

    /** The code points {@code [from, to)}, clamped to the text. */
    static String slice(String s, int from, int to) {
        int n = length(s);
        from = Math.max(0, Math.min(from, n));
        to = Math.max(from, Math.min(to, n));
        int a = s.offsetByCodePoints(0, from);
        int b = s.offsetByCodePoints(a, to - from);
        return s.substring(a, b);
    }

    /**
     * Spark's {@code substring(str, pos, len)} ({@code UTF8String.substringSQL}): 1-based, a negative position counts from
     * the end, 0 is the first character; the end saturates at the ends of the INT range.
     */
    static String substring(String s, int pos, int len) {
        int n = length(s);
        int start = pos > 0 ? pos - 1 : pos < 0 ? n + pos : 0;
        long end = Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, (long) start + len));
        start = Math.max(start, 0);
        return start >= end || start >= n ? "" : slice(s, start, (int) end);
    }

    /** Spark's {@code ByteArray.subStringSQL}, whose int arithmetic wraps around where the text's does not. */
    static byte[] substring(byte[] b, int pos, int len) {
        if (pos > b.length) {
            return new byte[0];
        }
        int start = pos > 0 ? pos - 1 : pos < 0 ? b.length + pos : 0;
        int end = b.length - start < len ? b.length : start + len;
        start = Math.max(start, 0);
        return start >= end ? new byte[0] : Arrays.copyOfRange(b, start, end);
    }

    static String pad(String s, int len, String pad, boolean left) {
        int n = length(s);
        int missing = len - n;
        if (missing <= 0 || pad.isEmpty()) {
            return slice(s, 0, Math.max(len, 0));
        }
        StringBuilder fill = new StringBuilder();
        int padLen = length(pad);
        for (int i = 0; i < missing; i++) {
            int cp = pad.codePointAt(pad.offsetByCodePoints(0, i % padLen));
            fill.appendCodePoint(cp);
        }
        return left ? fill + s : s + fill;
    }

    static String trim(String s, boolean left, boolean right) {
        int a = 0;
        int b = s.length();
        while (left && a < b && s.charAt(a) == ' ') {
            a++;
        }
        while (right && b > a && s.charAt(b - 1) == ' ') {
            b--;
        }
        return s.substring(a, b);
    }

    /** Spark's initcap: every character lower-cased, the first one after a space (or at the start) upper-cased. */
    static String initcap(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        boolean start = true;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            sb.appendCodePoint(start ? Character.toTitleCase(cp) : Character.toLowerCase(cp));
            start = cp == ' ';
            i += Character.charCount(cp);
        }
        return sb.toString();
    }

    /** The 1-based character position of {@code sub} in {@code s} from character {@code from} (0-based), 0 if absent. */
    static int indexOf(String s, String sub, int from) {
        if (from > length(s)) {
            return 0;
        }
        int at = s.indexOf(sub, s.offsetByCodePoints(0, from));
        return at < 0 ? 0 : s.codePointCount(0, at) + 1;
    }

    static String reverse(String s) {
        return new StringBuilder(s).reverse().toString();
    }
}
