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

    /**
     * Spark 4.2's initcap (ICU case mapping): each word's first character title-cased by its full mapping (ß as Ss, ﬁ as Fi),
     * the rest of the word lower-cased in its context (İ as i̇, a final Σ as ς); words split at spaces.
     */
    static String initcap(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            int end = s.indexOf(' ', i);
            end = end < 0 ? s.length() : end;
            if (end > i) {
                int cp = s.codePointAt(i);
                String first = new String(Character.toChars(cp));
                String title = TITLE_CASE.get(cp);
                sb.append(title != null ? title : new String(Character.toChars(Character.toTitleCase(cp))));
                String word = s.substring(i, end).toLowerCase(java.util.Locale.ROOT);
                sb.append(word, first.toLowerCase(java.util.Locale.ROOT).length(), word.length());
            }
            if (end < s.length()) {
                sb.append(' ');
            }
            i = end + 1;
        }
        return sb.toString();
    }

    /** The characters whose full title case (Unicode's SpecialCasing) is not their simple one. */
    private static final java.util.Map<Integer, String> TITLE_CASE = java.util.Map.ofEntries(
            java.util.Map.entry(0x00DF, "Ss"), java.util.Map.entry(0xFB00, "Ff"), java.util.Map.entry(0xFB01, "Fi"),
            java.util.Map.entry(0xFB02, "Fl"), java.util.Map.entry(0xFB03, "Ffi"), java.util.Map.entry(0xFB04, "Ffl"),
            java.util.Map.entry(0xFB05, "St"), java.util.Map.entry(0xFB06, "St"), java.util.Map.entry(0x0587, "\u0535\u0582"),
            java.util.Map.entry(0xFB13, "\u0544\u0576"), java.util.Map.entry(0xFB14, "\u0544\u0565"), java.util.Map.entry(0xFB15, "\u0544\u056B"),
            java.util.Map.entry(0xFB16, "\u054E\u0576"), java.util.Map.entry(0xFB17, "\u0544\u056D"), java.util.Map.entry(0x0149, "\u02BCN"),
            java.util.Map.entry(0x01F0, "J\u030C"), java.util.Map.entry(0x1E96, "H\u0331"), java.util.Map.entry(0x1E97, "T\u0308"),
            java.util.Map.entry(0x1E98, "W\u030A"), java.util.Map.entry(0x1E99, "Y\u030A"), java.util.Map.entry(0x1E9A, "A\u02BE"),
            java.util.Map.entry(0x0390, "\u0399\u0308\u0301"), java.util.Map.entry(0x03B0, "\u03A5\u0308\u0301"),
            java.util.Map.entry(0x1F50, "\u03A5\u0313"), java.util.Map.entry(0x1FB6, "\u0391\u0342"), java.util.Map.entry(0x1FC6, "\u0397\u0342"),
            java.util.Map.entry(0x1FD6, "\u0399\u0342"), java.util.Map.entry(0x1FE6, "\u03A5\u0342"), java.util.Map.entry(0x1FF6, "\u03A9\u0342"),
            java.util.Map.entry(0x1FE4, "\u03A1\u0313"));

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
