package io.tributary.schema;

/**
 * Text made safe to print on one line of a log or a terminal: the one place where control
 * characters are escaped, so that a file name (or any other text from outside) can neither end a
 * log line and forge the next, nor move the cursor or recolour a terminal.
 *
 * <p>{@code \n}, {@code \r} and {@code \t} become those two-character escapes; the other C0
 * controls, DEL and a byte of a file name that is not UTF-8 (kept as a lone surrogate
 * {@code U+DC80..U+DCFF}, see {@code FileNames} in file-ingest) become {@code \xHH}; the C1
 * controls, the Unicode line and paragraph separators and any other lone surrogate become
 * {@code \}{@code uHHHH}. Everything else, backslashes included, is left as it is, so an ordinary
 * name reads as written.
 */
public final class Printable {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private Printable() {
    }

    /** {@code text} with its control characters escaped; the same string when it has none (null stays null). */
    public static String escape(String text) {
        if (text == null) {
            return null;
        }
        int n = text.length();
        for (int i = 0; i < n; i++) {
            if (needsEscape(text, i)) {
                StringBuilder b = new StringBuilder(n + 16).append(text, 0, i);
                escapeFrom(text, i, b);
                return b.toString();
            }
        }
        return text;
    }

    private static void escapeFrom(String s, int from, StringBuilder b) {
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!needsEscape(s, i)) {
                b.append(c);
            } else if (c == '\n') {
                b.append("\\n");
            } else if (c == '\r') {
                b.append("\\r");
            } else if (c == '\t') {
                b.append("\\t");
            } else if (c < 0x20 || c == 0x7F) {
                hex(b, c);
            } else if (c >= 0xDC80 && c <= 0xDCFF) {
                hex(b, c & 0xFF); // a byte of a name that is not UTF-8
            } else {
                b.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 0xF]).append(HEX[(c >> 4) & 0xF]).append(HEX[c & 0xF]);
            }
        }
    }

    private static void hex(StringBuilder b, int v) {
        b.append("\\x").append(HEX[(v >> 4) & 0xF]).append(HEX[v & 0xF]);
    }

    private static boolean needsEscape(String s, int i) {
        char c = s.charAt(i);
        if (c >= 0x20 && c < 0x7F) {
            return false;
        }
        if (c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == '\u2028' || c == '\u2029') {
            return true;
        }
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return i == 0 || !Character.isHighSurrogate(s.charAt(i - 1));
        }
        return false;
    }
}
